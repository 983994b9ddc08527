// Small DOM helpers: build elements without innerHTML (all data is shown as text).

/**
 * Creates an element. `attrs` keys: `class`, `text`, `title`, `dataset` (object), `on<event>`
 * (listener), anything else becomes an attribute. Children may be nodes, strings or arrays;
 * null/undefined/false children are skipped.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = String(v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replaces all children of `el`. */
export function setChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** A status pill whose colour follows the status word. */
export function pill(status, extra) {
  const s = status === undefined || status === null ? "—" : String(status);
  return h("span", { class: `pill st-${cssWord(s)}${extra ? " " + extra : ""}`, text: s });
}

export function cssWord(s) {
  return String(s).toLowerCase().replace(/[^a-z0-9_-]/g, "_").slice(0, 40);
}

/** Shortens a string for display (UTF-16 length), marking the cut. */
export function clip(s, max = 240) {
  if (s === undefined || s === null) return "";
  const str = typeof s === "string" ? s : String(s);
  return str.length > max ? str.slice(0, max) + `… (+${str.length - max})` : str;
}

export function fmtInt(n) {
  return Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "—";
}

export function fmtUs(us) {
  if (!Number.isFinite(us)) return "—";
  if (us >= 10000) return `${(us / 1000).toFixed(1)} ms`;
  if (us >= 100) return `${us.toFixed(0)} µs`;
  return `${us.toFixed(1)} µs`;
}

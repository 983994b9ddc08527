// Collapsible JSON view of the projection state. A node whose value is not the same object
// (`!==`) as in the previous state is marked as changed: the package keeps unchanged subtrees
// identical between states, so this shows exactly what the last step touched.

import { h, clip } from "./dom.js";

const ARRAY_TAIL = 100; // items shown at the end of a long array
const OBJECT_MAX = 300; // keys shown of a large object

export class JsonTree {
  /** @param {HTMLElement} container */
  constructor(container) {
    this.container = container;
    this.open = new Set(["$", "$.runtime", "$.hydration"]);
    this.cur = undefined;
    this.prev = undefined;
    this.hasPrev = false;
    container.addEventListener("click", (e) => {
      const t = e.target instanceof Element ? e.target.closest("[data-path]") : null;
      if (!t || !container.contains(t)) return;
      const p = t.getAttribute("data-path");
      if (this.open.has(p)) this.open.delete(p);
      else this.open.add(p);
      this.draw();
    });
  }

  /** Shows `cur`; `prev` is the state before the last step (or `hasPrev` false: nothing marked). */
  render(cur, prev, hasPrev) {
    this.cur = cur;
    this.prev = prev;
    this.hasPrev = hasPrev;
    this.draw();
  }

  draw() {
    const frag = document.createDocumentFragment();
    const changedTop = [];
    if (this.cur && typeof this.cur === "object") {
      for (const k of Object.keys(this.cur)) {
        if (this.hasPrev && (!this.prev || this.prev[k] !== this.cur[k])) changedTop.push(k);
      }
    }
    frag.appendChild(
      h(
        "div",
        { class: "jt-summary", "data-testid": "changed-keys" },
        this.hasPrev
          ? changedTop.length
            ? ["Changed by the last step: ", h("b", { text: changedTop.join(", ") })]
            : "The last step changed nothing."
          : "Initial state."
      )
    );
    frag.appendChild(this.node("state", this.cur, this.prev, this.hasPrev, "$", 0));
    this.container.replaceChildren(frag);
  }

  node(key, cur, prev, hasPrev, path, depth) {
    const changed = hasPrev && prev !== cur;
    const isObj = cur !== null && typeof cur === "object";
    const row = h("div", { class: "jt-row" + (changed ? " jt-changed" : "") });
    const label = h("span", { class: "jt-key", text: key });
    if (!isObj) {
      row.append(h("span", { class: "jt-sp" }), label, ": ", leaf(cur));
      return h("div", { class: "jt-node" }, row);
    }
    const isArr = Array.isArray(cur);
    const keys = isArr ? null : Object.keys(cur);
    const size = isArr ? cur.length : keys.length;
    const open = this.open.has(path);
    row.append(
      h("span", { class: "jt-toggle", "data-path": path, text: open ? "▾" : "▸" }),
      h("span", { class: "jt-key jt-click", "data-path": path, text: key }),
      ": ",
      h("span", { class: "jt-meta", text: isArr ? `Array(${size})` : `{${size} key${size === 1 ? "" : "s"}}` })
    );
    const wrap = h("div", { class: "jt-node" }, row);
    if (!open) return wrap;
    const kids = h("div", { class: "jt-kids" });
    const prevObj = hasPrev && prev !== null && typeof prev === "object" ? prev : undefined;
    if (isArr) {
      const start = Math.max(0, size - ARRAY_TAIL);
      if (start > 0) kids.append(h("div", { class: "jt-more", text: `… ${start.toLocaleString("en-US")} earlier items not shown` }));
      for (let i = start; i < size; i++) {
        const pv = prevObj ? prevObj[i] : undefined;
        kids.append(this.node(String(i), cur[i], pv, hasPrev, `${path}[${i}]`, depth + 1));
      }
    } else {
      const shown = keys.slice(0, OBJECT_MAX);
      for (const k of shown) {
        const pv = prevObj ? prevObj[k] : undefined;
        kids.append(this.node(k, cur[k], pv, hasPrev, `${path}.${k}`, depth + 1));
      }
      if (keys.length > shown.length) kids.append(h("div", { class: "jt-more", text: `… ${keys.length - shown.length} more keys` }));
    }
    wrap.append(kids);
    return wrap;
  }
}

function leaf(v) {
  if (v === undefined) return h("span", { class: "jt-undef", text: "undefined" });
  if (v === null) return h("span", { class: "jt-null", text: "null" });
  if (typeof v === "string") return h("span", { class: "jt-str", text: JSON.stringify(clip(v, 300)) });
  if (typeof v === "number") return h("span", { class: "jt-num", text: String(v) });
  if (typeof v === "boolean") return h("span", { class: "jt-bool", text: String(v) });
  return h("span", { text: String(v) });
}

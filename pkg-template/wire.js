// Wire decoding and structural sharing (see docs/design.md, "Values" and "Patch protocol").
//
// Rust writes plain JSON with three escapes inside strings:
//   "\u0000u"     -> an own property / array slot holding undefined
//   "\u0000e<i>"  -> the i-th event object of the list the wrapper holds
//   "\u0000<s>"   -> the string <s> (a real string that starts with U+0000)

function decodeString(s, events) {
  if (s.charCodeAt(0) !== 0) return s;
  const tag = s.charCodeAt(1);
  if (tag === 117 /* u */ && s.length === 2) return undefined;
  if (tag === 101 /* e */) return events[Number(s.slice(2))];
  return s.slice(1);
}

function needsDecoding(x) {
  return typeof x === "string" ? x.charCodeAt(0) === 0 : typeof x === "object" && x !== null;
}

/** Decode a freshly parsed wire value in place; returns the decoded value. */
export function decodeWire(value, events) {
  if (typeof value === "string") return decodeString(value, events);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const x = value[i];
      if (needsDecoding(x)) value[i] = decodeWire(x, events);
    }
    return value;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = value[k];
    if (!needsDecoding(x)) continue;
    const d = decodeWire(x, events);
    if (d === x) continue;
    if (k === "__proto__") {
      Object.defineProperty(value, k, { value: d, writable: true, enumerable: true, configurable: true });
    } else {
      value[k] = d;
    }
  }
  return value;
}

/** Parse and decode wire text. */
export function parseWire(text, events) {
  return decodeWire(JSON.parse(text), events);
}

function setOwn(target, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

function shallowCopy(x) {
  return Array.isArray(x) ? x.slice() : { ...x };
}

/**
 * Build the next state from `prev` and a patch (already JSON-parsed, not yet decoded).
 * Only the containers on the ops' paths are copied, each at most once; every other subtree is
 * the same object as in `prev`, and `prev` itself is never modified.
 */
export function applyPatch(prev, patch, events) {
  const ops = patch.ops;
  if (patch.full || prev === undefined) {
    let state = prev;
    for (const op of ops) if (op.p.length === 0) state = decodeWire(op.v, events);
    return state;
  }
  if (ops.length === 0) return prev;
  const fresh = new Set();
  let root = shallowCopy(prev);
  fresh.add(root);
  for (const op of ops) {
    const path = op.p;
    if (path.length === 0) {
      root = decodeWire(op.v, events);
      fresh.add(root);
      continue;
    }
    let parent = root;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i];
      let child = parent[k];
      if (!fresh.has(child)) {
        child = shallowCopy(child);
        fresh.add(child);
        setOwn(parent, k, child);
      }
      parent = child;
    }
    const last = path[path.length - 1];
    if ("v" in op) {
      setOwn(parent, last, decodeWire(op.v, events));
      continue;
    }
    let list = parent[last];
    if (!fresh.has(list)) {
      // Copy once, appending the new slots in the same step: `concat` allocates the final size,
      // where `slice` + append would copy the whole array a second time to grow it.
      const old = Array.isArray(list) ? list : [];
      const keep = Math.min(old.length, op.len);
      const tail = [];
      for (const [i, v] of op.set) if (i >= keep) tail[i - keep] = decodeWire(v, events);
      list = (keep === old.length ? old : old.slice(0, keep)).concat(tail);
      if (list.length < op.len) list.length = op.len;
      fresh.add(list);
      setOwn(parent, last, list);
      for (const [i, v] of op.set) if (i < keep) list[i] = decodeWire(v, events);
      continue;
    }
    if (list.length > op.len) list.length = op.len;
    for (const [i, v] of op.set) list[i] = decodeWire(v, events);
  }
  return root;
}

// Wire decoding and structural sharing (see docs/design.md, "Values" and "Patch protocol").
import { makers } from "./glue/templates.js";
import {
  TAPE_ARR,
  TAPE_EVENT,
  TAPE_FALSE,
  TAPE_FIELD,
  TAPE_LITERAL_NAME,
  TAPE_MADE,
  TAPE_NULL,
  TAPE_NUM,
  TAPE_OBJ,
  TAPE_STR,
  TAPE_TRUE,
  TAPE_UINT,
  TAPE_UNDEFINED,
} from "./glue/tape-codes.js";
import { RULES, hasStateDelta } from "./rules.js";
//
// Rust writes plain JSON with three escapes inside strings:
//   "\u0000u"     -> an own property / array slot holding undefined
//   "\u0000e<i>"  -> the i-th event object of the list the wrapper holds
//   "\u0000f<i>:<f>" -> field <f> of the i-th event object (a long string the state copies
//                      from an event: the caller's own string is reused, not a second copy)
//   "\u0000t<t>:<i>:<c>:<c>:<c>" -> the object template <t> makes from the i-th event object with
//                      the codes <c> (a timeline entry, a read-model projection)
//   "\u0000<s>"   -> the string <s> (a real string that starts with U+0000)

/**
 * The object `"\u0000t<template>:<event>:<code>:<code>:<code>"` stands for: made by the template's
 * maker (glue/templates.js, written from projection::templates) from the caller's own event.
 */
function made(s, events) {
  const n = [0, 0, 0, 0, 0];
  let k = 0;
  for (let i = 2; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 58 /* : */) k++;
    else n[k] = n[k] * 10 + (c - 48);
  }
  return makers[n[0]](events[n[1]], n[2], n[3], n[4]);
}

function decodeString(s, events) {
  if (s.charCodeAt(0) !== 0) return s;
  const tag = s.charCodeAt(1);
  if (tag === 117 /* u */ && s.length === 2) return undefined;
  if (tag === 116 /* t */) return made(s, events);
  if (tag === 101 /* e */) return events[Number(s.slice(2))];
  if (tag === 102 /* f */) {
    const colon = s.indexOf(":", 2);
    return events[Number(s.slice(2, colon))][s.slice(colon + 1)];
  }
  return s.slice(1);
}

const hasOwn = Object.hasOwn ?? ((o, k) => Object.prototype.hasOwnProperty.call(o, k));

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
  // `for...in` walks the keys without allocating a key array (Object.keys did, per object);
  // inherited enumerable keys (a polluted Object.prototype) are skipped by the `hasOwn` checks.
  for (const k in value) {
    const x = value[k];
    if (typeof x === "string") {
      if (x.charCodeAt(0) !== 0 || !hasOwn(value, k)) continue;
      const d = decodeString(x, events);
      if (k === "__proto__") {
        Object.defineProperty(value, k, { value: d, writable: true, enumerable: true, configurable: true });
      } else {
        value[k] = d;
      }
    } else if (typeof x === "object" && x !== null && hasOwn(value, k)) {
      decodeWire(x, events);
    }
  }
  return value;
}

export const isObject = (x) => x !== null && typeof x === "object";

/**
 * Whether two decoded values are the same value: identical, or arrays of the same values, or
 * objects with the same own keys in the same order holding the same values. Linking two objects
 * (below) only ever joins the same value, so it never changes a result.
 */
export const sameValue = (a, b) => sameTree(a, b, false, 0);

/**
 * Whether `JSON.stringify` writes the same text for two of the caller's values: `sameValue`, but
 * only plain objects and arrays without a `toJSON` are looked into (to a depth of
 * `SAME_TEXT_DEPTH`), and non-finite numbers are alike. False when unsure.
 */
export const sameJsonText = (a, b) => sameTree(a, b, true, 0);

// Past this depth `sameJsonText` answers "unsure" (an event nested deeper is refused anyway).
const SAME_TEXT_DEPTH = 64;

/** Whether `x` (an object) is one `JSON.stringify` writes from its own keys (or items) alone. */
export function plainJson(x) {
  const proto = Object.getPrototypeOf(x);
  const plain = Array.isArray(x) ? proto === Array.prototype : proto === Object.prototype || proto === null;
  return plain && !("toJSON" in x);
}

function sameTree(a, b, json, depth) {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b)) {
    return json
      ? typeof a === "number" && typeof b === "number" && !Number.isFinite(a) && !Number.isFinite(b)
      : a !== a && b !== b;
  }
  if (json && (depth >= SAME_TEXT_DEPTH || !plainJson(a) || !plainJson(b))) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameTree(a[i], b[i], json, depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== other[i] || !sameTree(a[keys[i]], b[keys[i]], json, depth + 1)) return false;
  }
  return true;
}

// How far from its place an item of a state list is looked for (an operation that adds or
// removes items shifts the others by one).
const SHIFT_WINDOW = 4;

/**
 * The state a state-delta pass made (`next`, a new object) holds copies of what crossed whole where the
 * patch could not name it: a node the patch made new whole (a root of the state an operation moved
 * a key of), the items of a list an operation shifted (`subagents.threads` as well as `timeline`:
 * the patch rewrites each shifted item to the value of its neighbour). Each becomes the caller's
 * own object (from `state`) of the same value: the node itself, or an item of the list at most
 * `SHIFT_WINDOW` places away that the list does not hold already. `ops` and `fresh`: the
 * patch's ops and the containers `applyPatch` made for it; below the roots only the nodes on the
 * ops' paths are looked at, and only those in a container of `fresh` are changed.
 */
export function keepOwnObjects(next, state, ops, fresh) {
  if (!isObject(next) || next === state || !isObject(state)) return;
  // The nodes below the roots the ops go through or write, deepest first: one then found equal
  // to the caller's is the caller's whole. (Keyed by their path's members, each followed by
  // U+0000: two paths that would share a key differ only in members holding one, and then one of
  // them is looked at twice or not at all, which changes no value.)
  const nodes = new Map();
  for (let o = 0; o < ops.length; o++) {
    const path = ops[o].p;
    let key = "";
    for (let i = 0; i < path.length; i++) {
      key += `${path[i]}\u0000`;
      if (i > 0 && !nodes.has(key)) nodes.set(key, path.slice(0, i + 1));
    }
  }
  const below = [...nodes.values()].sort((x, y) => y.length - x.length);
  // A large patch's containers are looked up in a set.
  const made = fresh.length > 16 ? new Set(fresh) : undefined;
  for (const path of below) {
    let parent = next;
    let own = state;
    for (let i = 0; i < path.length - 1 && isObject(parent) && isObject(own); i++) {
      const k = path[i];
      parent = parent[k];
      own = hasOwn(own, k) ? own[k] : undefined;
    }
    if (!isObject(parent) || !isObject(own) || !(made === undefined ? fresh.includes(parent) : made.has(parent))) continue;
    keepOwn(parent, own, path[path.length - 1]);
  }
  for (const key of Object.keys(next)) keepOwn(next, state, key);
}

/** `keepOwnObjects` for the member `key` of `next` (a container the patch made), against `state`'s. */
function keepOwn(next, state, key) {
  const value = next[key];
  const own = hasOwn(state, key) ? state[key] : undefined;
  if (!isObject(own) || value === own || !isObject(value)) return;
  if (sameValue(value, own)) {
    setOwn(next, key, own);
    return;
  }
  if (!Array.isArray(value) || !Array.isArray(own)) return;
  // The items to link: those not at their place, nor one of the caller's near it.
  let open;
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (item === own[i] || !isObject(item)) continue;
    let near = false;
    for (let j = Math.max(0, i - SHIFT_WINDOW); j <= i + SHIFT_WINDOW && j < own.length && !near; j++) near = own[j] === item;
    if (!near) (open ??= []).push(i);
  }
  if (open === undefined) return;
  // Each is linked to the nearest of the caller's items of its value the list does not hold yet
  // (`held`, made once an item has a match: most lists have none), the nearest first over the
  // whole list: where an operation copied an item, the copy stays a copy and the item shifted by
  // one stays the caller's.
  let held;
  let list = value;
  for (let d = 0; d <= 2 * SHIFT_WINDOW && open.length > 0; d++) {
    const shift = d % 2 === 0 ? d / 2 : -(d + 1) / 2;
    let left = 0;
    for (const i of open) {
      const j = i + shift;
      const candidate = j >= 0 && j < own.length ? own[j] : undefined;
      if (isObject(candidate) && sameValue(value[i], candidate) && !(held ??= new Set(value)).has(candidate)) {
        // The list may be one of the caller's (moved here): change a copy.
        if (list === value) list = value.slice();
        list[i] = candidate;
        held.add(candidate);
      } else {
        open[left++] = i;
      }
    }
    open.length = left;
  }
  if (list !== value) setOwn(next, key, list);
}

/**
 * A coding workbench view holds the given state's own items, as the reference's does: its
 * `diagnostics` are those of `state.diagnostics` it keeps (in order), and when a read model
 * merges requests into `actions`, the state's actions come first (the last of each id), then
 * the new ones, whose ids no state action has. The wire carries copies; each is replaced by the
 * state's item it equals. For a freshly decoded `view` only (it writes into its lists). Returns
 * `view`.
 */
export function shareCodingViewItems(view, state) {
  if (!isObject(view) || !isObject(state)) return view;
  const own = state.diagnostics;
  const list = view.diagnostics;
  if (Array.isArray(own) && Array.isArray(list) && list !== own) {
    let j = 0;
    for (let i = 0; i < list.length; i++) {
      while (j < own.length && !sameValue(own[j], list[i])) j++;
      if (j === own.length) break;
      list[i] = own[j++];
    }
  }
  const actions = view.actions;
  if (Array.isArray(actions) && Array.isArray(state.actions) && actions !== state.actions) {
    const byId = new Map();
    for (const action of state.actions) if (isObject(action)) byId.set(action.id, action);
    for (let i = 0; i < actions.length; i++) {
      const action = actions[i];
      const mine = isObject(action) ? byId.get(action.id) : undefined;
      if (mine !== undefined && sameValue(mine, action)) actions[i] = mine;
    }
  }
  return view;
}

/** The state keys whose projections are also entries of `readModel.events` in a batch state. */
const BUCKETS = ["tools", "actions"];

/**
 * A state as the reference builds it holds each tool call's MCP view once: `mcp.tools` lists the
 * very objects of `toolCalls.calls[*].mcp` (the calls that have one, in call order). The wire
 * carries the two as separate copies; this makes each `mcp.tools` entry the call's own object
 * where the two are the same value. For a freshly decoded `mcp.tools` only (it writes into it).
 * Returns `state`.
 */
export function linkMcpViews(state) {
  return linkAllMcpViews(state, true);
}

/**
 * Join call `i`'s view and entry `k` of `tools` when they are the same value, writing into the
 * side just decoded: the entry becomes the call's object when `intoTools` (a freshly decoded
 * `mcp.tools`), else the call (freshly decoded) takes the entry.
 */
function linkMcpPair(calls, tools, i, k, intoTools) {
  const call = calls[i];
  const view = isObject(call) ? call.mcp : undefined;
  if (!isObject(view) || view === tools[k] || !sameValue(view, tools[k])) return;
  if (intoTools) tools[k] = view;
  else call.mcp = tools[k];
}

/** Link every call's view with its `mcp.tools` entry (see `linkMcpPair`). Returns `state`. */
function linkAllMcpViews(state, intoTools) {
  const calls = isObject(state) && isObject(state.toolCalls) ? state.toolCalls.calls : undefined;
  const tools = isObject(state) && isObject(state.mcp) ? state.mcp.tools : undefined;
  if (!Array.isArray(calls) || !Array.isArray(tools) || tools.length === 0) return state;
  let k = 0;
  for (let i = 0; i < calls.length && k < tools.length; i++) {
    if (isObject(calls[i]) && calls[i].mcp) linkMcpPair(calls, tools, i, k++, intoTools);
  }
  return state;
}

/**
 * `linkMcpViews` for a projector's state after an incremental patch, writing only into objects
 * the patch made (`mcp.tools` when it made that list, else the calls it set or changed) and
 * visiting only the calls and entries it set. A patch that replaces `mcp` or `toolCalls` whole
 * (never a long stream's usual patch) relinks them all. Returns `next`.
 */
export function linkMcpViewsAfterPatch(next, prev, patch) {
  if (next === prev || !isObject(next) || !isObject(prev)) return next;
  const tools = isObject(next.mcp) ? next.mcp.tools : undefined;
  const calls = isObject(next.toolCalls) ? next.toolCalls.calls : undefined;
  if (!Array.isArray(tools) || tools.length === 0 || !Array.isArray(calls)) return next;
  const intoTools = !isObject(prev.mcp) || tools !== prev.mcp.tools;
  const ops = patch.ops;
  for (let o = 0; o < ops.length; o++) {
    const { p, set } = ops[o];
    const isMcp = p[0] === "mcp";
    if (!isMcp && p[0] !== "toolCalls") continue;
    const list = isMcp ? "tools" : "calls";
    if (p.length === 1 || (p[1] === list && p.length === 2 && set === undefined)) {
      return linkAllMcpViews(next, intoTools);
    }
    if (p[1] !== list) continue;
    const slots = p.length > 2 ? [p[2]] : set.map((slot) => slot[0]);
    for (let n = 0; n < slots.length; n++) {
      const i = isMcp ? callOfEntry(calls, tools, slots[n]) : slots[n];
      const k = isMcp ? slots[n] : entryOfCall(calls, tools, slots[n]);
      if (i >= 0 && k >= 0) linkMcpPair(calls, tools, i, k, intoTools);
    }
  }
  return next;
}

/**
 * Which call has entry `k` of `tools` (the calls with a view, in order), counted from the end
 * (a patch touches recent ones); -1 if none.
 */
function callOfEntry(calls, tools, k) {
  let after = tools.length - 1 - k;
  for (let i = calls.length - 1; i >= 0 && after >= 0; i--) {
    if (isObject(calls[i]) && calls[i].mcp && after-- === 0) return i;
  }
  return -1;
}

/** Which entry of `tools` is call `i`'s view, counted from the end; -1 if it has none. */
function entryOfCall(calls, tools, i) {
  if (!isObject(calls[i]) || !calls[i].mcp) return -1;
  let k = tools.length - 1;
  for (let j = calls.length - 1; j > i && k >= 0; j--) if (isObject(calls[j]) && calls[j].mcp) k--;
  return k;
}

/**
 * A batch state (`projectAgentUiState` and the functions built on it) as the reference builds
 * it: besides the MCP views (`linkMcpViews`), each projection of `tools` and `actions` is the
 * very object of its `readModel.events` entry (the projectors' states do not share those). The
 * wire carries them as separate copies; this makes each such entry the bucket's object: an entry
 * made from the same source event that is the same value (a `state.delta` that changed one side
 * leaves the two apart, as in the reference). Only a state delta can make the two differ, so the
 * values are compared only when the state's `events` include one. Without one, artifact and
 * evidence views hold their event's own metadata (`linkRefViewMetadata`). For a freshly decoded
 * state only. Returns `state`.
 */
export function shareBatchViews(state, events) {
  const deltas = hasStateDelta(events);
  linkMcpViews(state);
  // A state delta may copy, re-source or rewrite a view (the reference's then holds a copy or
  // another event's record): the metadata is linked only without one.
  if (!deltas) linkRefViewMetadata(state, events);
  const list = isObject(state) && isObject(state.readModel) ? state.readModel.events : undefined;
  if (!Array.isArray(list)) return state;
  // Each source event's entries, in order (an event object given twice has two): its first
  // entry, and from each entry the next one of the same source (-1: none). One map entry per
  // event and two typed arrays, not an array per event.
  const first = new Map();
  const next = new Int32Array(list.length);
  for (let j = list.length - 1; j >= 0; j--) {
    const source = isObject(list[j]) ? list[j].source : undefined;
    if (!isObject(source)) continue;
    const later = first.get(source);
    next[j] = later === undefined ? -1 : later;
    first.set(source, j);
  }
  // An entry takes the first bucket projection that is its value.
  const linked = new Uint8Array(list.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const bucket = state[BUCKETS[b]];
    if (!Array.isArray(bucket)) continue;
    for (let i = 0; i < bucket.length; i++) {
      const projection = bucket[i];
      let j = isObject(projection) ? first.get(projection.source) : undefined;
      if (j === undefined) continue;
      for (; j >= 0; j = next[j]) {
        if (linked[j] === 0 && (!deltas || sameValue(list[j], projection))) {
          list[j] = projection;
          linked[j] = 1;
          break;
        }
      }
    }
  }
  return state;
}

/** The ref-view lists of a state, each with the event field that lists its ids (`refViews`). */
const REF_VIEWS = RULES.refViews;

/**
 * A batch state's artifact (evidence) view is made from the first of its events that lists the
 * view's id in `artifactRefs` (`evidenceRefs`), and the reference's holds that event's own
 * `payload.metadata` record. The wire carries a copy; this puts the event's object in its place
 * where the two are the same value. For a freshly decoded state of events without a state delta
 * only.
 */
function linkRefViewMetadata(state, events) {
  if (!isObject(state) || !Array.isArray(events)) return;
  for (const [key, field] of REF_VIEWS) {
    const views = state[key];
    if (!Array.isArray(views) || views.length === 0) continue;
    // The ids of the views that hold metadata, each with the first event listing it; the events
    // are read only until every one is found.
    const first = new Map();
    for (const view of views) if (isObject(view) && hasOwn(view, "metadata")) first.set(view.id, undefined);
    let missing = first.size;
    const find = (id, event) => {
      if (first.has(id) && first.get(id) === undefined) {
        first.set(id, event);
        missing--;
      }
    };
    for (let i = 0; i < events.length && missing > 0; i++) {
      const event = events[i];
      const ids = isObject(event) ? event[field] : undefined;
      if (Array.isArray(ids)) ids.forEach((id) => find(id, event));
    }
    for (const view of views) {
      if (!isObject(view) || !hasOwn(view, "metadata")) continue;
      const event = first.get(view.id);
      const payload = event === undefined ? undefined : event.payload;
      const metadata = isObject(payload) && !Array.isArray(payload) ? payload.metadata : undefined;
      if (isObject(metadata) && !Array.isArray(metadata) && sameValue(metadata, view.metadata)) {
        view.metadata = metadata;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The tape (contract::tape): an output the module wrote into its own memory as codes, numbers and
// one text, decoded here without parsing text: the same values as the wire text of the same
// output. Member names are indexes into a table the module keeps; `names`, the JS side's copy,
// catches up from it when a tape names more than it holds.

const utf8 = new TextDecoder();

/** The text of `bytes` bytes of UTF-8 at `ptr` in `buffer`. */
function textAt(buffer, ptr, bytes) {
  return bytes === 0 ? "" : utf8.decode(new Uint8Array(buffer, ptr, bytes));
}

/**
 * The value of the tape the module located at address `at` of `buffer` (its linear memory;
 * `contract::tape`, `wasm::tape::Written::at`), its events standing for `events`; `names` is the
 * JS copy of the module's name table. Read before the next call into the module (which may write
 * another tape).
 */
export function readTape(buffer, at, events, names) {
  const values = readTapeValues(buffer, at, names, () => events);
  if (values.length !== 1) throw new Error(`internal error: a tape holds ${values.length} values`);
  return values[0];
}

// The tape being read (`Reading`). Reading may call out (a template reading the caller's event, a
// getter of the caller's) and back into the module, which writes and reads another tape: each
// read copies its codes and numbers out of the module's memory first, onto the top of two
// stacks, and puts back the read it interrupts when it ends.
let reading;

/** A tape being read: its codes and numbers (stacks, from `at` and `numsAt`), text and names. */
class Reading {
  constructor(ops, at, nums, numsAt, text, names) {
    this.ops = ops;
    this.at = at;
    this.nums = nums;
    this.numsAt = numsAt;
    this.text = text;
    this.names = names;
    this.events = undefined;
  }
}
// The stacks (replaced by larger ones when full: a read that holds the old one keeps its copy).
let opsStack = new Uint32Array(4096);
let opsTop = 0;
let numsStack = new Float64Array(256);
let numsTop = 0;

// Entries a stack keeps once no read holds it.
const STACK_KEPT = 1 << 16;

/** `stack` with room for `more` past `top` (itself, or a larger copy of its first `top`). */
function withRoom(stack, top, more) {
  if (top + more <= stack.length) return stack;
  const larger = new stack.constructor(Math.max(2 * stack.length, top + more));
  larger.set(stack.subarray(0, top));
  return larger;
}

/**
 * The values of a tape that holds several (`readTape`), in order: value `i` is read with the
 * events `eventsFor(i, values)` stands for (`values`: those read before it).
 */
export function readTapeValues(buffer, at, names, eventsFor) {
  const where = new Uint32Array(buffer, at, 9);
  const count = where[6];
  if (names.length < count) {
    const spans = new Uint32Array(buffer, where[7], 2 * count);
    for (let i = names.length; i < count; i++) names.push(textAt(buffer, where[8] + spans[2 * i], spans[2 * i + 1]));
  }
  const opsAt = opsTop;
  const end = opsAt + where[1];
  const ops = (opsStack = withRoom(opsStack, opsAt, where[1]));
  ops.set(new Uint32Array(buffer, where[0], where[1]), opsAt);
  const numsAt = numsTop;
  const nums = (numsStack = withRoom(numsStack, numsAt, where[3]));
  if (where[3] > 0) nums.set(new Float64Array(buffer, where[2], where[3]), numsAt);
  opsTop = end;
  numsTop = numsAt + where[3];
  const outer = reading;
  const r = (reading = new Reading(ops, opsAt, nums, numsAt, textAt(buffer, where[4], where[5]), names));
  const values = [];
  try {
    while (r.at < end) {
      r.events = eventsFor(values.length, values);
      values.push(tapeValue());
    }
    if (r.at !== end) throw new Error("internal error: a tape's last value runs past its end");
    return values;
  } finally {
    reading = outer;
    opsTop = opsAt;
    numsTop = numsAt;
    // A long tape's copy is not kept once no read holds it.
    if (opsAt === 0 && opsStack.length > STACK_KEPT) opsStack = new Uint32Array(4096);
    if (numsAt === 0 && numsStack.length > STACK_KEPT) numsStack = new Float64Array(256);
  }
}

/** Members an object read from a tape has at most before it is copied to keep fast properties. */
const FAST_MEMBERS = 16;

function tapeValue() {
  const r = reading;
  const ops = r.ops;
  switch (ops[r.at++]) {
    case TAPE_UNDEFINED:
      return undefined;
    case TAPE_NULL:
      return null;
    case TAPE_TRUE:
      return true;
    case TAPE_FALSE:
      return false;
    case TAPE_UINT:
      return ops[r.at++];
    case TAPE_NUM:
      return r.nums[r.numsAt + ops[r.at++]];
    case TAPE_STR:
      return tapeString(r);
    case TAPE_ARR: {
      const n = ops[r.at++];
      const out = new Array(n);
      for (let i = 0; i < n; i++) out[i] = tapeValue();
      return out;
    }
    case TAPE_OBJ: {
      const n = ops[r.at++];
      const out = {};
      for (let i = 0; i < n; i++) {
        const name = tapeName(r);
        if (name === "__proto__") setOwn(out, name, tapeValue());
        else out[name] = tapeValue();
      }
      // An object given its members one by one under computed names turns into a dictionary
      // (V8: past about 19), slower to read than one the reference makes from a literal; a
      // copy made by spreading it has fast properties (own `__proto__` kept as such).
      return n > FAST_MEMBERS ? { ...out } : out;
    }
    case TAPE_EVENT:
      return r.events[ops[r.at++]];
    case TAPE_MADE: {
      const at = r.at;
      r.at += 5;
      return makers[ops[at]](r.events[ops[at + 1]], ops[at + 2], ops[at + 3], ops[at + 4]);
    }
    case TAPE_FIELD: {
      const event = r.events[ops[r.at++]];
      return event[tapeName(r)];
    }
    default:
      throw new Error(`internal error: tape code ${ops[r.at - 1]} at ${r.at - 1}`);
  }
}

function tapeName(r) {
  const name = r.ops[r.at++];
  return name === TAPE_LITERAL_NAME ? tapeString(r) : r.names[name];
}

function tapeString(r) {
  const start = r.ops[r.at];
  const end = start + r.ops[r.at + 1];
  r.at += 2;
  return r.text.slice(start, end);
}

/** Parse and decode wire text. */
export function parseWire(text, events) {
  return decodeWire(JSON.parse(text), events);
}

/** `target[key] = value` as an own data property, `__proto__` included. */
export function setOwn(target, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * A copy of a freshly parsed JSON value, not yet decoded: the same value, every object and array
 * new (own keys only, `__proto__` kept as an own key). A few times cheaper than parsing the text
 * again for a small document.
 */
export function copyParsed(value) {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyParsed(value[i]);
    return out;
  }
  const out = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) setOwn(out, keys[i], copyParsed(value[keys[i]]));
  return out;
}

function shallowCopy(x) {
  return Array.isArray(x) ? x.slice() : { ...x };
}

/**
 * The array at a list op's target after the op, as a new array (`list` is the previous state's
 * array, which must not change). One allocation of the final size: `concat` copies `list` once
 * and appends the new slots in the same step (`slice` + `push` would copy it a second time to
 * grow it), so an append to a long list costs one copy of it.
 */
function nextList(list, len, set) {
  const old = Array.isArray(list) ? list : [];
  const keep = old.length < len ? old.length : len;
  const tail = [];
  for (let j = 0; j < set.length; j++) {
    const slot = set[j];
    const i = slot[0];
    if (i >= keep) tail[i - keep] = slot[1];
  }
  const next = (keep === old.length ? old : old.slice(0, keep)).concat(tail);
  if (next.length < len) next.length = len;
  for (let j = 0; j < set.length; j++) {
    const slot = set[j];
    const i = slot[0];
    if (i < keep) next[i] = slot[1];
  }
  return next;
}

/**
 * Build the next state from `prev` and a patch (read from its tape: its values are the state's
 * own). Only the containers on the ops' paths are copied, each at most once; every other subtree
 * is the same object as in `prev`, and `prev` itself is never modified.
 */
export function applyPatch(prev, patch, fresh = []) {
  const ops = patch.ops;
  if (patch.full || prev === undefined) {
    let state = prev;
    for (let o = 0; o < ops.length; o++) {
      if (ops[o].p.length === 0 && ops[o].order === undefined) state = ops[o].v;
    }
    return state;
  }
  if (ops.length === 0) return prev;
  // `fresh`: the containers this patch created (so each is copied at most once). A patch touches
  // a handful of containers, so a linear scan of this array is cheaper than a Set.
  let root = shallowCopy(prev);
  fresh.push(root);
  for (let o = 0; o < ops.length; o++) {
    const op = ops[o];
    const path = op.p;
    const depth = path.length;
    if (depth === 0) {
      // A new state, or the root's keys in a new order (`order`, as an op deeper down).
      root = op.order === undefined ? op.v : inOrder(root, op.order);
      fresh.push(root);
      continue;
    }
    let parent = root;
    for (let i = 0; i < depth - 1; i++) {
      const k = path[i];
      let child = parent[k];
      if (!fresh.includes(child)) {
        child = shallowCopy(child);
        fresh.push(child);
        setOwn(parent, k, child);
      }
      parent = child;
    }
    const last = path[depth - 1];
    if (op.order !== undefined) {
      // The object's keys in this order (a state delta that replaces a key puts it last).
      const next = inOrder(parent[last], op.order);
      fresh.push(next);
      setOwn(parent, last, next);
      continue;
    }
    if (op.add !== undefined) {
      // A string that grew at its end: the old one (already in the state) and the new part.
      setOwn(parent, last, parent[last] + op.add);
      continue;
    }
    if (op.set === undefined) {
      setOwn(parent, last, op.v);
      continue;
    }
    const list = parent[last];
    if (!fresh.includes(list)) {
      const next = nextList(list, op.len, op.set);
      fresh.push(next);
      setOwn(parent, last, next);
      continue;
    }
    // A second op on an array this patch already copied: change it in place.
    if (list.length > op.len) list.length = op.len;
    const set = op.set;
    for (let j = 0; j < set.length; j++) list[set[j][0]] = set[j][1];
  }
  return root;
}

/**
 * A copy of `object` with its keys in `order`, then any it has beyond them in their order; every
 * value the same object (what is not a plain object is left as it is).
 */
function inOrder(object, order) {
  if (!isObject(object) || Array.isArray(object)) return object;
  const out = {};
  for (const key of order) if (hasOwn(object, key)) setOwn(out, key, object[key]);
  for (const key of Object.keys(object)) if (!hasOwn(out, key)) setOwn(out, key, object[key]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Encoding, JS to Rust: the same escapes, for values that may hold `undefined` or stand for
// objects the caller keeps (a projection state given to a Rust function).

/**
 * A lone surrogate (a string cut inside a UTF-16 pair, as a stream split by UTF-16 length may
 * leave it) is written by `JSON.stringify` as a `\udXXX` escape, which the module's JSON reader
 * refuses. Such escapes (an escaped backslash is matched first, so `\\ud800` stays text) become
 * U+FFFD, the character `TextEncoder` makes of a lone surrogate: the event is projected rather
 * than refused, and a string the state builds from it shows U+FFFD there (the reference keeps the
 * lone surrogate; docs/limits.md).
 */
const LONE_SURROGATE_ESCAPE = /\\\\|\\u(d[89a-f][0-9a-f]{2})/g;

export function replaceLoneSurrogates(text) {
  if (!text.includes("\\ud")) return text;
  return text.replace(LONE_SURROGATE_ESCAPE, (match) => (match.length === 2 ? match : "\\ufffd"));
}

/** A placeholder for the `i`-th object of the list the decoder gets (written `"\u0000e<i>"`). */
export class WireRef {
  constructor(index) {
    this.index = index;
  }
}

/**
 * Wire text of `value`: JSON, but `undefined` members and slots are kept (`"\u0000u"`), a
 * string starting with U+0000 gets one more in front, a `WireRef` is written as a reference,
 * and so is every object `refs` (a Map from object to index, optional) holds.
 *
 * The escapes are made by a walk that copies only the containers holding one (`wireForm`), and
 * the result is written by `JSON.stringify` without a replacer (a replacer is a call per value;
 * for a delta pass's 2.5 KB state part, 14.4 µs by the replacer against 11.8 µs). A value the
 * walk does not take as plain data (an object with `toJSON`, a class instance, a `BigInt`,
 * nesting deeper than `WIRE_WALK_DEPTH`, which is also where a cycle ends) is written by the
 * replacer instead, with `JSON.stringify`'s own results and errors.
 */
export function encodeWire(value, refs) {
  let form;
  try {
    form = wireForm(value, refs, 0);
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
    return encodeWireByReplacer(value, refs);
  }
  return wireText(form);
}

/**
 * Pieces of `encodeWire` for a caller that builds the value to write itself (the part of a state
 * a delta pass reads, views.js): `wireValue(x)`, `x` with the wire's escapes (throws `NOT_PLAIN`
 * where `encodeWire` would take the replacer path); `wireRef(i)`, what a `WireRef` of `i` is
 * written as; `wireText(form)`, the text of a value made of those.
 */
export const wireValue = (x) => wireForm(x, undefined, 0);
export const wireRef = (i) => `\u0000e${i}`;
export const wireText = (form) => replaceLoneSurrogates(JSON.stringify(form));

const WIRE_WALK_DEPTH = 96;
export const NOT_PLAIN = Symbol("not plain data");
const UNDEFINED_ESCAPE = "\u0000u";

/** `x` with the wire's escapes (the same object where none is inside it); throws `NOT_PLAIN`. */
function wireForm(x, refs, depth) {
  if (typeof x === "bigint") throw NOT_PLAIN;
  const leaf = wireLeaf(x, refs);
  if (leaf !== x || typeof x !== "object" || x === null) return leaf;
  if (depth >= WIRE_WALK_DEPTH || typeof x.toJSON === "function") throw NOT_PLAIN;
  if (Array.isArray(x)) {
    let out = x;
    for (let i = 0; i < x.length; i++) {
      const item = x[i];
      const form = wireForm(item, refs, depth + 1);
      if (form !== item) {
        if (out === x) out = x.slice();
        out[i] = form;
      }
    }
    return out;
  }
  const proto = Object.getPrototypeOf(x);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const keys = Object.keys(x);
  // Each member read once (a getter too): the values before the first escape are kept for the
  // copy.
  const items = new Array(keys.length);
  let out;
  for (let k = 0; k < keys.length; k++) {
    const item = (items[k] = x[keys[k]]);
    const form = wireForm(item, refs, depth + 1);
    if (out === undefined && form !== item) {
      out = {};
      for (let j = 0; j < k; j++) setOwn(out, keys[j], items[j]);
    }
    if (out !== undefined) setOwn(out, keys[k], form);
  }
  return out ?? x;
}

/**
 * The wire's escape of one value (`x` itself where it has none): a string starting with U+0000,
 * `undefined`, a `WireRef` and an object `refs` holds. The one rule of both ways of writing.
 */
function wireLeaf(x, refs) {
  if (typeof x === "string") return x.charCodeAt(0) === 0 ? `\u0000${x}` : x;
  if (x === undefined) return UNDEFINED_ESCAPE;
  if (typeof x !== "object" || x === null) return x;
  if (x instanceof WireRef) return wireRef(x.index);
  const i = refs?.get(x);
  return i === undefined ? x : wireRef(i);
}

/** `encodeWire` by a `JSON.stringify` replacer: any value, as `JSON.stringify` takes it. */
function encodeWireByReplacer(value, refs) {
  return replaceLoneSurrogates(JSON.stringify(value, (_, x) => wireLeaf(x, refs)));
}

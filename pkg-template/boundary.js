// The boundary with the WebAssembly module: inputs as JSON text written straight into its input
// buffer, input checks with TypeErrors that name the call, and the options of the projection
// functions. Every other wrapper file goes through these.
import * as wasm from "./glue/agent_runtime_projection.js";
import { AgentRuntimeProjectionFault, core, guard, isolated } from "./core.js";
import { readTape, readTapeValues, replaceLoneSurrogates } from "./wire.js";

function instanceReady() {
  return core.exports !== null;
}

// ---------------------------------------------------------------------------------------------
// Input: JSON text written straight into the module's input buffer.

const encoder = new TextEncoder();

/** The module's input limit in UTF-8 bytes (`max_input_bytes`, the same for every instance). */
let inputLimit = 0;

/** UTF-8 length of `text` as `TextEncoder` writes it (a lone surrogate counted as 1, not 3). */
function utf8Length(text) {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 2 bytes below U+0800, else 3; a surrogate pair is 4 (the high half adds nothing).
    if (c >= 0x80) n += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdbff ? 0 : 2;
  }
  return n;
}

/**
 * Write `text` as UTF-8 into the wasm input buffer; returns its byte length. Text over the
 * module's input limit (256 MiB) is refused by the module with a RangeError naming it, before
 * anything is copied: text long enough to pass it has its UTF-8 length counted first.
 */
export function putText(text) {
  const memory = core.exports.memory;
  if (inputLimit === 0) inputLimit = wasm.max_input_bytes();
  let cap = text.length + 16;
  if (text.length * 3 > inputLimit) {
    const bytes = utf8Length(text);
    if (bytes > inputLimit) wasm.input_buffer(bytes);
    cap = bytes + 16;
  }
  let ptr = wasm.input_buffer(cap);
  let { read, written } = encoder.encodeInto(text, new Uint8Array(memory.buffer, ptr, cap));
  if (read < text.length) {
    // Non-ASCII text: at most 3 bytes per remaining UTF-16 unit.
    cap = written + (text.length - read) * 3;
    ptr = wasm.input_buffer(cap);
    const rest = encoder.encodeInto(
      text.slice(read),
      new Uint8Array(memory.buffer, ptr + written, cap - written),
    );
    written += rest.written;
  }
  return written;
}

export function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value}`;
}

/** JSON text of `value` or a TypeError naming `what`. */
export function jsonText(value, what) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${what} cannot be serialized to JSON: ${error && error.message}`);
  }
  if (text === undefined) throw new TypeError(`${what} must be a JSON value, got ${describe(value)}.`);
  return replaceLoneSurrogates(text);
}

/** JSON text for validators: anything that has no JSON form is validated as `null` (not a record). */
export function anyJsonText(value, what) {
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return "null";
  return jsonText(value, what);
}

/** The error a caller sees for `error`, thrown by a call into the module for `what`. */
function callerError(what, error) {
  if (error instanceof TypeError || error instanceof AgentRuntimeProjectionFault) return error;
  // A limit refused up front (the module's RangeError), named for the caller.
  if (error instanceof RangeError) return new RangeError(`${what}: ${error.message}`);
  if (!instanceReady()) return error;
  const message = error && typeof error.message === "string" ? error.message : String(error);
  return new TypeError(`${what}: ${message}`);
}

/**
 * Call into the module on behalf of the public function `what`. Input errors the Rust side
 * reports come back as TypeErrors naming `what`; a trap of the module is an
 * `AgentRuntimeProjectionFault` (core.js restarts the module).
 */
export function call(what, fn) {
  try {
    return guard(what, fn);
  } catch (error) {
    throw callerError(what, error);
  }
}

/**
 * Inputs of more UTF-16 units than this go to a fresh instance that is dropped after the call
 * (`isolated`): a batch takes up to about 12 bytes of module memory per byte of input, which the
 * installed instance would otherwise keep for the life of the page (linear memory never
 * shrinks). Below it, the installed instance stays under ~32 MiB of working memory.
 */
export const ISOLATE_INPUT_UNITS = 2_000_000;

/**
 * `fn(len)` with `text` written into the module's input buffer (`len` its UTF-8 length): a
 * batch call. Large inputs run on a fresh instance (see `ISOLATE_INPUT_UNITS`).
 */
export function callWithText(what, text, fn) {
  return callSized(what, text.length > ISOLATE_INPUT_UNITS, () => fn(putText(text)));
}

/** The events of an output that refers to no event object of the caller's (a tape's events). */
export const NO_EVENTS = Object.freeze([]);

/**
 * The value of the tape the current instance's call just wrote (`at`: where, as the module
 * returned it), its events standing for `events`. Inside the call's function, so that a call on
 * a fresh instance (`isolated`) reads that instance's memory.
 */
export function tapeOf(at, events) {
  return readTape(core.exports.memory.buffer, at, events, namesOf(core.exports));
}

/** `tapeOf` for a tape of several values (wire.js, `readTapeValues`). */
export function tapeValuesOf(at, eventsFor) {
  return readTapeValues(core.exports.memory.buffer, at, namesOf(core.exports), eventsFor);
}

function namesOf(exports) {
  let names = tapeNames.get(exports);
  if (names === undefined) tapeNames.set(exports, (names = []));
  return names;
}

/** Each instance's member names, as far as its tapes have named them (wire.js, `readTape`). */
const tapeNames = new WeakMap();

/** `call`, on a fresh instance dropped afterwards when `large` (see `ISOLATE_INPUT_UNITS`). */
export function callSized(what, large, fn) {
  if (!large) return call(what, fn);
  try {
    return isolated(what, fn);
  } catch (error) {
    throw callerError(what, error);
  }
}

/**
 * A value the views evaluate in JS must be an event object (lists and events that go to the
 * module are checked there, event by event).
 */
export function requireEvent(event, what) {
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    throw new TypeError(`${what}: a runtime event must be an object, got ${describe(event)}.`);
  }
}

/** The shape of an event list: an array (its events are checked by the module). */
export function requireEventList(events, what) {
  if (!Array.isArray(events)) {
    throw new TypeError(`${what}: executionEvents must be an array, got ${describe(events)}.`);
  }
  return events;
}

/**
 * `{events, sourceCount}` of a projection input (the count as `sourceCountText` gives it), read
 * as the reference reads it (`input?.executionEvents ?? []`): an input that is not an object (an
 * array, a number, a string) holds no events. `iterable`: the function's reference walks the events with
 * `for...of` (read models, projectors), so any iterable (a Set, a string) is taken as the array
 * of its items, read once; elsewhere they must be an array.
 */
export function projectionInput(input, what, iterable = false) {
  if (input === undefined || input === null) return { events: [], sourceCount: undefined };
  let events = input.executionEvents ?? [];
  if (iterable && !Array.isArray(events) && typeof Object(events)[Symbol.iterator] === "function") {
    events = Array.from(events);
  }
  requireEventList(events, what);
  return { events, sourceCount: sourceCountText(input.sourceCount) };
}

/**
 * What the module reads of an argument it takes as a record: a plain object as it is; anything
 * else (an array, a function, a primitive) as a record of its own enumerable members, which are
 * what the reference's property reads find on it.
 */
export function asRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : Object.assign({}, value);
}

/**
 * A projection's source count as the module takes it: JSON text of any value the read model
 * keeps as it is (a number, a string, a record), or undefined for none (`null`, `undefined`, and
 * what JSON cannot hold: 0 then).
 */
export function sourceCountText(value) {
  if (value === undefined || value === null) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Projector options

/** The options the projection functions and projectors understand (the playground checks it). */
export const PROJECTOR_OPTIONS = Object.freeze(["redactSecrets", "strict"]);

/** `options.X` or, for callers that keep their options beside the events, `input.X`. */
function flagOption(input, options, name) {
  if (options && options[name]) return true;
  return Boolean(input && typeof input === "object" && !Array.isArray(input) && input[name]);
}

/**
 * Whether events outside the strict boundary are refused (`options.strict` or `input.strict`)
 * instead of projected as the reference projects them.
 */
export function strictOption(input, options) {
  return flagOption(input, options, "strict");
}

/**
 * Whether secrets are to be redacted: `options.redactSecrets` or, for callers that keep their
 * options beside the events, `input.redactSecrets`.
 */
export function redactOption(input, options, what) {
  if (options !== undefined && options !== null && typeof options !== "object") {
    throw new TypeError(`${what}: options must be an object, got ${describe(options)}.`);
  }
  return flagOption(input, options, "redactSecrets");
}

/**
 * Redact the JSON text of an event or an event list (`redactSecrets`): every member whose key is
 * secret-bearing, at any depth, gets the value "[redacted]". The rule and the redaction are the
 * Rust core's (`contract::redact`, the validators' `is_secret_key`). Returns `undefined` when
 * nothing was redacted, else `{value, text}`: a redacted copy (JSON.parse defines own properties,
 * so `__proto__` stays an own key) and its JSON text.
 */
export function redactText(text) {
  const redacted = callWithText("redactSecrets", text, (len) => wasm.redact_secrets_json(len));
  return redacted === undefined ? undefined : { value: JSON.parse(redacted), text: redacted };
}

/**
 * JSON text of an event list; when it has none, the error names the first event that cannot be
 * serialized (a cycle, a BigInt, a throwing getter).
 */
export function eventListText(events, what) {
  try {
    return jsonText(events, what);
  } catch (error) {
    for (let i = 0; i < events.length; i++) {
      try {
        JSON.stringify(events[i]);
      } catch (inner) {
        throw new TypeError(`${what}[${i}] cannot be serialized to JSON: ${inner && inner.message}`);
      }
    }
    throw error;
  }
}

/** `events` and their JSON text, redacted when `redact` (the copies replace the events). */
export function eventsText(events, redact, what) {
  const text = eventListText(events, what);
  const redacted = redact ? redactText(text) : undefined;
  return redacted === undefined ? { events, text } : { events: redacted.value, text: redacted.text };
}

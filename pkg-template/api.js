// The public API: exact export names of @limecloud/agent-ui-contracts and
// @limecloud/agent-runtime-projection, over the Rust core. This file does only what JS must do:
// identity (validators return their input, fixtures and schemas are shared objects), the error
// class, turning inputs into JSON text, decoding the wire encoding, and structural sharing of
// materialized projector states.
import * as wasm from "./glue/agent_runtime_projection.js";
import { core } from "./core.js";
import { applyPatch, parseWire } from "./wire.js";
import { fixturesJson } from "./glue/fixtures.js";
import { schemasJson } from "./glue/schemas.js";

// ---------------------------------------------------------------------------------------------
// Input: JSON text written straight into the module's input buffer.

const encoder = new TextEncoder();

/** Write `text` as UTF-8 into the wasm input buffer; returns its byte length. */
function putText(text) {
  const memory = core.exports.memory;
  let cap = text.length + 16;
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

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value}`;
}

/** JSON text of `value` or a TypeError naming `what`. */
function jsonText(value, what) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${what} cannot be serialized to JSON: ${error && error.message}`);
  }
  if (text === undefined) throw new TypeError(`${what} must be a JSON value, got ${describe(value)}.`);
  return text;
}

/** JSON text for validators: anything that has no JSON form is validated as `null` (not a record). */
function anyJsonText(value, what) {
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return "null";
  return jsonText(value, what);
}

/** Call a Rust function that reports input errors as JS Errors; rethrow them as TypeErrors. */
function call(what, fn) {
  try {
    return fn();
  } catch (error) {
    if (error instanceof TypeError) throw error;
    const message = error && typeof error.message === "string" ? error.message : String(error);
    throw new TypeError(`${what}: ${message}`);
  }
}

function requireEvent(event, what) {
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    throw new TypeError(`${what}: a runtime event must be an object, got ${describe(event)}.`);
  }
}

function requireEventList(events, what) {
  if (!Array.isArray(events)) {
    throw new TypeError(`${what}: executionEvents must be an array, got ${describe(events)}.`);
  }
  for (let i = 0; i < events.length; i++) requireEvent(events[i], `${what}: executionEvents[${i}]`);
  return events;
}

/** `{executionEvents, sourceCount}` of a projection input (an omitted input is empty). */
function projectionInput(input, what) {
  if (input === undefined || input === null) return { events: [], sourceCount: undefined };
  if (typeof input !== "object" || Array.isArray(input)) {
    throw new TypeError(`${what}: input must be an object {executionEvents, sourceCount}, got ${describe(input)}.`);
  }
  const events = input.executionEvents ?? [];
  requireEventList(events, what);
  return { events, sourceCount: sourceCountOf(input.sourceCount) };
}

function sourceCountOf(value) {
  return typeof value === "number" ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// Projector options

/** The options the projection functions and projectors understand (the playground checks it). */
export const PROJECTOR_OPTIONS = Object.freeze(["redactSecrets"]);

/**
 * Whether secrets are to be redacted: `options.redactSecrets` or, for callers that keep their
 * options beside the events, `input.redactSecrets`.
 */
function redactOption(input, options, what) {
  if (options !== undefined && options !== null && typeof options !== "object") {
    throw new TypeError(`${what}: options must be an object, got ${describe(options)}.`);
  }
  if (options && options.redactSecrets) return true;
  return Boolean(input && typeof input === "object" && !Array.isArray(input) && input.redactSecrets);
}

// The contract's secret-bearing key pattern (Rust `contract::validation::is_secret_key`: ASCII
// case folding, as a non-Unicode JS regex does) and its replacement (`contract::redact`).
const SECRET_KEY = /(api[-_]?key|authorization|password|secret|token)/i;
const REDACTED = "[redacted]";

function redactMember(key, value) {
  return key !== "" && SECRET_KEY.test(key) ? REDACTED : value;
}

/**
 * Redact the JSON text of an event or an event list: every member whose key is secret-bearing,
 * at any depth, gets the value "[redacted]". Returns `undefined` when the text cannot hold such a
 * key (JSON.stringify never escapes the letters, `-` or `_` of a matching key, so a key that
 * matches also matches inside the text), else `{value, text}`: a redacted copy (JSON.parse
 * defines own properties, so `__proto__` stays an own key) and its JSON text.
 */
function redactText(text) {
  if (!SECRET_KEY.test(text)) return undefined;
  const value = JSON.parse(text, redactMember);
  return { value, text: JSON.stringify(value) };
}

/** `events` and their JSON text, redacted when `redact` (the copies replace the events). */
function eventsText(events, redact, what) {
  const text = jsonText(events, what);
  const redacted = redact ? redactText(text) : undefined;
  return redacted === undefined ? { events, text } : { events: redacted.value, text: redacted.text };
}

// ---------------------------------------------------------------------------------------------
// Constants, schemas, fixtures

const constants = JSON.parse(wasm.constants_json());
// The schema documents ship as JSON text in glue/schemas.js (scripts/assemble-pkg.mjs writes it
// from schemas/*.json); the wasm module names them but does not carry them.
constants.schemas = JSON.parse(schemasJson);

export const AGENT_UI_FIXTURE_SCHEMA_VERSION = constants.fixtureSchemaVersion;
export const AGENT_UI_EVENT_CLASSES = constants.eventClasses;
export const LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES = constants.legacyTerminalClasses;
export const AGENT_RUNTIME_EVENT_SCHEMA = constants.schemas.runtimeEvent;
export const AGENT_RUNTIME_STATE_DELTA_SCHEMA = constants.schemas.runtimeStateDelta;
export const AGENT_UI_PROJECTION_STATE_SCHEMA = constants.schemas.projectionState;
export const AGENT_RUNTIME_CAPABILITY_MANIFEST_SCHEMA = constants.schemas.runtimeCapabilityManifest;
export const AGENT_UI_PROJECTION_EVENT_SCHEMA = constants.schemas.projectionEvent;
export const agentUiJsonSchemas = {
  runtimeEvent: AGENT_RUNTIME_EVENT_SCHEMA,
  runtimeStateDelta: AGENT_RUNTIME_STATE_DELTA_SCHEMA,
  projectionState: AGENT_UI_PROJECTION_STATE_SCHEMA,
  runtimeCapabilityManifest: AGENT_RUNTIME_CAPABILITY_MANIFEST_SCHEMA,
  projectionEvent: AGENT_UI_PROJECTION_EVENT_SCHEMA,
};

// The fixtures ship as JSON text in glue/fixtures.js (scripts/assemble-pkg.mjs writes it from
// fixtures/*.json); the wasm module does not carry them.
export const agentUiConformanceFixtures = JSON.parse(fixturesJson);

export function getAgentUiFixture(id) {
  const fixture = agentUiConformanceFixtures.find((f) => f.id === id);
  if (!fixture) throw new Error(`Unknown Agent UI fixture: ${id}`);
  return fixture;
}

export function isAgentUiEventClass(value) {
  return typeof value === "string" && wasm.is_agent_ui_event_class(value);
}

// ---------------------------------------------------------------------------------------------
// Validation

export class AgentUiContractValidationError extends Error {
  constructor(issues) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "));
    this.name = "AgentUiContractValidationError";
    this.issues = issues;
  }
}

function collect(kind, input, path) {
  const root = path === undefined ? "$" : String(path);
  const text = anyJsonText(input, "Validation input");
  return JSON.parse(call("Validation", () => wasm.collect_issues(kind, putText(text), root)));
}

function validate(kind, input) {
  const issues = collect(kind, input, "$");
  if (issues.length > 0) throw new AgentUiContractValidationError(issues);
  return input;
}

export function collectRuntimeEventValidationIssues(input, path = "$") {
  return collect("runtimeEvent", input, path);
}
export function collectThreadReadModelValidationIssues(input, path = "$") {
  return collect("threadReadModel", input, path);
}
export function collectProjectionStateValidationIssues(input, path = "$") {
  return collect("projectionState", input, path);
}
export function collectAgentUiFixtureValidationIssues(input, path = "$") {
  return collect("fixture", input, path);
}
export function collectRuntimeCapabilityManifestValidationIssues(input, path = "$") {
  return collect("capabilityManifest", input, path);
}
/** Whether the first character of `text` that is not JSON white space is `[`. */
function startsWithBracket(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c === 0x5b;
  }
  return false;
}

/**
 * The issues of every event of an array, as one array: event `i`'s issues (those
 * `collectRuntimeEventValidationIssues(events[i], `${path}[${i}]`)` gives) in index order. The
 * whole array crosses into WebAssembly once. `events` may also be JSON text: a JSON array
 * (first non-blank character `[`) or newline-delimited events (NDJSON); the text goes into
 * WebAssembly memory as it is, with no `JSON.stringify` and no `JSON.parse`.
 */
export function collectRuntimeEventsValidationIssues(events, path = "$") {
  const what = "collectRuntimeEventsValidationIssues";
  const root = path === undefined ? "$" : String(path);
  if (typeof events === "string") {
    const collect = startsWithBracket(events)
      ? wasm.collect_runtime_events_issues
      : wasm.collect_runtime_events_ndjson_issues;
    return JSON.parse(call(what, () => collect(putText(events), root)));
  }
  if (!Array.isArray(events)) {
    throw new TypeError(`${what}: events must be an array or JSON text, got ${describe(events)}.`);
  }
  const text = jsonText(events, `${what}: events`);
  return JSON.parse(call(what, () => wasm.collect_runtime_events_issues(putText(text), root)));
}
export function validateRuntimeEvent(input) {
  return validate("runtimeEvent", input);
}
export function validateThreadReadModel(input) {
  return validate("threadReadModel", input);
}
export function validateProjectionState(input) {
  return validate("projectionState", input);
}
export function validateAgentUiFixture(input) {
  return validate("fixture", input);
}
export function validateRuntimeCapabilityManifest(input) {
  return validate("capabilityManifest", input);
}

// ---------------------------------------------------------------------------------------------
// Sequence verification

export function createRuntimeSequenceVerifier() {
  const verifier = new wasm.WasmSequenceVerifier();
  return {
    push(event) {
      const text = anyJsonText(event, "Runtime event");
      return parseWire(call("push", () => verifier.push(putText(text))), []);
    },
    finalize() {
      return parseWire(verifier.violations(), []);
    },
    getViolations() {
      return parseWire(verifier.violations(), []);
    },
  };
}

export function verifyRuntimeEventSequence(events) {
  if (!Array.isArray(events)) {
    throw new TypeError(`verifyRuntimeEventSequence: events must be an array, got ${describe(events)}.`);
  }
  const text = jsonText(events, "verifyRuntimeEventSequence: events");
  return parseWire(call("verifyRuntimeEventSequence", () => wasm.verify_sequence(putText(text))), []);
}

// ---------------------------------------------------------------------------------------------
// Turn-terminal helpers (inputs: string | null | undefined)

function statusArg(value, what) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw new TypeError(`${what}: expected a string, null or undefined, got ${describe(value)}.`);
  }
  return value;
}

export function normalizeRuntimeStatusValue(value) {
  return wasm.normalize_runtime_status_value(statusArg(value, "normalizeRuntimeStatusValue"));
}
export function runtimeTurnTerminalKindFromStatus(value) {
  return wasm.runtime_turn_terminal_kind_from_status(statusArg(value, "runtimeTurnTerminalKindFromStatus"));
}
export function runtimeTurnTerminalProjectionFromKind(kind) {
  const projection = JSON.parse(
    wasm.runtime_turn_terminal_projection_from_kind(typeof kind === "string" ? kind : ""),
  );
  // The reference echoes the kind it was given, whatever it is.
  projection.kind = kind;
  return projection;
}
export function runtimeTurnTerminalProjectionFromStatus(value) {
  const text = wasm.runtime_turn_terminal_projection_from_status(
    statusArg(value, "runtimeTurnTerminalProjectionFromStatus"),
  );
  return text === undefined ? undefined : JSON.parse(text);
}
export function normalizeRuntimeTurnTerminalEventClass(value) {
  return wasm.normalize_runtime_turn_terminal_event_class(statusArg(value, "normalizeRuntimeTurnTerminalEventClass"));
}
export function isRuntimeTurnTerminalEventClass(value) {
  return wasm.is_runtime_turn_terminal_event_class(statusArg(value, "isRuntimeTurnTerminalEventClass"));
}
export function isLegacyRuntimeTurnTerminalEventClass(value) {
  return wasm.is_legacy_runtime_turn_terminal_event_class(statusArg(value, "isLegacyRuntimeTurnTerminalEventClass"));
}
export function isRuntimeTerminalStatusValue(value) {
  return wasm.is_runtime_terminal_status_value(statusArg(value, "isRuntimeTerminalStatusValue"));
}
export function isRuntimeSettledStatusValue(value) {
  return wasm.is_runtime_settled_status_value(statusArg(value, "isRuntimeSettledStatusValue"));
}
export function runtimeStatusForTerminalEventClass(value) {
  return wasm.runtime_status_for_terminal_event_class(statusArg(value, "runtimeStatusForTerminalEventClass"));
}

// ---------------------------------------------------------------------------------------------
// Batch projection

export function projectAgentUiState(input, options) {
  const what = "projectAgentUiState";
  const redact = redactOption(input, options, what);
  const given = projectionInput(input, what);
  const { events, text } = eventsText(given.events, redact, `${what}: executionEvents`);
  return parseWire(call(what, () => wasm.project(putText(text), given.sourceCount)), events);
}

/** `project(events)` or `project({executionEvents, sourceCount})`: the batch projection. */
export function project(input, options) {
  return projectAgentUiState(Array.isArray(input) ? { executionEvents: input } : input, options);
}

export function projectAgentUiStateFromSessionSnapshot(input = {}) {
  const what = "projectAgentUiStateFromSessionSnapshot";
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new TypeError(`${what}: input must be an object, got ${describe(input)}.`);
  }
  let events = input.executionEvents;
  if (events === undefined || events === null) {
    const projections = input.readModel && input.readModel.events;
    events = Array.isArray(projections) ? projections.map((p) => p && p.source) : [];
  }
  requireEventList(events, what);
  const text = jsonText(input, `${what}: input`);
  return parseWire(call(what, () => wasm.project_from_session_snapshot(putText(text))), events);
}

export function projectAgentRuntimeReadModel(input, options) {
  const what = "projectAgentRuntimeReadModel";
  const redact = redactOption(input, options, what);
  const given = projectionInput(input, what);
  const { events, text } = eventsText(given.events, redact, `${what}: executionEvents`);
  return parseWire(call(what, () => wasm.project_read_model(putText(text), given.sourceCount)), events);
}

export function buildAgentUiSubagentsModel(events = []) {
  const what = "buildAgentUiSubagentsModel";
  requireEventList(events, what);
  const text = jsonText(events, `${what}: events`);
  return parseWire(call(what, () => wasm.build_subagents_model(putText(text))), events);
}

export function replayAgentUiFixture(fixture) {
  const what = "replayAgentUiFixture";
  if (fixture === null || typeof fixture !== "object" || Array.isArray(fixture)) {
    throw new TypeError(`${what}: fixture must be an object, got ${describe(fixture)}.`);
  }
  const events = Array.isArray(fixture.events) ? fixture.events : [];
  const text = jsonText(fixture, `${what}: fixture`);
  return parseWire(call(what, () => wasm.replay_fixture(putText(text))), events);
}

export function normalizeRuntimeEvent(event) {
  const what = "normalizeRuntimeEvent";
  const text = jsonText(event, `${what}: event`);
  return JSON.parse(call(what, () => wasm.normalize_runtime_event(putText(text))));
}

/** A deterministic realistic event stream (`n` events, `seed`, generator options). */
export function generateRuntimeEvents(n, seed = 1, options = {}) {
  const what = "generateRuntimeEvents";
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`${what}: n must be a non-negative integer.`);
  if (!Number.isInteger(seed)) throw new TypeError(`${what}: seed must be an integer.`);
  const text = jsonText(options ?? {}, `${what}: options`);
  return JSON.parse(call(what, () => wasm.generate_events(n, seed >>> 0, text)));
}

// ---------------------------------------------------------------------------------------------
// Incremental projection

/**
 * The projector core shared by `createAgentUiProjector` and `createProjector`: it holds the
 * accepted event objects (event `i` of the Rust side is `events[i]`) and the last materialized
 * state, and materializes lazily from patches. With `redactSecrets` every event is redacted
 * before it is projected, and the redacted copy is the event object the state references.
 */
class ProjectorCore {
  constructor(input, what, options) {
    this.what = what;
    this.redact = redactOption(input, options, what);
    const { events, sourceCount } = projectionInput(input, what);
    this.inner = new wasm.WasmProjector(sourceCount);
    this.events = [];
    this.state = undefined;
    // Whether the Rust side changed since the last materialization.
    this.dirty = true;
    if (events.length > 0) this.hydrate(input);
  }

  getState() {
    if (this.dirty) {
      const patch = JSON.parse(this.inner.take_patch());
      this.state = applyPatch(this.state, patch, this.events);
      this.dirty = false;
    }
    return this.state;
  }

  apply(event) {
    const what = `${this.what}.apply`;
    requireEvent(event, what);
    let text = jsonText(event, `${what}: event`);
    const redacted = this.redact ? redactText(text) : undefined;
    if (redacted !== undefined) ({ value: event, text } = redacted);
    const accepted = call(what, () => this.inner.apply(putText(text), this.events.length));
    if (accepted) {
      this.events.push(event);
      this.dirty = true;
    }
    return accepted;
  }

  applyMany(given) {
    const what = `${this.what}.applyMany`;
    requireEventList(given, what);
    const { events, text } = eventsText(given, this.redact, `${what}: events`);
    const flags = call(what, () => this.inner.apply_many(putText(text), this.events.length));
    let accepted = 0;
    for (let i = 0; i < flags.length; i++) {
      if (flags[i] === 1) {
        this.events.push(events[i]);
        accepted++;
      }
    }
    if (accepted > 0) this.dirty = true;
    return accepted;
  }

  hydrate(input) {
    const what = `${this.what}.hydrate`;
    const { events, sourceCount } = projectionInput(input, what);
    const seen = new Set();
    const unique = [];
    for (const event of events) {
      if (seen.has(event.id)) continue;
      seen.add(event.id);
      unique.push(event);
    }
    const { events: kept, text } = eventsText(
      unique,
      this.redact || redactOption(input, undefined, what),
      `${what}: executionEvents`,
    );
    call(what, () => this.inner.hydrate(putText(text), sourceCount));
    this.events = kept;
    this.dirty = true;
  }

  reset() {
    this.inner.reset();
    this.events = [];
    this.dirty = true;
  }

  get eventCount() {
    return this.events.length;
  }

  free() {
    this.inner.free();
  }
}

/**
 * The reference projector: `apply`, `hydrate`, `reset` return the new state; `applyMany` applies
 * a whole array crossing the boundary once. Unchanged subtrees are shared (`===`) between
 * successive states, and a returned state is never modified.
 */
export function createAgentUiProjector(initialInput, options) {
  const core = new ProjectorCore(initialInput, "createAgentUiProjector", options);
  core.getState();
  return {
    getState: () => core.getState(),
    hydrate(input) {
      core.hydrate(input);
      return core.getState();
    },
    apply(event) {
      core.apply(event);
      return core.getState();
    },
    applyMany(events) {
      core.applyMany(events);
      return core.getState();
    },
    reset() {
      core.reset();
      return core.getState();
    },
  };
}

/**
 * The lean projector: `apply(event)` returns `{accepted, eventCount}` without building the state;
 * `getState()` materializes the state when it is asked for.
 */
export function createProjector(initialInput, options) {
  const core = new ProjectorCore(initialInput, "createProjector", options);
  return {
    getState: () => core.getState(),
    apply(event) {
      const accepted = core.apply(event);
      return { accepted, eventCount: core.eventCount };
    },
    applyMany(events) {
      const accepted = core.applyMany(events);
      return { accepted, eventCount: core.eventCount };
    },
    hydrate(input) {
      core.hydrate(input);
      return { accepted: core.eventCount, eventCount: core.eventCount };
    },
    reset() {
      core.reset();
    },
    free() {
      core.free();
    },
  };
}

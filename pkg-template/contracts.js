// The contracts package's API (@limecloud/agent-ui-contracts): constants, JSON Schemas,
// conformance fixtures, validators, the sequence verifier and the turn-terminal helpers.
import * as wasm from "./glue/agent_runtime_projection.js";
import { NO_EVENTS, anyJsonText, call, callWithText, describe, jsonText, putText, tapeOf } from "./boundary.js";
import { fixturesJson } from "./glue/fixtures.js";
import { schemasJson } from "./glue/schemas.js";
import { constantsJson } from "./glue/constants.js";
import { checkGeneration, core } from "./core.js";

// ---------------------------------------------------------------------------------------------
// Constants, schemas, fixtures

// Written at build time from the module's own constants (scripts/assemble-pkg.mjs), so importing
// the package needs no call into the module.
const constants = JSON.parse(constantsJson);
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

const EVENT_CLASSES = new Set(AGENT_UI_EVENT_CLASSES);

export function isAgentUiEventClass(value) {
  return typeof value === "string" && EVENT_CLASSES.has(value);
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

/** The issues of `input` as a `kind`, for the public function `what` (errors name it). */
function collect(kind, input, path, what) {
  const root = path === undefined ? "$" : String(path);
  const text = anyJsonText(input, `${what}: input`);
  return JSON.parse(callWithText(what, text, (len) => wasm.collect_issues(kind, len, root)));
}

function validate(kind, input, what) {
  const issues = collect(kind, input, "$", what);
  if (issues.length > 0) throw new AgentUiContractValidationError(issues);
  return input;
}

export function collectRuntimeEventValidationIssues(input, path = "$") {
  return collect("runtimeEvent", input, path, "collectRuntimeEventValidationIssues");
}
export function collectThreadReadModelValidationIssues(input, path = "$") {
  return collect("threadReadModel", input, path, "collectThreadReadModelValidationIssues");
}
export function collectProjectionStateValidationIssues(input, path = "$") {
  return collect("projectionState", input, path, "collectProjectionStateValidationIssues");
}
export function collectAgentUiFixtureValidationIssues(input, path = "$") {
  return collect("fixture", input, path, "collectAgentUiFixtureValidationIssues");
}
export function collectRuntimeCapabilityManifestValidationIssues(input, path = "$") {
  return collect("capabilityManifest", input, path, "collectRuntimeCapabilityManifestValidationIssues");
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
    return JSON.parse(callWithText(what, events, (len) => collect(len, root)));
  }
  if (!Array.isArray(events)) {
    throw new TypeError(`${what}: events must be an array or JSON text, got ${describe(events)}.`);
  }
  const text = jsonText(events, `${what}: events`);
  return JSON.parse(callWithText(what, text, (len) => wasm.collect_runtime_events_issues(len, root)));
}
export function validateRuntimeEvent(input) {
  return validate("runtimeEvent", input, "validateRuntimeEvent");
}
export function validateThreadReadModel(input) {
  return validate("threadReadModel", input, "validateThreadReadModel");
}
export function validateProjectionState(input) {
  return validate("projectionState", input, "validateProjectionState");
}
export function validateAgentUiFixture(input) {
  return validate("fixture", input, "validateAgentUiFixture");
}
export function validateRuntimeCapabilityManifest(input) {
  return validate("capabilityManifest", input, "validateRuntimeCapabilityManifest");
}

// ---------------------------------------------------------------------------------------------
// Sequence verification

export function createRuntimeSequenceVerifier() {
  const verifier = call("createRuntimeSequenceVerifier", () => new wasm.WasmSequenceVerifier());
  const generation = core.generation;
  const violations = (what) => {
    checkGeneration(generation);
    return call(what, () => tapeOf(verifier.violations(), NO_EVENTS));
  };
  return {
    push(event) {
      checkGeneration(generation);
      // The reference reads the event's id first: V8's own TypeError for null or undefined.
      if (event === undefined || event === null) void event.id;
      const text = anyJsonText(event, "Runtime event");
      return call("push", () => tapeOf(verifier.push(putText(text)), NO_EVENTS));
    },
    finalize: () => violations("finalize"),
    getViolations: () => violations("getViolations"),
  };
}

export function verifyRuntimeEventSequence(events) {
  // The reference pushes the events in a for...of (any iterable; V8's own TypeError otherwise),
  // each read by its id first (V8's own TypeError for null or undefined, a hole included).
  if (!Array.isArray(events)) {
    if (events === undefined || events === null || typeof Object(events)[Symbol.iterator] !== "function") {
      throw new TypeError("events is not iterable");
    }
    events = Array.from(events);
  }
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event === undefined || event === null) void event.id;
  }
  const text = jsonText(events, "verifyRuntimeEventSequence: events");
  return callWithText("verifyRuntimeEventSequence", text, (len) => tapeOf(wasm.verify_sequence(len), NO_EVENTS));
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
  const given = statusArg(value, "normalizeRuntimeStatusValue");
  return call("normalizeRuntimeStatusValue", () => wasm.normalize_runtime_status_value(given));
}
export function runtimeTurnTerminalKindFromStatus(value) {
  const given = statusArg(value, "runtimeTurnTerminalKindFromStatus");
  return call("runtimeTurnTerminalKindFromStatus", () => wasm.runtime_turn_terminal_kind_from_status(given));
}
export function runtimeTurnTerminalProjectionFromKind(kind) {
  const given = typeof kind === "string" ? kind : "";
  const projection = JSON.parse(
    call("runtimeTurnTerminalProjectionFromKind", () => wasm.runtime_turn_terminal_projection_from_kind(given)),
  );
  // The reference echoes the kind it was given, whatever it is.
  projection.kind = kind;
  return projection;
}
export function runtimeTurnTerminalProjectionFromStatus(value) {
  const given = statusArg(value, "runtimeTurnTerminalProjectionFromStatus");
  const text = call("runtimeTurnTerminalProjectionFromStatus", () => wasm.runtime_turn_terminal_projection_from_status(given));
  return text === undefined ? undefined : JSON.parse(text);
}
export function normalizeRuntimeTurnTerminalEventClass(value) {
  const given = statusArg(value, "normalizeRuntimeTurnTerminalEventClass");
  return call("normalizeRuntimeTurnTerminalEventClass", () => wasm.normalize_runtime_turn_terminal_event_class(given));
}
export function isRuntimeTurnTerminalEventClass(value) {
  const given = statusArg(value, "isRuntimeTurnTerminalEventClass");
  return call("isRuntimeTurnTerminalEventClass", () => wasm.is_runtime_turn_terminal_event_class(given));
}
export function isLegacyRuntimeTurnTerminalEventClass(value) {
  const given = statusArg(value, "isLegacyRuntimeTurnTerminalEventClass");
  return call("isLegacyRuntimeTurnTerminalEventClass", () => wasm.is_legacy_runtime_turn_terminal_event_class(given));
}
export function isRuntimeTerminalStatusValue(value) {
  const given = statusArg(value, "isRuntimeTerminalStatusValue");
  return call("isRuntimeTerminalStatusValue", () => wasm.is_runtime_terminal_status_value(given));
}
export function isRuntimeSettledStatusValue(value) {
  const given = statusArg(value, "isRuntimeSettledStatusValue");
  return call("isRuntimeSettledStatusValue", () => wasm.is_runtime_settled_status_value(given));
}
export function runtimeStatusForTerminalEventClass(value) {
  const given = statusArg(value, "runtimeStatusForTerminalEventClass");
  return call("runtimeStatusForTerminalEventClass", () => wasm.runtime_status_for_terminal_event_class(given));
}

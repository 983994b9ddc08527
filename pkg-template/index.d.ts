// Public API of @limecloud/agent-runtime-projection-wasm. The data types are generated from the
// Rust declarations (src/wasm/types.rs) into glue/agent_runtime_projection.d.ts.
import type {
  AgentRuntimeEventProjection,
  AgentRuntimeExecutionEvent,
  AgentRuntimeProjectionInput,
  LegacyRuntimeTurnTerminalEventClasses,
  AgentRuntimeReadModel,
  AgentRuntimeTurnTerminalKind,
  AgentRuntimeTurnTerminalProjection,
  AgentUiContractValidationIssue,
  AgentUiFixture,
  AgentUiFixtureReplayResult,
  AgentUiProjectionState,
  AgentUiSessionSnapshotInput,
  AgentUiSubagentsModel,
  JsonSchemaObject,
  RuntimeSequenceViolation,
} from "./glue/agent_runtime_projection.js";
import type { AgentUiEventClass } from "./glue/event-classes.js";

export type * from "./glue/agent_runtime_projection.js";
export type { AgentUiEventClass } from "./glue/event-classes.js";
// The UI projection-event layer (compiled from pkg-template/projection-events/*.ts).
export * from "./projection-events/index.js";
// The views taken one at a time (read-model helpers, accumulators, state deltas, tool and MCP
// surfaces, collaboration metadata, coding workbench) and their data types.
export * from "./views.js";
// App Server facts (appServerFacts).
export * from "./app-server.js";

// --- loading and faults ---------------------------------------------------------------------------
/**
 * Resolves once the package is usable. Where the host compiles WebAssembly synchronously (Node,
 * workers, current browsers) it is resolved at import; where synchronous compilation is refused,
 * the module compiles in the background and every call throws until `ready` resolves.
 */
export declare const ready: Promise<void>;
/**
 * A trap or internal error of the WebAssembly module (never a TypeError). The module is restarted,
 * so later calls work; projectors and verifiers made before the fault throw it when used.
 */
export declare class AgentRuntimeProjectionFault extends Error {
  readonly name: "AgentRuntimeProjectionFault";
  /** The public function (or method) that was running. */
  readonly call: string;
  readonly cause: unknown;
}

// --- constants, schemas, fixtures -------------------------------------------------------------
export declare const AGENT_UI_FIXTURE_SCHEMA_VERSION: "agent-ui-fixture/v0.1";
export declare const AGENT_UI_EVENT_CLASSES: readonly AgentUiEventClass[];
export declare const LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES: LegacyRuntimeTurnTerminalEventClasses;
export declare const AGENT_RUNTIME_EVENT_SCHEMA: JsonSchemaObject;
export declare const AGENT_RUNTIME_STATE_DELTA_SCHEMA: JsonSchemaObject;
export declare const AGENT_UI_PROJECTION_STATE_SCHEMA: JsonSchemaObject;
export declare const AGENT_RUNTIME_CAPABILITY_MANIFEST_SCHEMA: JsonSchemaObject;
export declare const AGENT_UI_PROJECTION_EVENT_SCHEMA: JsonSchemaObject;
export declare const agentUiJsonSchemas: {
  readonly runtimeEvent: JsonSchemaObject;
  readonly runtimeStateDelta: JsonSchemaObject;
  readonly projectionState: JsonSchemaObject;
  readonly runtimeCapabilityManifest: JsonSchemaObject;
  readonly projectionEvent: JsonSchemaObject;
};
export declare const agentUiConformanceFixtures: AgentUiFixture[];
/** The standard fixture with this id (the same object as in `agentUiConformanceFixtures`). */
export declare function getAgentUiFixture(id: string): AgentUiFixture;
export declare function isAgentUiEventClass(value: unknown): value is AgentUiEventClass;

// --- validation -------------------------------------------------------------------------------
export declare class AgentUiContractValidationError extends Error {
  readonly issues: readonly AgentUiContractValidationIssue[];
  constructor(issues: AgentUiContractValidationIssue[]);
}
export declare function collectRuntimeEventValidationIssues(input: unknown, path?: string): AgentUiContractValidationIssue[];
export declare function collectThreadReadModelValidationIssues(input: unknown, path?: string): AgentUiContractValidationIssue[];
export declare function collectProjectionStateValidationIssues(input: unknown, path?: string): AgentUiContractValidationIssue[];
export declare function collectAgentUiFixtureValidationIssues(input: unknown, path?: string): AgentUiContractValidationIssue[];
export declare function collectRuntimeCapabilityManifestValidationIssues(input: unknown, path?: string): AgentUiContractValidationIssue[];
/**
 * The issues of every event of an array, in one flat array and in index order: for event `i`
 * exactly the issues `collectRuntimeEventValidationIssues(events[i], `${path}[${i}]`)` gives
 * (paths `$[i]`, `$[i].payload.apiKey`, ...). The array crosses into WebAssembly once, and
 * events with no issue are checked without building them in WebAssembly memory: use it for
 * batches. `events` may also be JSON text, validated as it is (no `JSON.stringify`, no
 * `JSON.parse`; the fastest input): a JSON array when its first non-blank character is `[`,
 * otherwise newline-delimited events (NDJSON; blank lines are skipped and event `i` is the
 * i-th event, not line). Throws a `TypeError` if `events` is neither an array nor a string,
 * cannot be serialized to JSON, or is text that is not JSON (`events[i]: Invalid JSON input:
 * ...` names the event).
 */
export declare function collectRuntimeEventsValidationIssues(
  events: readonly unknown[] | string,
  path?: string,
): AgentUiContractValidationIssue[];
/** Returns `input` itself when it is valid; throws `AgentUiContractValidationError` otherwise. */
export declare function validateRuntimeEvent<T>(input: T): T;
export declare function validateThreadReadModel<T>(input: T): T;
export declare function validateProjectionState<T>(input: T): T;
export declare function validateAgentUiFixture<T>(input: T): T;
export declare function validateRuntimeCapabilityManifest<T>(input: T): T;

// --- sequence verification --------------------------------------------------------------------
export interface RuntimeSequenceVerifier {
  /** The violations this event produced. */
  push(event: AgentRuntimeExecutionEvent): RuntimeSequenceViolation[];
  /** Every violation so far (no end-of-stream checks). */
  finalize(): RuntimeSequenceViolation[];
  getViolations(): RuntimeSequenceViolation[];
}
export declare function createRuntimeSequenceVerifier(): RuntimeSequenceVerifier;
export declare function verifyRuntimeEventSequence(events: readonly AgentRuntimeExecutionEvent[]): RuntimeSequenceViolation[];

// --- turn-terminal helpers ----------------------------------------------------------------------
export declare function normalizeRuntimeStatusValue(value: string | null | undefined): string | undefined;
export declare function runtimeTurnTerminalKindFromStatus(value: string | null | undefined): AgentRuntimeTurnTerminalKind | undefined;
export declare function runtimeTurnTerminalProjectionFromKind(kind: AgentRuntimeTurnTerminalKind): AgentRuntimeTurnTerminalProjection;
export declare function runtimeTurnTerminalProjectionFromStatus(value: string | null | undefined): AgentRuntimeTurnTerminalProjection | undefined;
export declare function normalizeRuntimeTurnTerminalEventClass(
  value: string | null | undefined,
): "turn.completed" | "turn.failed" | "turn.canceled" | undefined;
export declare function isRuntimeTurnTerminalEventClass(value: string | null | undefined): boolean;
export declare function isLegacyRuntimeTurnTerminalEventClass(value: string | null | undefined): boolean;
export declare function isRuntimeTerminalStatusValue(value: string | null | undefined): boolean;
export declare function isRuntimeSettledStatusValue(value: string | null | undefined): boolean;
export declare function runtimeStatusForTerminalEventClass(
  value: string | null | undefined,
): "completed" | "failed" | "canceled" | undefined;

// --- projection ----------------------------------------------------------------------------------
/**
 * The event type a projection is over: `TEvent` as inferred from the input, or the base event
 * type when nothing can be inferred (an empty `executionEvents: []` infers `never`).
 */
type EventOf<TEvent> = [TEvent] extends [never] ? AgentRuntimeExecutionEvent : TEvent;
/** Options of the projection functions and projectors (all off by default). */
export interface ProjectorOptions {
  /**
   * Redact secrets before projecting: every object member, at any depth of an event, whose key
   * matches `/(api[-_]?key|authorization|password|secret|token)/i` gets the value `"[redacted]"`.
   * An event that had such a member is replaced in the state (`source` references) by its redacted
   * copy; the caller's object is never modified. Events without one are kept as given.
   */
  redactSecrets?: boolean;
  /**
   * Refuse events outside the strict boundary (a TypeError naming the event) instead of projecting
   * them as the reference does: not an object, no non-empty string `id`, a known string field that
   * is not a string (null is allowed), `sequence` not a number, `refIds` / `artifactRefs` /
   * `evidenceRefs` not an array of strings, nesting over 64 levels. By default only what cannot be
   * carried (not an object, nesting over 64 levels) is refused, and an event on which the
   * reference's projection throws throws a TypeError naming it.
   */
  strict?: boolean;
}
/** The option names this package understands. */
export declare const PROJECTOR_OPTIONS: readonly ["redactSecrets", "strict"];
/**
 * Batch projection (linear in the number of events). `redactSecrets` and `strict` may also be
 * given on the input object (`{executionEvents, redactSecrets: true}`).
 */
export declare function projectAgentUiState<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  input?: AgentRuntimeProjectionInput<TEvent> & ProjectorOptions,
  options?: ProjectorOptions,
): AgentUiProjectionState<EventOf<TEvent>>;
/** `projectAgentUiState` taking an event array or `{executionEvents, sourceCount}`. */
export declare function project<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  input: readonly TEvent[] | (AgentRuntimeProjectionInput<TEvent> & ProjectorOptions),
  options?: ProjectorOptions,
): AgentUiProjectionState<EventOf<TEvent>>;
export declare function projectAgentUiStateFromSessionSnapshot<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  input?: AgentUiSessionSnapshotInput<TEvent>,
): AgentUiProjectionState<EventOf<TEvent>>;
export declare function projectAgentRuntimeReadModel<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  input?: AgentRuntimeProjectionInput<TEvent> & ProjectorOptions,
  options?: ProjectorOptions,
): AgentRuntimeReadModel<EventOf<TEvent>>;
export declare function buildAgentUiSubagentsModel(events?: readonly AgentRuntimeExecutionEvent[]): AgentUiSubagentsModel;
export declare function replayAgentUiFixture<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  fixture: AgentUiFixture<TEvent>,
): AgentUiFixtureReplayResult<EventOf<TEvent>>;
export declare function normalizeRuntimeEvent(event: Record<string, unknown>): AgentRuntimeExecutionEvent;

/** Options of the event stream generator (all optional; ranges are inclusive `[min, max]`). */
export interface RuntimeEventGeneratorOptions {
  startTime?: string;
  runtimeId?: string;
  schemaVersion?: string;
  model?: string;
  reasoningDeltas?: [number, number];
  reasoningChars?: [number, number];
  messageChars?: [number, number];
  chunkChars?: [number, number];
  toolsPerTurn?: [number, number];
  toolProgress?: [number, number];
  toolFailureRate?: number;
  actionRate?: number;
  subagentRate?: number;
  turnFailureRate?: number;
  stateDeltaRate?: number;
}
/** A deterministic realistic stream of `n` events. */
export declare function generateRuntimeEvents(
  n: number,
  seed?: number,
  options?: RuntimeEventGeneratorOptions,
): AgentRuntimeExecutionEvent[];

/** What every projector of this package adds to the reference's: change listeners and release. */
export interface ProjectorLifecycle {
  /**
   * Call `listener()` after every change of the state (an accepted event, a hydrate, a reset; not
   * a duplicate event). Returns the function that unsubscribes it. With `getState`, this is what
   * React's `useSyncExternalStore(projector.subscribe, projector.getState)` needs.
   */
  subscribe(listener: () => void): () => void;
  /** Release the projector's WebAssembly memory now (idempotent); any later call throws. */
  free(): void;
  [Symbol.dispose](): void;
}

/** The reference projector; every returned state is immutable and shares unchanged subtrees. */
export interface AgentUiProjector<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>
  extends ProjectorLifecycle {
  getState(): AgentUiProjectionState<TEvent>;
  hydrate(input?: AgentRuntimeProjectionInput<TEvent>): AgentUiProjectionState<TEvent>;
  apply(event: TEvent): AgentUiProjectionState<TEvent>;
  /** Apply events in order, crossing into WebAssembly once. */
  applyMany(events: readonly TEvent[]): AgentUiProjectionState<TEvent>;
  reset(): AgentUiProjectionState<TEvent>;
}
export declare function createAgentUiProjector<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  initialInput?: AgentRuntimeProjectionInput<TEvent> & ProjectorOptions,
  options?: ProjectorOptions,
): AgentUiProjector<EventOf<TEvent>>;

/** What `createProjector().apply` reports: no state is built until `getState()`. */
export interface ProjectorChange {
  /** `apply`: whether the event was new; `applyMany`/`hydrate`: how many events were new. */
  accepted: boolean | number;
  /** Events accepted so far. */
  eventCount: number;
}
export interface Projector<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>
  extends ProjectorLifecycle {
  getState(): AgentUiProjectionState<TEvent>;
  apply(event: TEvent): ProjectorChange;
  applyMany(events: readonly TEvent[]): ProjectorChange;
  hydrate(input?: AgentRuntimeProjectionInput<TEvent>): ProjectorChange;
  reset(): void;
}
export declare function createProjector<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  initialInput?: AgentRuntimeProjectionInput<TEvent> & ProjectorOptions,
  options?: ProjectorOptions,
): Projector<EventOf<TEvent>>;

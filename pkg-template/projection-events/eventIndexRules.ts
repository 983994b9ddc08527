// The rules of the projection-event index, shared by the reference-compatible functions
// (eventStore.ts) and the incremental store (incrementalStore.ts): which keys an event is the
// latest event of, and when a scope filter filters at all. Internal to the room: index.ts does not
// re-export this module.
import type { AgentUiProjectionEvent } from "./contracts.js";

/** The six "latest event by key" maps of an event index, in the order the index lists them. */
export const LATEST_INDEX_FIELDS = [
  "latestEventByType",
  "latestEventByRun",
  "latestEventByToolCall",
  "latestEventByAction",
  "latestEventByArtifact",
  "latestEventByEvidence",
] as const;

/** One of the six maps of an event index. */
export type LatestIndexField = (typeof LATEST_INDEX_FIELDS)[number];

/** Position of a map in `LATEST_INDEX_FIELDS`. */
export type LatestIndexSlot = 0 | 1 | 2 | 3 | 4 | 5;

/** A value as a property key (what `object[value]` uses): a symbol stays, anything else becomes its string. */
export function toPropertyKey(value: unknown): PropertyKey {
  return typeof value === "string" || typeof value === "symbol" ? value : String(value);
}

/**
 * The keys an event takes over in an index of latest events, by map (`LatestIndexSlot`), as
 * property keys: slot 0 always holds the event's type; each other slot holds the event's key for
 * that map, or `undefined` when the event takes over no entry there.
 */
export type LatestIndexKeys = [PropertyKey, PropertyKey | undefined, PropertyKey | undefined, PropertyKey | undefined, PropertyKey | undefined, PropertyKey | undefined];

/** A fresh `LatestIndexKeys` to fill (callers reuse one per call). */
export function latestIndexKeySlots(): LatestIndexKeys {
  return ["", undefined, undefined, undefined, undefined, undefined];
}

/**
 * Fills `keys` with every entry `event` takes over in an index of latest events: always its type;
 * the first of run, turn, thread and session id present (`??`), when truthy; each of tool call,
 * action, artifact and evidence id, when truthy (else `undefined`). Reads the event's fields like
 * a plain property access, and turns each value into a property key right after reading it (a
 * `toString` that throws, or a getter, runs in the order of an index written field by field), so
 * a non-object event fails with the JS `TypeError` such an access gives. Callers store each slot
 * at a store site of its own (one map per site stays fast in V8).
 */
export function latestIndexKeys(event: AgentUiProjectionEvent, keys: LatestIndexKeys): void {
  keys[0] = toPropertyKey(event.type);
  const runKey = event.runId ?? event.turnId ?? event.threadId ?? event.sessionId ?? null;
  keys[1] = runKey ? toPropertyKey(runKey) : undefined;
  const toolCallId = event.toolCallId;
  keys[2] = toolCallId ? toPropertyKey(toolCallId) : undefined;
  const actionId = event.actionId;
  keys[3] = actionId ? toPropertyKey(actionId) : undefined;
  const artifactId = event.artifactId;
  keys[4] = artifactId ? toPropertyKey(artifactId) : undefined;
  const evidenceId = event.evidenceId;
  keys[5] = evidenceId ? toPropertyKey(evidenceId) : undefined;
}

/** The scope fields a filter may constrain, in the order a match checks them. */
export const SCOPE_FILTER_FIELDS = ["sessionId", "threadId", "runId", "turnId", "taskId"] as const;

/** One field of a scope filter. */
export type ScopeFilterField = (typeof SCOPE_FILTER_FIELDS)[number];

/** The shape of a scope filter as the rules read it (eventStore.ts exports the public type). */
export type ScopeFilterLike = Partial<Record<ScopeFilterField, string | null>>;

/** Whether `filter` constrains anything: one of its scope fields holds a truthy value. */
export function hasScopeFilter(filter: ScopeFilterLike | null | undefined): boolean {
  // Written out (not a loop over SCOPE_FILTER_FIELDS): property loads by literal name stay fast.
  if (!filter) return false;
  return Boolean(filter.sessionId || filter.threadId || filter.runId || filter.turnId || filter.taskId);
}

/**
 * Whether `event` lies in `filter`'s scope: every truthy field of the filter equals (`===`) the
 * event's field of the same name. A filter that constrains nothing matches every event.
 */
export function eventInScope(event: AgentUiProjectionEvent, filter: ScopeFilterLike | null | undefined): boolean {
  return !hasScopeFilter(filter) || inConstrainedScope(event, filter as ScopeFilterLike);
}

/**
 * `eventInScope` for a `filter` known to constrain something. In SCOPE_FILTER_FIELDS order, the
 * event's field is read before the filter's (a missing event fails on its `sessionId`, as the
 * reference's does), and the first mismatch ends the check.
 */
export function inConstrainedScope(event: AgentUiProjectionEvent, filter: ScopeFilterLike): boolean {
  let actual: unknown = event.sessionId;
  let wanted: unknown = filter.sessionId;
  if (wanted && actual !== wanted) return false;
  actual = event.threadId;
  wanted = filter.threadId;
  if (wanted && actual !== wanted) return false;
  actual = event.runId;
  wanted = filter.runId;
  if (wanted && actual !== wanted) return false;
  actual = event.turnId;
  wanted = filter.turnId;
  if (wanted && actual !== wanted) return false;
  actual = event.taskId;
  wanted = filter.taskId;
  return !(wanted && actual !== wanted);
}

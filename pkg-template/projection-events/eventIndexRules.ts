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

/**
 * Receives one entry an event writes into an index: the map (by its position in
 * `LATEST_INDEX_FIELDS`) and the key it is stored under there. The key is the event's field value
 * as it is, not yet a property key (a map keyed like a JS object converts it).
 */
export type LatestIndexVisitor = (slot: LatestIndexSlot, key: unknown) => void;

/**
 * Reports, in map order, every entry `event` takes over in an index of latest events: always its
 * type; the first of run, turn, thread and session id present (`??`), when truthy; each of tool
 * call, action, artifact and evidence id, when truthy. Reads the event's fields like a plain
 * property access, so a non-object event fails with the JS `TypeError` such an access gives.
 */
export function visitLatestIndexEntries(event: AgentUiProjectionEvent, visit: LatestIndexVisitor): void {
  visit(0, event.type);
  const runKey = event.runId ?? event.turnId ?? event.threadId ?? event.sessionId ?? null;
  if (runKey) visit(1, runKey);
  if (event.toolCallId) visit(2, event.toolCallId);
  if (event.actionId) visit(3, event.actionId);
  if (event.artifactId) visit(4, event.artifactId);
  if (event.evidenceId) visit(5, event.evidenceId);
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

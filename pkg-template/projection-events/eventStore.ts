// The projection-event store as a plain value: the events plus six maps naming the latest event per
// type, run, tool call, action, artifact and evidence, and pure selectors over such a state. These
// are the reference's functions with the reference's results (the maps are plain objects, a selector
// without a scope returns `state.events` itself). A live UI that appends events one by one should
// use `createAgentUiProjectionEventStore` (incrementalStore.ts): same results, kept up to date
// per append instead of recomputed per read.
import type { AgentUiEventClass, AgentUiProjectionEvent, AgentUiSurface } from "./contracts.js";
import {
  eventInScope,
  hasScopeFilter,
  inConstrainedScope,
  latestIndexKeySlots,
  latestIndexKeys,
  type ScopeFilterLike,
} from "./eventIndexRules.js";

/** Which events a selector keeps: those whose scope ids equal every non-empty id given here. */
export interface AgentUiProjectionScopeFilter {
  sessionId?: string | null;
  threadId?: string | null;
  runId?: string | null;
  turnId?: string | null;
  taskId?: string | null;
}

/** The latest event (the last one indexed) per event type and per run, tool call, action, artifact and evidence id. */
export interface AgentUiProjectionEventIndex {
  latestEventByType: Partial<Record<AgentUiEventClass, AgentUiProjectionEvent>>;
  /** Keyed by the event's run id, else its turn, thread or session id. */
  latestEventByRun: Record<string, AgentUiProjectionEvent>;
  latestEventByToolCall: Record<string, AgentUiProjectionEvent>;
  latestEventByAction: Record<string, AgentUiProjectionEvent>;
  latestEventByArtifact: Record<string, AgentUiProjectionEvent>;
  latestEventByEvidence: Record<string, AgentUiProjectionEvent>;
}

/** The events in arrival order, with their index. */
export interface AgentUiProjectionEventStoreState extends AgentUiProjectionEventIndex {
  events: AgentUiProjectionEvent[];
}

type LooseIndexMap = Record<PropertyKey, AgentUiProjectionEvent>;

/** A fresh index with six empty maps. */
export function createEmptyAgentUiProjectionEventIndex(): AgentUiProjectionEventIndex {
  return {
    latestEventByType: {},
    latestEventByRun: {},
    latestEventByToolCall: {},
    latestEventByAction: {},
    latestEventByArtifact: {},
    latestEventByEvidence: {},
  };
}

/** A fresh state: no events, empty maps. */
export function createEmptyAgentUiProjectionEventStoreState(): AgentUiProjectionEventStoreState {
  return { events: [], ...createEmptyAgentUiProjectionEventIndex() };
}

/**
 * The index of `previous` (default: empty) with `events` indexed after it, later events replacing
 * earlier ones under the same key. Returns six new maps (copies of `previous`'s, which stay as they
 * were): O(size of `previous` + length of `events`) per call. The result has no `events` field.
 */
export function indexAgentUiProjectionEvents(
  events: AgentUiProjectionEvent[],
  previous: AgentUiProjectionEventIndex = createEmptyAgentUiProjectionEventIndex(),
): AgentUiProjectionEventIndex {
  const latestEventByType: LooseIndexMap = { ...previous.latestEventByType };
  const latestEventByRun: LooseIndexMap = { ...previous.latestEventByRun };
  const latestEventByToolCall: LooseIndexMap = { ...previous.latestEventByToolCall };
  const latestEventByAction: LooseIndexMap = { ...previous.latestEventByAction };
  const latestEventByArtifact: LooseIndexMap = { ...previous.latestEventByArtifact };
  const latestEventByEvidence: LooseIndexMap = { ...previous.latestEventByEvidence };
  // Refilled per event; a call of its own (an event's getter may index events too).
  const keys = latestIndexKeySlots();
  for (const event of events) {
    latestIndexKeys(event, keys);
    latestEventByType[keys[0]] = event;
    if (keys[1] !== undefined) latestEventByRun[keys[1]] = event;
    if (keys[2] !== undefined) latestEventByToolCall[keys[2]] = event;
    if (keys[3] !== undefined) latestEventByAction[keys[3]] = event;
    if (keys[4] !== undefined) latestEventByArtifact[keys[4]] = event;
    if (keys[5] !== undefined) latestEventByEvidence[keys[5]] = event;
  }
  return {
    latestEventByType,
    latestEventByRun,
    latestEventByToolCall,
    latestEventByAction,
    latestEventByArtifact,
    latestEventByEvidence,
  } as AgentUiProjectionEventIndex;
}

/** Whether `event` lies in `filter`'s scope (a filter without a non-empty id matches everything). */
export function matchesAgentUiProjectionScope(
  event: AgentUiProjectionEvent,
  filter: AgentUiProjectionScopeFilter | null | undefined,
): boolean {
  return eventInScope(event, filter);
}

/** All events of `state` (the state's own array). */
export function selectAgentUiProjectionEventsFromStore(state: AgentUiProjectionEventStoreState): AgentUiProjectionEvent[] {
  return state.events;
}

/** The events in `filter`'s scope, in order; without a filter, `state.events` itself. O(events). */
export function selectAgentUiProjectionEventsForScopeFromStore(
  state: AgentUiProjectionEventStoreState,
  filter: AgentUiProjectionScopeFilter | null | undefined,
): AgentUiProjectionEvent[] {
  if (!hasScopeFilter(filter)) return state.events;
  const scope = filter as ScopeFilterLike;
  return state.events.filter((event) => inConstrainedScope(event, scope));
}

/** The events of one type, in order (a new array). O(events). */
export function selectAgentUiProjectionEventsByTypeFromStore(
  state: AgentUiProjectionEventStoreState,
  type: AgentUiEventClass,
): AgentUiProjectionEvent[] {
  return state.events.filter((event) => event.type === type);
}

/** The events of one type in `filter`'s scope, in order (a new array). O(events). */
export function selectAgentUiProjectionEventsByTypeForScopeFromStore(
  state: AgentUiProjectionEventStoreState,
  type: AgentUiEventClass,
  filter: AgentUiProjectionScopeFilter | null | undefined,
): AgentUiProjectionEvent[] {
  return selectAgentUiProjectionEventsForScopeFromStore(state, filter).filter((event) => event.type === type);
}

/** The events shown on one surface, in order (a new array). O(events). */
export function selectAgentUiProjectionEventsBySurfaceFromStore(
  state: AgentUiProjectionEventStoreState,
  surface: AgentUiSurface,
): AgentUiProjectionEvent[] {
  return state.events.filter((event) => event.surface === surface);
}

/** The events shown on one surface in `filter`'s scope, in order (a new array). O(events). */
export function selectAgentUiProjectionEventsBySurfaceForScopeFromStore(
  state: AgentUiProjectionEventStoreState,
  surface: AgentUiSurface,
  filter: AgentUiProjectionScopeFilter | null | undefined,
): AgentUiProjectionEvent[] {
  return selectAgentUiProjectionEventsForScopeFromStore(state, filter).filter((event) => event.surface === surface);
}

/** The last event in `filter`'s scope, or `null`. O(events) with a filter. */
export function selectLatestAgentUiProjectionEventForScopeFromStore(
  state: AgentUiProjectionEventStoreState,
  filter: AgentUiProjectionScopeFilter | null | undefined,
): AgentUiProjectionEvent | null {
  const inScope = selectAgentUiProjectionEventsForScopeFromStore(state, filter);
  return inScope[inScope.length - 1] ?? null;
}

/** The latest event of one type, or `null`. */
export function selectLatestAgentUiProjectionEventByTypeFromStore(
  state: AgentUiProjectionEventStoreState,
  type: AgentUiEventClass,
): AgentUiProjectionEvent | null {
  return state.latestEventByType[type] ?? null;
}

/** The latest event of a run (keyed by run id, else turn, thread or session id), or `null`. */
export function selectLatestAgentUiProjectionEventForRunFromStore(
  state: AgentUiProjectionEventStoreState,
  key: string | null | undefined,
): AgentUiProjectionEvent | null {
  // Read by literal name (a computed name makes every selector a generic keyed load).
  return key ? (state.latestEventByRun[key] ?? null) : null;
}

/** The latest event of a tool call, or `null`. */
export function selectLatestAgentUiProjectionEventForToolCallFromStore(
  state: AgentUiProjectionEventStoreState,
  key: string | null | undefined,
): AgentUiProjectionEvent | null {
  return key ? (state.latestEventByToolCall[key] ?? null) : null;
}

/** The latest event of an action request, or `null`. */
export function selectLatestAgentUiProjectionEventForActionFromStore(
  state: AgentUiProjectionEventStoreState,
  key: string | null | undefined,
): AgentUiProjectionEvent | null {
  return key ? (state.latestEventByAction[key] ?? null) : null;
}

/** The latest event of an artifact, or `null`. */
export function selectLatestAgentUiProjectionEventForArtifactFromStore(
  state: AgentUiProjectionEventStoreState,
  key: string | null | undefined,
): AgentUiProjectionEvent | null {
  return key ? (state.latestEventByArtifact[key] ?? null) : null;
}

/** The latest event of an evidence item, or `null`. */
export function selectLatestAgentUiProjectionEventForEvidenceFromStore(
  state: AgentUiProjectionEventStoreState,
  key: string | null | undefined,
): AgentUiProjectionEvent | null {
  return key ? (state.latestEventByEvidence[key] ?? null) : null;
}

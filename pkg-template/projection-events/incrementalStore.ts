// A live store of projection events for UIs: events are appended as they arrive, and every
// selector of eventStore.ts is kept up to date incrementally instead of being recomputed from the
// whole list on each read. Results equal those of the reference-compatible selectors over
// `getState()`, and keep their identity until their content changes, which is what React's
// `useSyncExternalStore` (and any memoized selector) needs to re-render only on change.
//
// How it stays cheap:
// - the events go into an append-only log that is never handed out;
// - per dimension (type, surface, and each scope id) an index maps a value to a bucket: the events
//   with that value and their log positions, both append-only. A dimension's index is built on the
//   first selector that needs it (one pass over the log), then maintained per append;
// - a selector hands out a copy of its list, made when it is read after a change, and kept until
//   the next change: handed-out arrays are never mutated;
// - a selection that no single bucket holds (two scope ids, or a type or surface within a scope)
//   keeps its own list and the log position it is complete up to; a read scans only the entries
//   added since, in the candidate bucket with the fewest of them;
// - the six "latest event by key" maps are `Map`s updated in place; `getState()` rebuilds as plain
//   objects only the maps that changed since its previous snapshot.
import type { AgentUiEventClass, AgentUiProjectionEvent, AgentUiSurface } from "./contracts.js";
import type { AgentUiProjectionEventIndex, AgentUiProjectionEventStoreState, AgentUiProjectionScopeFilter } from "./eventStore.js";
import {
  LATEST_INDEX_FIELDS,
  SCOPE_FILTER_FIELDS,
  eventInScope,
  hasScopeFilter,
  latestIndexKeySlots,
  latestIndexKeys,
  toPropertyKey,
  type LatestIndexSlot,
  type ScopeFilterField,
} from "./eventIndexRules.js";

type Event = AgentUiProjectionEvent;

/** Called after each change of a store (an append of at least one event, a reset of a non-empty store). */
export type AgentUiProjectionEventStoreListener = () => void;

/**
 * An incremental store of projection events with cached selectors.
 *
 * Every selector returns what the reference-compatible selector of the same name
 * (`select…FromStore`) returns for `getState()`, with two differences of identity and one of
 * lookup:
 * - an array result is the same array on every read until the selection gains an event; it is
 *   never mutated afterwards (treat it as read-only: the store may hand it out again);
 * - the scoped selectors return that same cached array where the reference returns `state.events`
 *   (no scope) or a fresh array (with a scope);
 * - the latest-by-key selectors only find keys that were indexed: a key such as `"toString"` finds
 *   nothing, where the reference's plain-object lookup returns what `Object.prototype` has under
 *   that name.
 *
 * Costs, with n events in the store, m events in the selection read, and k events appended since
 * the selection's previous read:
 * - `append` / `appendMany`: O(1) amortized per event (one log push, at most six `Map` writes, one
 *   bucket push per built dimension index), plus the listeners;
 * - a list selector read without change since its previous read: O(1) (with a scope filter, one
 *   hash lookup per scope field);
 * - a list selector read after a change: bringing the selection up to date costs nothing for a list
 *   some bucket holds (all events, one type, one surface, a one-id scope) and O(log n + k') for the
 *   others, k' being the entries added since in the most selective candidate bucket (k' = k when
 *   that bucket is the selection's own type, surface or scope id); then one copy of the m events
 *   (`Array.prototype.slice`), since an array that was handed out is never extended;
 * - the first read that needs a dimension's index (type, surface, or one scope id field): O(n) once;
 * - the latest-event selectors: O(1) (by key), O(log n + k') (for a scope), no copy;
 * - `getState()`: O(1) when nothing changed since its previous call; else the events list (the same
 *   array `selectEvents()` returns, O(n) when it changed) and O(entries) for each latest-event map
 *   that changed.
 *
 * Cached selections stay in memory until `reset()`: one per distinct type, surface and scope
 * filter read.
 */
export interface AgentUiProjectionEventStore {
  /** Number of events in the store. */
  readonly size: number;
  /**
   * Appends one event (kept as it is, not copied), then notifies the listeners once.
   * @throws TypeError when `event` is not an object.
   */
  append(event: AgentUiProjectionEvent): void;
  /**
   * Appends events in order, then notifies the listeners once (not at all for none). Either all of
   * them are appended or, when one is not an object, none is.
   * @throws TypeError when an item is not an object.
   */
  appendMany(events: Iterable<AgentUiProjectionEvent>): void;
  /** Removes every event and cached selection; notifies the listeners when the store held events. */
  reset(): void;
  /**
   * Registers `listener`, called after each change. Returns the function that unregisters it
   * (idempotent). Each call registers anew, even with a listener already registered. A listener
   * unregistered during a notification is not called after that; errors thrown by listeners are
   * rethrown (the first one) once every listener was called.
   */
  subscribe(listener: AgentUiProjectionEventStoreListener): () => void;
  /**
   * The state as the reference builds it: `events` plus `indexAgentUiProjectionEvents(events)`
   * (deep-equal to it). The same object until the next change; after one, unchanged maps keep
   * their identity. Do not mutate it.
   */
  getState(): AgentUiProjectionEventStoreState;
  /** All events, in order. */
  selectEvents(): readonly AgentUiProjectionEvent[];
  /** The events in `filter`'s scope; without a filter, the array `selectEvents()` returns. */
  selectEventsForScope(filter: AgentUiProjectionScopeFilter | null | undefined): readonly AgentUiProjectionEvent[];
  /** The events of one type. */
  selectEventsByType(type: AgentUiEventClass): readonly AgentUiProjectionEvent[];
  /** The events of one type in `filter`'s scope; without a filter, the array `selectEventsByType(type)` returns. */
  selectEventsByTypeForScope(
    type: AgentUiEventClass,
    filter: AgentUiProjectionScopeFilter | null | undefined,
  ): readonly AgentUiProjectionEvent[];
  /** The events shown on one surface. */
  selectEventsBySurface(surface: AgentUiSurface): readonly AgentUiProjectionEvent[];
  /** The events shown on one surface in `filter`'s scope; without a filter, the array `selectEventsBySurface(surface)` returns. */
  selectEventsBySurfaceForScope(
    surface: AgentUiSurface,
    filter: AgentUiProjectionScopeFilter | null | undefined,
  ): readonly AgentUiProjectionEvent[];
  /** The last event in `filter`'s scope (the last event without a filter), or `null`. */
  selectLatestEventForScope(filter: AgentUiProjectionScopeFilter | null | undefined): AgentUiProjectionEvent | null;
  /** The latest event of one type, or `null`. */
  selectLatestEventByType(type: AgentUiEventClass): AgentUiProjectionEvent | null;
  /** The latest event of a run (keyed by run id, else turn, thread or session id), or `null` (also for an empty key). */
  selectLatestEventForRun(key: string | null | undefined): AgentUiProjectionEvent | null;
  /** The latest event of a tool call, or `null` (also for an empty key). */
  selectLatestEventForToolCall(key: string | null | undefined): AgentUiProjectionEvent | null;
  /** The latest event of an action request, or `null` (also for an empty key). */
  selectLatestEventForAction(key: string | null | undefined): AgentUiProjectionEvent | null;
  /** The latest event of an artifact, or `null` (also for an empty key). */
  selectLatestEventForArtifact(key: string | null | undefined): AgentUiProjectionEvent | null;
  /** The latest event of an evidence item, or `null` (also for an empty key). */
  selectLatestEventForEvidence(key: string | null | undefined): AgentUiProjectionEvent | null;
}

/** A new, empty incremental store. See `AgentUiProjectionEventStore` for what each method costs. */
export function createAgentUiProjectionEventStore(): AgentUiProjectionEventStore {
  return new IncrementalProjectionEventStore();
}

/** The events of a log that share one value of a dimension, with their log positions (ascending). */
interface Bucket {
  readonly events: Event[];
  readonly positions: number[];
  /** The copy of `events` handed out last, if any. */
  view: PublishedList | undefined;
}

/** The array last handed out for a growing list, and how long the list was then. */
class PublishedList {
  private array: readonly Event[] = [];
  private length = -1;

  /** `items` as an array that is never mutated: the previous one while `items` has not grown. */
  of(items: readonly Event[]): readonly Event[] {
    if (this.length !== items.length) {
      this.array = items.slice();
      this.length = items.length;
    }
    return this.array;
  }
}

/** `bucket`'s events as a handed-out array (see `PublishedList`). */
function publish(bucket: Bucket): readonly Event[] {
  if (bucket.view === undefined) bucket.view = new PublishedList();
  return bucket.view.of(bucket.events);
}

/** The result of a selection nothing can match (a `NaN` type or surface): always this empty array. */
const NO_EVENTS: readonly Event[] = Object.freeze([]);

/** Reads the value a dimension indexes events by. */
type DimensionReader = (event: Event) => unknown;

/** The dimensions the store can index by: the event's type, surface and scope ids. */
type Dimension = "type" | "surface" | ScopeFilterField;

/** How each dimension reads an event, and whether an event whose value is falsy is indexed at all. */
const DIMENSIONS: ReadonlyArray<{ dimension: Dimension; read: DimensionReader; falsyIndexed: boolean }> = [
  { dimension: "type", read: (event) => event.type, falsyIndexed: true },
  { dimension: "surface", read: (event) => event.surface, falsyIndexed: true },
  // A scope filter only constrains with truthy ids, so only truthy ids are ever looked up.
  ...SCOPE_FILTER_FIELDS.map((field) => ({ dimension: field, read: (event: Event) => event[field], falsyIndexed: false })),
];

/** The buckets of one dimension, keyed by value (`SameValueZero`, like `===` but for `NaN`). */
class DimensionIndex {
  readonly buckets = new Map<unknown, Bucket>();

  constructor(
    private readonly read: DimensionReader,
    private readonly falsyIndexed: boolean,
  ) {}

  /** Adds the event at `position` of the log to its bucket. O(1) amortized. */
  add(event: Event, position: number): void {
    const value = this.read(event);
    if (!value && !this.falsyIndexed) return;
    const bucket = this.bucket(value);
    bucket.events.push(event);
    bucket.positions.push(position);
  }

  /** The bucket of `value`, created empty when no event had it yet (appends will fill it). */
  bucket(value: unknown): Bucket {
    let bucket = this.buckets.get(value);
    if (bucket === undefined) {
      bucket = { events: [], positions: [], view: undefined };
      this.buckets.set(value, bucket);
    }
    return bucket;
  }
}

/**
 * A selection no single bucket holds: the events of the log that pass `test`, among the events of
 * any one of `candidates` (each bucket holds every event that passes `test`).
 */
class ScannedSelection {
  private readonly matches: Event[] = [];
  /** The log length up to which `matches` is complete. */
  private scanned = 0;
  private readonly published = new PublishedList();

  constructor(
    private readonly candidates: readonly Bucket[],
    private readonly test: (event: Event) => boolean,
  ) {}

  /** The matching events so far (internal list: not to be handed out). O(log n + k') when the log grew. */
  current(logLength: number): readonly Event[] {
    if (this.scanned === logLength) return this.matches;
    let best = this.candidates[0];
    let bestStart = firstPositionAtLeast(best.positions, this.scanned);
    for (let i = 1; i < this.candidates.length && bestStart < best.positions.length; i += 1) {
      const candidate = this.candidates[i];
      const start = firstPositionAtLeast(candidate.positions, this.scanned);
      if (candidate.positions.length - start < best.positions.length - bestStart) {
        best = candidate;
        bestStart = start;
      }
    }
    for (let i = bestStart; i < best.events.length; i += 1) {
      const event = best.events[i];
      if (this.test(event)) this.matches.push(event);
    }
    this.scanned = logLength;
    return this.matches;
  }

  /** The matching events as a handed-out array (see `PublishedList`). */
  list(logLength: number): readonly Event[] {
    return this.published.of(this.current(logLength));
  }
}

/** Index of the first entry of the ascending `positions` that is at least `position`. O(log n). */
function firstPositionAtLeast(positions: readonly number[], position: number): number {
  let low = 0;
  let high = positions.length;
  // Fast path: nothing new (the common case of a read right after one append elsewhere).
  if (high === 0 || positions[high - 1] < position) return high;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle] < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Which single dimension a scoped list selector also constrains. */
type ScopedKind = "scope" | "type" | "surface";

/** Stands for a scope id the filter leaves unconstrained, in a cache path. */
const UNCONSTRAINED = Symbol("unconstrained");

/**
 * Scanned selections by (kind, type or surface, the five scope ids): nested `Map`s keyed by the
 * raw values, so any value a filter may hold is a key (compared like `===`, `NaN` aside, which is
 * never a constraint). A lookup costs one hash lookup per level.
 */
class SelectionCache {
  private readonly root = new Map<unknown, unknown>();

  /** The selection at `path`, made by `make` when there is none yet. */
  get(path: readonly unknown[], make: () => ScannedSelection): ScannedSelection {
    let level = this.root;
    for (let i = 0; i < path.length - 1; i += 1) {
      let next = level.get(path[i]) as Map<unknown, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(path[i], next);
      }
      level = next;
    }
    const last = path[path.length - 1];
    let selection = level.get(last) as ScannedSelection | undefined;
    if (selection === undefined) {
      selection = make();
      level.set(last, selection);
    }
    return selection;
  }
}

class IncrementalProjectionEventStore implements AgentUiProjectionEventStore {
  private log: Event[] = [];
  private allEvents = new PublishedList();
  private latest: Array<Map<PropertyKey, Event>> = LATEST_INDEX_FIELDS.map(() => new Map());
  /** Per latest-event map, a counter of its writes. */
  private latestVersions: number[] = LATEST_INDEX_FIELDS.map(() => 0);
  private dimensions = new Map<Dimension, DimensionIndex>();
  private selections = new SelectionCache();
  private snapshot: { state: AgentUiProjectionEventStoreState; logLength: number; latestVersions: number[] } | undefined;
  private readonly listeners = new Set<{ listener: AgentUiProjectionEventStoreListener }>();
  get size(): number {
    return this.log.length;
  }

  append(event: AgentUiProjectionEvent): void {
    requireEvent(event, "append", 0);
    this.add(event);
    this.notify();
  }

  appendMany(events: Iterable<AgentUiProjectionEvent>): void {
    const batch = Array.isArray(events) ? (events as readonly Event[]) : [...events];
    for (let i = 0; i < batch.length; i += 1) requireEvent(batch[i], "appendMany", i);
    if (batch.length === 0) return;
    for (let i = 0; i < batch.length; i += 1) this.add(batch[i]);
    this.notify();
  }

  reset(): void {
    const hadEvents = this.log.length > 0;
    this.log = [];
    this.allEvents = new PublishedList();
    this.latest = LATEST_INDEX_FIELDS.map(() => new Map());
    this.latestVersions = LATEST_INDEX_FIELDS.map(() => 0);
    this.dimensions = new Map();
    this.selections = new SelectionCache();
    this.snapshot = undefined;
    if (hadEvents) this.notify();
  }

  subscribe(listener: AgentUiProjectionEventStoreListener): () => void {
    const entry = { listener };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  getState(): AgentUiProjectionEventStoreState {
    const previous = this.snapshot;
    const logLength = this.log.length;
    if (previous && previous.logLength === logLength) return previous.state;
    const maps = LATEST_INDEX_FIELDS.map((field, slot) =>
      previous && previous.latestVersions[slot] === this.latestVersions[slot]
        ? previous.state[field]
        : plainObjectOf(this.latest[slot]),
    ) as Array<AgentUiProjectionEventIndex[keyof AgentUiProjectionEventIndex]>;
    const state: AgentUiProjectionEventStoreState = {
      // The published array is never mutated, so the state may share it with `selectEvents()`.
      events: this.selectEvents() as Event[],
      latestEventByType: maps[0],
      latestEventByRun: maps[1] as Record<string, Event>,
      latestEventByToolCall: maps[2] as Record<string, Event>,
      latestEventByAction: maps[3] as Record<string, Event>,
      latestEventByArtifact: maps[4] as Record<string, Event>,
      latestEventByEvidence: maps[5] as Record<string, Event>,
    };
    this.snapshot = { state, logLength, latestVersions: this.latestVersions.slice() };
    return state;
  }

  selectEvents(): readonly AgentUiProjectionEvent[] {
    return this.allEvents.of(this.log);
  }

  selectEventsForScope(filter: AgentUiProjectionScopeFilter | null | undefined): readonly AgentUiProjectionEvent[] {
    return this.scopedList("scope", undefined, filter) ?? this.selectEvents();
  }

  selectEventsByType(type: AgentUiEventClass): readonly AgentUiProjectionEvent[] {
    return this.dimensionList("type", type);
  }

  selectEventsByTypeForScope(
    type: AgentUiEventClass,
    filter: AgentUiProjectionScopeFilter | null | undefined,
  ): readonly AgentUiProjectionEvent[] {
    return this.scopedList("type", type, filter) ?? this.selectEventsByType(type);
  }

  selectEventsBySurface(surface: AgentUiSurface): readonly AgentUiProjectionEvent[] {
    return this.dimensionList("surface", surface);
  }

  selectEventsBySurfaceForScope(
    surface: AgentUiSurface,
    filter: AgentUiProjectionScopeFilter | null | undefined,
  ): readonly AgentUiProjectionEvent[] {
    return this.scopedList("surface", surface, filter) ?? this.selectEventsBySurface(surface);
  }

  selectLatestEventForScope(filter: AgentUiProjectionScopeFilter | null | undefined): AgentUiProjectionEvent | null {
    const matches = this.scopedMatches("scope", undefined, filter) ?? this.log;
    return matches[matches.length - 1] ?? null;
  }

  selectLatestEventByType(type: AgentUiEventClass): AgentUiProjectionEvent | null {
    return this.latest[0].get(toPropertyKey(type)) ?? null;
  }

  selectLatestEventForRun(key: string | null | undefined): AgentUiProjectionEvent | null {
    return this.latestByKey(1, key);
  }

  selectLatestEventForToolCall(key: string | null | undefined): AgentUiProjectionEvent | null {
    return this.latestByKey(2, key);
  }

  selectLatestEventForAction(key: string | null | undefined): AgentUiProjectionEvent | null {
    return this.latestByKey(3, key);
  }

  selectLatestEventForArtifact(key: string | null | undefined): AgentUiProjectionEvent | null {
    return this.latestByKey(4, key);
  }

  selectLatestEventForEvidence(key: string | null | undefined): AgentUiProjectionEvent | null {
    return this.latestByKey(5, key);
  }

  /** Puts `event` at the end of the log and into the latest-event maps and the built indexes. */
  private add(event: Event): void {
    const position = this.log.length;
    const keys = latestIndexKeySlots();
    latestIndexKeys(event, keys);
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot];
      if (key === undefined) continue;
      const map = this.latest[slot];
      // The same event again under the same key (an event appended twice) changes nothing.
      if (map.get(key) === event) continue;
      map.set(key, event);
      this.latestVersions[slot] += 1;
    }
    this.log.push(event);
    for (const index of this.dimensions.values()) index.add(event, position);
  }

  private latestByKey(slot: LatestIndexSlot, key: string | null | undefined): Event | null {
    if (!key) return null;
    return this.latest[slot].get(toPropertyKey(key)) ?? null;
  }

  /** The index of `dimension`, built from the log on first use. O(n) once. */
  private dimension(dimension: Dimension): DimensionIndex {
    let index = this.dimensions.get(dimension);
    if (index === undefined) {
      const spec = DIMENSIONS.find((entry) => entry.dimension === dimension) as (typeof DIMENSIONS)[number];
      index = new DimensionIndex(spec.read, spec.falsyIndexed);
      for (let position = 0; position < this.log.length; position += 1) index.add(this.log[position], position);
      this.dimensions.set(dimension, index);
    }
    return index;
  }

  /** The events whose `dimension` value is `value` (`===`), as a handed-out array. */
  private dimensionList(dimension: "type" | "surface", value: unknown): readonly Event[] {
    // `===` never holds for NaN, which a Map key would match.
    if (Number.isNaN(value)) return NO_EVENTS;
    return publish(this.dimension(dimension).bucket(value));
  }

  /**
   * A scoped list selector's result as a handed-out array; `undefined` when `filter` constrains
   * nothing (the caller answers with the unscoped selection).
   */
  private scopedList(kind: ScopedKind, value: unknown, filter: AgentUiProjectionScopeFilter | null | undefined): readonly Event[] | undefined {
    const source = this.scopedSource(kind, value, filter);
    if (source === undefined) return undefined;
    if (source instanceof ScannedSelection) return source.list(this.log.length);
    return publish(source);
  }

  /** A scoped selector's matching events, not to be handed out; `undefined` when `filter` constrains nothing. */
  private scopedMatches(kind: ScopedKind, value: unknown, filter: AgentUiProjectionScopeFilter | null | undefined): readonly Event[] | undefined {
    const source = this.scopedSource(kind, value, filter);
    if (source === undefined) return undefined;
    if (source instanceof ScannedSelection) return source.current(this.log.length);
    return source.events;
  }

  /**
   * Where a scoped selection's events are: the bucket of a one-id scope, or a cached scanned
   * selection. `undefined` when `filter` constrains nothing.
   */
  private scopedSource(kind: ScopedKind, value: unknown, filter: AgentUiProjectionScopeFilter | null | undefined): Bucket | ScannedSelection | undefined {
    if (!hasScopeFilter(filter)) return undefined;
    const scope = filter as AgentUiProjectionScopeFilter;
    // The filter's ids are read once, into the selection's own copy: later changes to the
    // caller's object do not reach a cached selection.
    const constraints: Array<[ScopeFilterField, unknown]> = [];
    const path: unknown[] = [kind, kind === "scope" ? UNCONSTRAINED : value];
    for (const field of SCOPE_FILTER_FIELDS) {
      const id: unknown = scope[field];
      if (id) constraints.push([field, id]);
      path.push(id ? id : UNCONSTRAINED);
    }
    if (kind === "scope" && constraints.length === 1) {
      const [field, id] = constraints[0];
      return this.dimension(field).bucket(id);
    }
    return this.selections.get(path, () => {
      const own = Object.fromEntries(constraints) as AgentUiProjectionScopeFilter;
      const candidates = constraints.map(([field, id]) => this.dimension(field).bucket(id));
      if (kind === "scope") return new ScannedSelection(candidates, (event) => eventInScope(event, own));
      candidates.push(this.dimension(kind).bucket(value));
      const test =
        kind === "type"
          ? (event: Event) => event.type === value && eventInScope(event, own)
          : (event: Event) => event.surface === value && eventInScope(event, own);
      return new ScannedSelection(candidates, test);
    });
  }

  /** Calls every listener registered when the change happened; rethrows the first error after. */
  private notify(): void {
    if (this.listeners.size === 0) return;
    let failure: { error: unknown } | undefined;
    for (const entry of [...this.listeners]) {
      if (!this.listeners.has(entry)) continue;
      try {
        entry.listener();
      } catch (error) {
        if (failure === undefined) failure = { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/** A plain object holding `map`'s entries, written like the reference writes its index maps (`obj[key] = event`). */
function plainObjectOf(map: ReadonlyMap<PropertyKey, Event>): Record<PropertyKey, Event> {
  const out: Record<PropertyKey, Event> = {};
  for (const [key, event] of map) out[key] = event;
  return out;
}

/** Rejects what is not an event object before anything is appended. */
function requireEvent(event: unknown, method: string, index: number): asserts event is Event {
  if (typeof event !== "object" || event === null) {
    const what = event === null ? "null" : typeof event;
    throw new TypeError(`AgentUiProjectionEventStore.${method}: item ${index} is ${what}, not a projection event object`);
  }
}

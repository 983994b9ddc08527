// The incremental projection-event store (`createAgentUiProjectionEventStore`) against the
// package's reference-compatible functions: over generated event streams, after every append,
// every selector of the store equals the `select…FromStore` function of the same name applied to
// `{events, ...indexAgentUiProjectionEvents(events)}`, and `getState()` equals that state. Array
// results keep their identity while their content is unchanged, get a new one when it changes,
// and are never mutated afterwards. Also: subscribe / unsubscribe, reset, bad input.
//
// The generated events are variations of the projection events the reference's own tests use
// (read from ../shared/reference/calls/projection/{eventStore,summary}.json at run time): their
// shapes, with scope and entity ids redrawn from small pools so that keys collide, and fields
// dropped, emptied or swapped.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeCall, hasReference, pkgEntry, readReference } from "./reference.mjs";
import { typeCheck } from "./tsc.mjs";

const api = await import(pkgEntry);
const {
  createAgentUiProjectionEventStore,
  createEmptyAgentUiProjectionEventStoreState,
  indexAgentUiProjectionEvents,
  selectAgentUiProjectionEventsFromStore,
  selectAgentUiProjectionEventsForScopeFromStore,
  selectAgentUiProjectionEventsByTypeFromStore,
  selectAgentUiProjectionEventsByTypeForScopeFromStore,
  selectAgentUiProjectionEventsBySurfaceFromStore,
  selectAgentUiProjectionEventsBySurfaceForScopeFromStore,
  selectLatestAgentUiProjectionEventForScopeFromStore,
  selectLatestAgentUiProjectionEventByTypeFromStore,
  selectLatestAgentUiProjectionEventForRunFromStore,
  selectLatestAgentUiProjectionEventForToolCallFromStore,
  selectLatestAgentUiProjectionEventForActionFromStore,
  selectLatestAgentUiProjectionEventForArtifactFromStore,
  selectLatestAgentUiProjectionEventForEvidenceFromStore,
} = api;

// ---- the generator -------------------------------------------------------------------------

/** Every projection event object among the recorded calls' arguments (objects with a `type` and a `sourceType`). */
function recordedEventShapes() {
  const shapes = [];
  const seen = new Set();
  const visit = (value) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    if (typeof value.type === "string" && typeof value.sourceType === "string") {
      const key = JSON.stringify(value);
      if (!seen.has(key)) {
        seen.add(key);
        shapes.push(value);
      }
      return;
    }
    Object.values(value).forEach(visit);
  };
  for (const module of ["eventStore", "summary"]) {
    for (const call of readReference("calls", "projection", `${module}.json`).calls) visit(decodeCall(call.args ?? []));
  }
  return shapes;
}

/** A small deterministic PRNG (mulberry32). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCOPE_IDS = {
  sessionId: ["session-a", "session-b"],
  threadId: ["thread-a", "thread-b", "thread-c"],
  runId: ["run-a", "run-b", "run-c"],
  turnId: ["turn-a", "turn-b"],
  taskId: ["task-a", "task-b"],
};
const ENTITY_IDS = {
  toolCallId: ["tool-a", "tool-b", "tool-c"],
  actionId: ["action-a", "action-b"],
  artifactId: ["artifact-a", "artifact-b"],
  evidenceId: ["evidence-a", "evidence-b"],
};

/**
 * A generator of projection events: each is a copy of a recorded shape whose scope and entity ids
 * are redrawn (kept, replaced from a pool, emptied or dropped), whose type and surface are
 * sometimes taken from another shape, and numbered by `sequence`. Now and then it hands out an
 * event object it already gave (the same object appended twice).
 */
function eventGenerator(shapes, seed) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const types = [...new Set(shapes.map((shape) => shape.type))];
  const surfaces = [...new Set(shapes.map((shape) => shape.surface).filter(Boolean))];
  const given = [];
  let sequence = 0;
  return () => {
    if (given.length > 0 && random() < 0.03) return pick(given);
    const event = { ...pick(shapes) };
    const redraw = (field, pool) => {
      const roll = random();
      if (roll < 0.35) delete event[field];
      else if (roll < 0.4) event[field] = "";
      else if (roll < 0.9) event[field] = pick(pool);
      // else: the shape's own value (or absence) stays
    };
    for (const [field, pool] of Object.entries(SCOPE_IDS)) redraw(field, pool);
    for (const [field, pool] of Object.entries(ENTITY_IDS)) if (random() < 0.4) redraw(field, pool);
    if (random() < 0.3) event.type = pick(types);
    const surfaceRoll = random();
    if (surfaceRoll < 0.1) delete event.surface;
    else if (surfaceRoll < 0.3) event.surface = pick(surfaces);
    sequence += 1;
    event.sequence = sequence;
    given.push(event);
    return event;
  };
}

// ---- what is compared ----------------------------------------------------------------------

/** The selector calls compared after each append: a name, the store's call, the reference-compatible call. */
function selectorCalls(shapes) {
  const types = [...new Set(shapes.map((shape) => shape.type)), "run.canceled"];
  const surfaces = [...new Set(shapes.map((shape) => shape.surface)), "composer", undefined];
  const filters = [
    null,
    undefined,
    {},
    { sessionId: "", threadId: null },
    { sessionId: "session-a" },
    { threadId: "thread-b" },
    { runId: "run-a" },
    { turnId: "turn-b" },
    { taskId: "task-a" },
    { sessionId: "session-b", runId: "run-c" },
    { threadId: "thread-a", turnId: "turn-a", taskId: "" },
    { sessionId: "session-a", threadId: "thread-c", runId: "run-b", turnId: "turn-a", taskId: "task-b" },
    { runId: "run-nowhere" },
  ];
  const keys = (pool) => [...pool, "", null, undefined, "nowhere"];
  const calls = [["events", (s) => s.selectEvents(), (state) => selectAgentUiProjectionEventsFromStore(state)]];
  const label = (value) => JSON.stringify(value) ?? "undefined";
  for (const filter of filters) {
    calls.push([`scope ${label(filter)}`, (s) => s.selectEventsForScope(filter), (st) => selectAgentUiProjectionEventsForScopeFromStore(st, filter)]);
    calls.push([
      `latest scope ${label(filter)}`,
      (s) => s.selectLatestEventForScope(filter),
      (st) => selectLatestAgentUiProjectionEventForScopeFromStore(st, filter),
    ]);
  }
  for (const type of types) {
    calls.push([`type ${type}`, (s) => s.selectEventsByType(type), (st) => selectAgentUiProjectionEventsByTypeFromStore(st, type)]);
    calls.push([`latest type ${type}`, (s) => s.selectLatestEventByType(type), (st) => selectLatestAgentUiProjectionEventByTypeFromStore(st, type)]);
    for (const filter of filters.filter((_, i) => i % 2 === 0)) {
      calls.push([
        `type ${type} scope ${label(filter)}`,
        (s) => s.selectEventsByTypeForScope(type, filter),
        (st) => selectAgentUiProjectionEventsByTypeForScopeFromStore(st, type, filter),
      ]);
    }
  }
  for (const surface of surfaces) {
    calls.push([`surface ${surface}`, (s) => s.selectEventsBySurface(surface), (st) => selectAgentUiProjectionEventsBySurfaceFromStore(st, surface)]);
    for (const filter of filters.filter((_, i) => i % 2 === 1)) {
      calls.push([
        `surface ${surface} scope ${label(filter)}`,
        (s) => s.selectEventsBySurfaceForScope(surface, filter),
        (st) => selectAgentUiProjectionEventsBySurfaceForScopeFromStore(st, surface, filter),
      ]);
    }
  }
  const latestByKey = [
    ["run", [...SCOPE_IDS.runId, ...SCOPE_IDS.turnId, ...SCOPE_IDS.threadId, ...SCOPE_IDS.sessionId], "selectLatestEventForRun", selectLatestAgentUiProjectionEventForRunFromStore],
    ["tool call", ENTITY_IDS.toolCallId, "selectLatestEventForToolCall", selectLatestAgentUiProjectionEventForToolCallFromStore],
    ["action", ENTITY_IDS.actionId, "selectLatestEventForAction", selectLatestAgentUiProjectionEventForActionFromStore],
    ["artifact", ENTITY_IDS.artifactId, "selectLatestEventForArtifact", selectLatestAgentUiProjectionEventForArtifactFromStore],
    ["evidence", ENTITY_IDS.evidenceId, "selectLatestEventForEvidence", selectLatestAgentUiProjectionEventForEvidenceFromStore],
  ];
  for (const [what, pool, method, reference] of latestByKey) {
    for (const key of keys(pool)) {
      calls.push([`latest ${what} ${label(key)}`, (s) => s[method](key), (st) => reference(st, key)]);
    }
  }
  return calls;
}

/** The state the reference builds for `events` (one index call over all of them, a copy of the list). */
function referenceState(events) {
  return { events: events.slice(), ...indexAgentUiProjectionEvents(events, createEmptyAgentUiProjectionEventStoreState()) };
}

/**
 * Appends a generated stream to a fresh store in batches of 1 to 4 events (`append` for one,
 * `appendMany` for more), reading the selectors after every `readEvery`-th batch, and checks each
 * read against the reference and against the previous read of the same selector.
 */
function checkStream({ seed, length, readEvery, shapes }) {
  const next = eventGenerator(shapes, seed);
  const random = prng(seed ^ 0x5bd1e995);
  const calls = selectorCalls(shapes);
  const store = createAgentUiProjectionEventStore();
  const events = [];
  /** Per selector: the array last returned and a copy of its content then. */
  const previous = new Map();
  let previousState;
  let batches = 0;
  let checkedReads = 0;
  while (events.length < length) {
    const size = 1 + Math.floor(random() * 4);
    const batch = Array.from({ length: size }, next);
    if (size === 1 && random() < 0.5) store.append(batch[0]);
    else store.appendMany(size > 2 ? new Set(batch) : batch);
    // A Set drops an event handed out twice in the same batch: mirror what the store received.
    events.push(...(size > 2 ? new Set(batch) : batch));
    batches += 1;
    assert.equal(store.size, events.length);
    if (batches % readEvery !== 0) continue;

    const expected = referenceState(events);
    const state = store.getState();
    assert.deepStrictEqual(state, expected, `getState after ${events.length} events`);
    assert.equal(store.getState(), state, "getState is the same object while nothing changed");
    if (previousState) {
      assert.notEqual(state, previousState, "getState changes after an append");
      for (const field of Object.keys(state)) {
        if (field === "events") continue;
        // A map keeps its identity exactly when its content did not change.
        const same = sameEntries(previousState[field], state[field]);
        assert.equal(state[field] === previousState[field], same, `getState().${field} identity after ${events.length} events`);
      }
    }
    previousState = state;

    for (const [name, ofStore, ofReference] of calls) {
      const actual = ofStore(store);
      const wanted = ofReference(expected);
      assert.deepStrictEqual(actual, wanted, `${name} after ${events.length} events`);
      assert.equal(ofStore(store), actual, `${name}: a second read without append is the same value`);
      if (Array.isArray(actual)) {
        const before = previous.get(name);
        if (before) {
          assert.deepStrictEqual(before.array, before.content, `${name}: an array handed out earlier was mutated`);
          const unchanged = sameEntries(before.content, actual);
          assert.equal(before.array === actual, unchanged, `${name}: identity ${unchanged ? "kept" : "renewed"} after ${events.length} events`);
        }
        previous.set(name, { array: actual, content: actual.slice() });
      }
      checkedReads += 1;
    }
  }
  return { store, events, checkedReads };
}

/** Whether two arrays or records hold the very same values (`===`) under the same keys. */
function sameEntries(a, b) {
  const keys = Reflect.ownKeys(a);
  if (keys.length !== Reflect.ownKeys(b).length || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  return keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

// ---- the tests -----------------------------------------------------------------------------

const shapes = hasReference ? recordedEventShapes() : [];

test("store: the recorded calls give event shapes to generate from", { skip: !hasReference }, () => {
  assert.ok(shapes.length >= 8, `only ${shapes.length} recorded event shapes`);
  assert.ok(new Set(shapes.map((shape) => shape.type)).size >= 6);
});

for (const [seed, length, readEvery] of [
  [1, 300, 1],
  [2, 300, 1],
  [3, 600, 7],
  [4, 400, 3],
]) {
  test(`store: every selector equals the reference-compatible one after each read (seed ${seed}, ${length} events, read every ${readEvery} appends)`, { skip: !hasReference }, () => {
    const { checkedReads } = checkStream({ seed, length, readEvery, shapes });
    assert.ok(checkedReads > 1000);
  });
}

test("store: an append that touches no selection keeps every identity, one that does renews only those", { skip: !hasReference }, () => {
  const store = createAgentUiProjectionEventStore();
  const [tool, artifact] = shapes.filter((shape) => shape.type === "tool.result" || shape.type === "artifact.preview.ready");
  const a = { ...tool, sessionId: "s1", threadId: "t1", runId: "r1", toolCallId: "c1" };
  const b = { ...artifact, sessionId: "s2", threadId: "t2", runId: "r2", artifactId: "x1" };
  store.append(a);
  const toolResults = store.selectEventsByType(a.type);
  const s1 = store.selectEventsForScope({ sessionId: "s1" });
  const s1t1 = store.selectEventsForScope({ sessionId: "s1", threadId: "t1" });
  const toolInS1 = store.selectEventsByTypeForScope(a.type, { sessionId: "s1" });
  const surfaceInT1 = store.selectEventsBySurfaceForScope(a.surface, { threadId: "t1" });
  const all = store.selectEvents();
  store.append(b);
  assert.equal(store.selectEventsByType(a.type), toolResults);
  assert.equal(store.selectEventsForScope({ sessionId: "s1" }), s1);
  assert.equal(store.selectEventsForScope({ threadId: "t1", sessionId: "s1" }), s1t1);
  assert.equal(store.selectEventsByTypeForScope(a.type, { sessionId: "s1" }), toolInS1);
  assert.equal(store.selectEventsBySurfaceForScope(a.surface, { threadId: "t1" }), surfaceInT1);
  assert.notEqual(store.selectEvents(), all);
  assert.deepStrictEqual(all, [a]);
  assert.equal(store.selectLatestEventForToolCall("c1"), a);
  const a2 = { ...a, sequence: 3 };
  store.append(a2);
  assert.notEqual(store.selectEventsByType(a.type), toolResults);
  assert.deepStrictEqual(toolResults, [a]);
  assert.deepStrictEqual(store.selectEventsForScope({ sessionId: "s1", threadId: "t1" }), [a, a2]);
  assert.deepStrictEqual(s1t1, [a]);
  assert.equal(store.selectLatestEventForScope({ threadId: "t1" }), a2);
  assert.equal(store.selectLatestEventForToolCall("c1"), a2);
  // Without a filter the scoped selectors answer with the unscoped arrays.
  assert.equal(store.selectEventsForScope(null), store.selectEvents());
  assert.equal(store.selectEventsForScope({ runId: "" }), store.selectEvents());
  assert.equal(store.selectEventsByTypeForScope(a.type, {}), store.selectEventsByType(a.type));
  assert.equal(store.selectEventsBySurfaceForScope(b.surface, undefined), store.selectEventsBySurface(b.surface));
  assert.equal(store.getState().events, store.selectEvents());
});

test("store: subscribe, unsubscribe", { skip: !hasReference }, () => {
  const store = createAgentUiProjectionEventStore();
  const next = eventGenerator(shapes, 11);
  const seen = [];
  const unsubscribe = store.subscribe(() => seen.push(store.size));
  store.append(next());
  store.appendMany([next(), next()]);
  store.appendMany([]);
  store.appendMany(new Set());
  assert.deepStrictEqual(seen, [1, 3]);
  // Each subscription is its own, even for the same function.
  let calls = 0;
  const count = () => {
    calls += 1;
  };
  const first = store.subscribe(count);
  const second = store.subscribe(count);
  store.append(next());
  assert.equal(calls, 2);
  first();
  first();
  store.append(next());
  assert.equal(calls, 3);
  second();
  unsubscribe();
  store.append(next());
  assert.equal(calls, 3);
  assert.deepStrictEqual(seen, [1, 3, 4, 5]);
  // A listener unsubscribed by an earlier one during a notification is not called.
  const order = [];
  let dropLater;
  store.subscribe(() => {
    order.push("first");
    dropLater();
  });
  dropLater = store.subscribe(() => order.push("second"));
  store.append(next());
  assert.deepStrictEqual(order, ["first"]);
  // A throwing listener does not keep the others from being called; its error comes out after.
  const failing = createAgentUiProjectionEventStore();
  const reached = [];
  failing.subscribe(() => {
    throw new Error("listener failed");
  });
  failing.subscribe(() => reached.push(failing.size));
  assert.throws(() => failing.append(next()), { message: "listener failed" });
  assert.deepStrictEqual(reached, [1]);
  assert.equal(failing.size, 1);
});

test("store: reset empties it", { skip: !hasReference }, () => {
  const { store } = checkStream({ seed: 5, length: 60, readEvery: 2, shapes });
  const before = store.selectEvents();
  const beforeContent = before.slice();
  let notified = 0;
  store.subscribe(() => {
    notified += 1;
  });
  store.reset();
  assert.equal(notified, 1);
  assert.equal(store.size, 0);
  assert.deepStrictEqual(store.getState(), createEmptyAgentUiProjectionEventStoreState());
  assert.deepStrictEqual(store.selectEvents(), []);
  assert.deepStrictEqual(before, beforeContent, "arrays handed out before the reset are left as they were");
  for (const [name, ofStore, ofReference] of selectorCalls(shapes)) {
    assert.deepStrictEqual(ofStore(store), ofReference(createEmptyAgentUiProjectionEventStoreState()), `${name} after reset`);
  }
  store.reset();
  assert.equal(notified, 1, "resetting an empty store changes nothing");
  // The store works as new after a reset, also with as many events as it had before.
  const next = eventGenerator(shapes, 6);
  const events = Array.from({ length: beforeContent.length }, next);
  store.appendMany(events);
  assert.equal(notified, 2);
  const expected = referenceState(events);
  assert.deepStrictEqual(store.getState(), expected);
  for (const [name, ofStore, ofReference] of selectorCalls(shapes)) {
    assert.deepStrictEqual(ofStore(store), ofReference(expected), `${name} after reset and appends`);
  }
});

test("store: a reset followed by as many new events as before gives the new events", { skip: !hasReference }, () => {
  const next = eventGenerator(shapes, 8);
  const store = createAgentUiProjectionEventStore();
  const first = Array.from({ length: 5 }, next);
  const second = Array.from({ length: 5 }, next);
  store.appendMany(first);
  const reads = selectorCalls(shapes).map(([, ofStore]) => ofStore(store));
  const state = store.getState();
  store.reset();
  store.appendMany(second);
  assert.deepStrictEqual(store.getState(), referenceState(second));
  assert.notEqual(store.getState(), state);
  for (const [name, ofStore, ofReference] of selectorCalls(shapes)) {
    assert.deepStrictEqual(ofStore(store), ofReference(referenceState(second)), `${name} after reset`);
  }
  assert.equal(reads.length, selectorCalls(shapes).length);
});

test("store: what is not an event object is rejected before anything is appended", () => {
  const store = createAgentUiProjectionEventStore();
  let notified = 0;
  store.subscribe(() => {
    notified += 1;
  });
  const event = { type: "run.started", sourceType: "runtime_status", owner: "runtime", scope: "run", phase: "preparing", runId: "r" };
  assert.throws(() => store.append(null), { name: "TypeError", message: "AgentUiProjectionEventStore.append: item 0 is null, not a projection event object" });
  assert.throws(() => store.appendMany([event, "run.started"]), {
    name: "TypeError",
    message: "AgentUiProjectionEventStore.appendMany: item 1 is string, not a projection event object",
  });
  // eslint-disable-next-line no-sparse-arrays
  assert.throws(() => store.appendMany([event, , event]), { name: "TypeError", message: /item 1 is undefined/ });
  assert.equal(store.size, 0);
  assert.equal(notified, 0);
  assert.deepStrictEqual(store.getState(), createEmptyAgentUiProjectionEventStoreState());
});

test("store: keys are looked up among the indexed keys only (the reference's plain objects also answer inherited names)", () => {
  const store = createAgentUiProjectionEventStore();
  const event = { type: "tool.result", sourceType: "tool_end", owner: "tool", scope: "tool_call", phase: "completed", toolCallId: "__proto__", runId: "r" };
  store.append(event);
  const state = store.getState();
  assert.deepStrictEqual(state, referenceState([event]));
  assert.equal(store.selectLatestEventForToolCall("__proto__"), event);
  assert.equal(selectLatestAgentUiProjectionEventForToolCallFromStore(state, "__proto__"), event);
  assert.equal(store.selectLatestEventForRun("toString"), null);
  assert.equal(selectLatestAgentUiProjectionEventForRunFromStore(state, "toString"), Object.prototype.toString);
});

test("reference-compatible functions: identities the reference has", () => {
  const event = { type: "tool.result", sourceType: "tool_end", owner: "tool", scope: "tool_call", phase: "completed", threadId: "t" };
  const state = { events: [event], ...indexAgentUiProjectionEvents([event]) };
  assert.equal(selectAgentUiProjectionEventsFromStore(state), state.events);
  assert.equal(selectAgentUiProjectionEventsForScopeFromStore(state, { threadId: "" }), state.events);
  assert.notEqual(selectAgentUiProjectionEventsForScopeFromStore(state, { threadId: "t" }), state.events);
  const previous = indexAgentUiProjectionEvents([event]);
  const next = indexAgentUiProjectionEvents([], previous);
  assert.deepStrictEqual(next, previous);
  for (const field of Object.keys(previous)) assert.notEqual(next[field], previous[field], `${field} is a new map`);
  assert.equal(api.summarizeAgentUiProjectionEvents([]), api.EMPTY_AGENT_UI_PROJECTION_SUMMARY);
  assert.equal(api.summarizeAgentUiSubagentsProjectionEvents([event]), api.EMPTY_AGENT_UI_SUBAGENTS_PROJECTION_SUMMARY);
  const roster = { ...event, type: "agent.changed", surface: "team_roster" };
  const [lane] = api.summarizeAgentUiSubagentsSurfaceLanes([roster]);
  assert.equal(lane.surfaces, api.AGENT_UI_SUBAGENTS_SURFACE_LANES[0].surfaces);
});

test("store: its declarations type-check a consumer (tsc --strict)", () => {
  typeCheck(
    `import {
  createAgentUiProjectionEventStore,
  selectAgentUiProjectionEventsByTypeFromStore,
  type AgentUiProjectionEvent,
  type AgentUiProjectionEventStore,
  type AgentUiProjectionEventStoreState,
} from "@limecloud/agent-runtime-projection-wasm";
const store: AgentUiProjectionEventStore = createAgentUiProjectionEventStore();
const event: AgentUiProjectionEvent = { type: "run.started", sourceType: "runtime_status", owner: "runtime", scope: "run", phase: "preparing" };
store.append(event);
store.appendMany(new Set([event]));
const unsubscribe: () => void = store.subscribe(() => undefined);
unsubscribe();
const state: AgentUiProjectionEventStoreState = store.getState();
const same: AgentUiProjectionEvent[] = selectAgentUiProjectionEventsByTypeFromStore(state, "run.started");
const list: readonly AgentUiProjectionEvent[] = store.selectEventsByTypeForScope("run.started", { threadId: "t", runId: null });
const latest: AgentUiProjectionEvent | null = store.selectLatestEventForRun(undefined);
const size: number = store.size;
// @ts-expect-error: a selection is read-only.
store.selectEvents().push(event);
// @ts-expect-error: types are the closed event class union.
store.selectEventsByType("run.bogus");
// @ts-expect-error: size is read-only.
store.size = 3;
void [same, list, latest, size];
`,
  );
});

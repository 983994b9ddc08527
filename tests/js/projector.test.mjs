// The projector's JS-side guarantees: structural sharing, immutability of returned states,
// idempotency, lazy materialization, and clear errors on bad input with the state unchanged.
// Runs on generated streams (no reference data needed).
import assert from "node:assert/strict";
import { test } from "node:test";
import { pkgEntry } from "./reference.mjs";

const api = await import(pkgEntry);

function deepFreeze(value, seen = new Set()) {
  if (value === null || typeof value !== "object" || seen.has(value)) return value;
  seen.add(value);
  Object.freeze(value);
  for (const k of Object.keys(value)) deepFreeze(value[k], seen);
  return value;
}

const STATE_KEYS = [
  "runtime", "messages", "timeline", "graph", "tools", "toolCalls", "mcp", "actions",
  "artifacts", "evidence", "diagnostics", "subagents", "readModel", "hydration", "ephemeralUi",
];

test("long stream: states are immutable, share unchanged subtrees, and equal the batch", () => {
  const events = api.generateRuntimeEvents(3000, 11, { subagentRate: 0.5, actionRate: 0.4, stateDeltaRate: 0.5 });
  const projector = api.createAgentUiProjector({ sourceCount: 2 });
  let prev = deepFreeze(projector.getState());
  const snapshots = [];
  let sharedTopLevel = 0;
  for (let i = 0; i < events.length; i++) {
    const next = projector.apply(events[i]);
    assert.notEqual(next, prev, "an accepted event gives a new state object");
    assert.deepEqual(Object.keys(next), STATE_KEYS);
    // Earlier timeline entries and read-model projections are the same objects.
    for (const key of ["timeline"]) {
      const a = prev[key];
      const b = next[key];
      for (let j = 0; j < a.length - 1; j++) assert.equal(b[j], a[j], `${key}[${j}] shared at event ${i}`);
    }
    for (const key of STATE_KEYS) {
      if (next[key] === prev[key]) sharedTopLevel++;
    }
    deepFreeze(next);
    if (i % 500 === 0) snapshots.push([next, JSON.stringify(next)]);
    prev = next;
  }
  // Most top-level fields are untouched by a typical event.
  assert.ok(sharedTopLevel > events.length * 5, `shared top-level fields: ${sharedTopLevel}`);
  // Earlier states were never modified afterwards.
  for (const [state, text] of snapshots) assert.equal(JSON.stringify(state), text);
  const batch = api.projectAgentUiState({ executionEvents: events, sourceCount: 2 });
  assert.deepStrictEqual(prev, batch);
  assert.equal(JSON.stringify(prev), JSON.stringify(batch), "key order");
});

test("a streamed message, its turn node and a long tool call change in place: every state equals the batch of its prefix", () => {
  // A long text grows by each delta (the patch appends to it) and the turn node's id list by an
  // id (the patch sends the new id); other parts and nodes stay the same objects.
  const events = [
    { id: "t0", sequence: 1, eventClass: "turn.started", kind: "turn", status: "running", turnId: "turn1", createdAt: "2026-07-01T09:00:00.000Z" },
    { id: "r0", sequence: 2, eventClass: "reasoning.delta", kind: "reasoning", status: "running", turnId: "turn1", payload: { text: "thinking about it first" } },
  ];
  for (let i = 1; i <= 120; i++) {
    events.push({
      id: `d${i}`, sequence: i + 2, eventClass: "model.delta", kind: "message", status: "running", turnId: "turn1",
      messageId: "m1", payload: { text: `token${i} ${i % 7 === 0 ? "\u0000x " : ""}and more words ` },
    });
  }
  events.push({ id: "done", sequence: 200, eventClass: "model.completed", kind: "message", status: "completed", turnId: "turn1", messageId: "m1" });
  // A long tool call: its event lists grow by an event (the patch sends that event).
  events.push({ id: "ts", sequence: 201, eventClass: "tool.started", kind: "tool", status: "running", turnId: "turn1", toolCallId: "call1", title: "Search" });
  for (let i = 1; i <= 30; i++) {
    events.push({ id: `tp${i}`, sequence: 201 + i, eventClass: "tool.progress", kind: "tool", status: "running", turnId: "turn1", toolCallId: "call1", payload: { progress: i, total: 30 } });
  }
  events.push({ id: "tr", sequence: 240, eventClass: "tool.result", kind: "tool", status: "completed", turnId: "turn1", toolCallId: "call1", detail: "found" });
  const projector = api.createAgentUiProjector();
  let prev = deepFreeze(projector.getState());
  for (let i = 0; i < events.length; i++) {
    const next = deepFreeze(projector.apply(events[i]));
    const batch = api.projectAgentUiState({ executionEvents: events.slice(0, i + 1) });
    assert.deepStrictEqual(next, batch, `after event ${i}`);
    // Keys in the same order too (a patch that adds a key puts it where the batch has it).
    assert.equal(JSON.stringify(next), JSON.stringify(batch), `key order after event ${i}`);
    if (i >= 2) assert.equal(next.messages[0], prev.messages[0], `the reasoning part is shared at event ${i}`);
    prev = next;
  }
  assert.ok(prev.messages.some((part) => typeof part.text === "string" && part.text.length > 2000), "the text grew long");
  assert.equal(prev.toolCalls.calls[0].events.length, 32);
});

test("fresh projectors: each its own initial state, equal to the batch of no events, whatever the source count", () => {
  for (const sourceCount of [undefined, 0, -0, 3, 3, undefined]) {
    const input = sourceCount === undefined ? undefined : { sourceCount };
    const a = api.createAgentUiProjector(input);
    const b = api.createAgentUiProjector(input);
    const empty = api.projectAgentUiState({ executionEvents: [], sourceCount });
    assert.deepStrictEqual(a.getState(), empty);
    assert.deepStrictEqual(b.getState(), empty);
    assert.ok(b.getState().readModel.sourceCount === (sourceCount ?? 0));
    assert.notEqual(a.getState(), b.getState(), "no state object is shared between projectors");
    assert.notEqual(a.getState().messages, b.getState().messages);
    // The second projector goes on from its initial state as the first does.
    const events = api.generateRuntimeEvents(40, 5);
    for (const e of events) b.apply(e);
    assert.deepStrictEqual(b.getState(), api.projectAgentUiState({ executionEvents: events, sourceCount }));
    // What one projector's caller does to its state reaches no later projector's.
    a.getState().readModel.artifactRefs.push("mutated");
    a.getState().runtime.status = "mutated";
    const c = api.createAgentUiProjector(input);
    assert.deepStrictEqual(c.getState(), empty);
    a.free();
    b.free();
    c.free();
  }
  // A source count the read model keeps as given, with an own `__proto__` key, in every copy.
  const sourceCount = JSON.parse('{"__proto__": {"n": 1}, "k": [1]}');
  const first = api.createAgentUiProjector({ sourceCount }).getState().readModel.sourceCount;
  const second = api.createAgentUiProjector({ sourceCount }).getState().readModel.sourceCount;
  for (const copy of [first, second]) {
    assert.deepStrictEqual(Object.keys(copy), ["__proto__", "k"]);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  }
  assert.notEqual(first, second);
});

test("a batch of no events: the module's state for its source count, a fresh copy each time", () => {
  // Source counts no other test uses: the first batch of each is the module's own projection,
  // the later ones copies of it.
  for (const sourceCount of [undefined, 7.25, "seven", { n: [7] }]) {
    const input = { executionEvents: [], sourceCount };
    const made = api.projectAgentUiState(input);
    const copy = api.projectAgentUiState(input);
    assert.deepStrictEqual(copy, made);
    assert.deepStrictEqual(Object.keys(copy), STATE_KEYS);
    for (const key of STATE_KEYS) {
      const value = copy[key];
      // The empty tool and MCP surfaces are shared (as the reference shares them); every
      // other object is the caller's own.
      if (key === "toolCalls" || key === "mcp") assert.equal(value, made[key], key);
      else if (value !== null && typeof value === "object") assert.notEqual(value, made[key], key);
    }
    // What a caller does to one state reaches no later one.
    made.readModel.artifactRefs.push("mutated");
    made.runtime.status = "mutated";
    made.hydration.eventCount = 99;
    assert.deepStrictEqual(api.projectAgentUiState(input), copy);
    // The same as a projector's state of no events.
    assert.deepStrictEqual(api.createAgentUiProjector({ sourceCount }).getState(), copy);
  }
});

test("idempotency: a seen id and getState() return the previous object", () => {
  const events = api.generateRuntimeEvents(200, 3);
  const projector = api.createAgentUiProjector();
  const state = projector.applyMany(events);
  assert.equal(projector.getState(), state);
  assert.equal(projector.apply(events[5]), state);
  assert.equal(projector.applyMany(events.slice(0, 50)), state);
  assert.equal(projector.getState(), state);
});

test("applyMany equals apply one by one and the batch", () => {
  const events = api.generateRuntimeEvents(600, 9, { toolFailureRate: 0.3 });
  const a = api.createAgentUiProjector();
  a.applyMany(events.slice(0, 250));
  const viaMany = a.applyMany(events.slice(250));
  const b = api.createAgentUiProjector();
  let viaOne;
  for (const e of events) viaOne = b.apply(e);
  assert.deepStrictEqual(viaMany, viaOne);
  assert.deepStrictEqual(viaMany, api.project(events));
  assert.deepStrictEqual(api.project({ executionEvents: events }), api.projectAgentUiState({ executionEvents: events }));
});

test("createProjector: apply returns a change summary; getState materializes lazily", () => {
  const events = api.generateRuntimeEvents(300, 4);
  const projector = api.createProjector();
  for (const e of events.slice(0, 100)) {
    const change = projector.apply(e);
    assert.equal(change.accepted, true);
  }
  assert.deepEqual(projector.apply(events[0]), { accepted: false, eventCount: 100 });
  const s1 = projector.getState();
  assert.equal(projector.getState(), s1);
  assert.deepEqual(projector.applyMany(events.slice(100)), { accepted: 200, eventCount: 300 });
  const s2 = projector.getState();
  assert.notEqual(s2, s1);
  assert.equal(s2.hydration.eventCount, 300);
  assert.deepStrictEqual(s2, api.projectAgentUiState({ executionEvents: events }));
  projector.free();
});

test("hydrate and reset", () => {
  const events = api.generateRuntimeEvents(120, 2);
  const projector = api.createAgentUiProjector({ executionEvents: events.slice(0, 10), sourceCount: 4 });
  assert.deepStrictEqual(projector.getState(), api.projectAgentUiState({ executionEvents: events.slice(0, 10), sourceCount: 4 }));
  const withDuplicates = [...events, ...events.slice(0, 30)];
  const hydrated = projector.hydrate({ executionEvents: withDuplicates, sourceCount: 1 });
  assert.deepStrictEqual(hydrated, api.projectAgentUiState({ executionEvents: events, sourceCount: 1 }));
  hydrated.readModel.events.forEach((p, i) => assert.equal(p.source, events[i]));
  const empty = projector.reset();
  assert.deepStrictEqual(empty, api.projectAgentUiState());
  assert.equal(empty.hydration.eventCount, 0);
  const after = projector.apply(events[0]);
  assert.equal(after.readModel.events[0].source, events[0]);
});

test("bad input: TypeError with a clear message, state unchanged", () => {
  const events = api.generateRuntimeEvents(20, 1);
  const cyclic = { ...events[10] };
  cyclic.self = cyclic;
  const getter = { ...events[10] };
  Object.defineProperty(getter, "payload", { enumerable: true, get() { throw new Error("boom"); } });
  // What cannot be carried is refused in both modes; strict mode also refuses events outside its
  // boundary, which the default projects as the reference does.
  const uncarryable = [undefined, null, 5, "text", [], [events[10]], cyclic, { ...events[10], big: 1n }, getter];
  const outsideStrict = [{ ...events[10], id: "" }, { ...events[10], id: 7 }, { kind: "tool" }, { ...events[10], refIds: "x" }];
  for (const [strict, bad] of [[false, uncarryable], [true, [...uncarryable, ...outsideStrict]]]) {
    const projector = api.createAgentUiProjector(undefined, { strict });
    const state = projector.applyMany(events.slice(0, 10));
    for (const input of bad) {
      assert.throws(() => projector.apply(input), (error) => {
        assert.ok(error instanceof TypeError, `TypeError for ${String(input)}`);
        assert.match(error.message, /createAgentUiProjector\.apply/);
        return true;
      });
      assert.equal(projector.getState(), state, "state unchanged");
    }
    assert.throws(() => projector.applyMany([events[10], null]), TypeError);
    if (strict) assert.throws(() => projector.applyMany([events[10], { ...events[11], id: "" }]), TypeError);
    assert.throws(() => projector.applyMany("nope"), TypeError);
    assert.equal(projector.getState(), state, "a refused applyMany changes nothing");
    assert.throws(() => projector.hydrate({ executionEvents: [null] }), TypeError);
    assert.equal(projector.getState(), state);
    assert.deepStrictEqual(projector.apply(events[10]), api.projectAgentUiState({ executionEvents: events.slice(0, 11) }));
  }
  const lax = api.createAgentUiProjector();
  lax.applyMany(events.slice(0, 10));
  lax.apply({ ...events[10], id: "" });
  lax.apply({ kind: "tool" });
  assert.equal(lax.getState().timeline.length, 12, "the default projects events outside the strict boundary");
  assert.throws(() => api.projectAgentUiState({ executionEvents: [cyclic] }), TypeError);
  assert.throws(() => api.projectAgentUiState({ executionEvents: "x" }), TypeError);
  assert.throws(() => api.project(5), TypeError);
});

test("wire strings: U+0000-prefixed strings survive, the event object is returned as is", () => {
  const [event] = api.generateRuntimeEvents(1, 1);
  const odd = { ...event, title: "\u0000u", detail: "\u0000e0 and more" };
  const state = api.projectAgentUiState({ executionEvents: [odd] });
  assert.equal(state.readModel.events[0].title, "\u0000u");
  assert.equal(state.readModel.events[0].source, odd);
  assert.equal(state.timeline[0].title, "\u0000u");
});

// Odd events through the package (shared/reference/parity/odd): a standard fixture or a generated
// stream with two events edited one way (a field of the wrong type, an unknown class, a missing,
// empty or numeric id). By default the batch and every incremental path give the reference's batch
// state (decided semantics: incremental == batch); where the reference's batch throws, they throw
// a TypeError naming an event. `strict: true` refuses every stream with an event outside the strict
// boundary and projects the others as the default does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeUndefined, hasReference, listReference, pkgEntry, readReference } from "./reference.mjs";

const api = await import(pkgEntry);

const files = hasReference ? listReference("parity", "odd") : [];

test("the odd streams are present", { skip: !hasReference }, () => {
  assert.equal(files.length, 196);
});

// The strict boundary, stated independently of the package: an object with a non-empty string id,
// the model's string fields strings (null allowed), sequence a number, the ref lists arrays of
// strings (null allowed).
const STRING_FIELDS = [
  "kind", "status", "eventClass", "owner", "schemaVersion", "runtimeId", "threadId", "turnId",
  "taskId", "subagentId", "runId", "stepId", "toolCallId", "actionId", "workerId", "channelId",
  "handoffId", "reviewId", "traceId", "spanId", "attemptId", "artifactId", "evidenceId", "phase",
  "title", "detail", "model", "createdAt", "completedAt",
];
const REF_FIELDS = ["refIds", "artifactRefs", "evidenceRefs"];
function outsideStrict(event) {
  if (typeof event.id !== "string" || event.id === "") return true;
  for (const k of STRING_FIELDS) {
    if (k in event && event[k] !== null && typeof event[k] !== "string") return true;
  }
  if ("sequence" in event && event.sequence !== null && typeof event.sequence !== "number") return true;
  for (const k of REF_FIELDS) {
    const v = event[k];
    if (k in event && v !== null && !(Array.isArray(v) && v.every((x) => typeof x === "string"))) return true;
  }
  return false;
}

/** The error `fn` throws, or undefined. */
function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A TypeError whose message names an event (`events[i]`, `event i`, `accepted event i`). */
function assertNamesEvent(error, events, label) {
  assert.ok(error instanceof TypeError, `${label}: a TypeError, got ${error}`);
  const m = /(?:[eE]vents\[(\d+)\]|\bevent (\d+))/.exec(error.message);
  assert.ok(m, `${label}: the message names the event: ${error.message}`);
  const i = Number(m[1] ?? m[2]);
  assert.ok(i >= 0 && i < events.length, `${label}: the named event exists: ${error.message}`);
}

for (const file of files) {
  const data = readReference("parity", "odd", file);
  const input = data.input;
  const events = input.executionEvents;
  const name = data.name;

  if (data.batchState !== undefined) {
    const batch = decodeUndefined(data.batchState);

    test(`${name}: projectAgentUiState == the reference's batch state`, () => {
      assert.deepStrictEqual(api.projectAgentUiState(input), batch);
    });

    test(`${name}: createAgentUiProjector().apply one by one == the batch state`, () => {
      const projector = api.createAgentUiProjector({ sourceCount: input.sourceCount });
      for (let i = 0; i < events.length; i++) {
        // The state in between is the batch state of the events so far: unreadable exactly when
        // the batch of those events throws (a later event decides the runtime status).
        const error = thrown(() => projector.apply(events[i]));
        const prefix = thrown(() => api.projectAgentUiState({ executionEvents: events.slice(0, i + 1) }));
        assert.equal(error === undefined, prefix === undefined, `after event ${i}: ${error ?? prefix}`);
        if (error) assertNamesEvent(error, events, `after event ${i}`);
      }
      assert.deepStrictEqual(projector.getState(), batch);
      assert.equal(projector.getState(), projector.getState());
    });

    test(`${name}: applyMany, hydrate and the lean projector == the batch state`, () => {
      assert.deepStrictEqual(api.createAgentUiProjector().applyMany(events), batch);
      assert.deepStrictEqual(api.createAgentUiProjector().hydrate(input), batch);
      const lean = api.createProjector();
      for (const event of events) assert.equal(lean.apply(event).accepted, true);
      assert.deepStrictEqual(lean.getState(), batch);
      assert.deepStrictEqual(api.createAgentUiProjector(input).getState(), batch);
    });
  } else {
    test(`${name}: the batch throws a TypeError naming the event (the reference's batch throws)`, () => {
      assertNamesEvent(thrown(() => api.projectAgentUiState(input)), events, "projectAgentUiState");
      assertNamesEvent(thrown(() => api.project(events)), events, "project");
    });

    test(`${name}: the projectors throw a TypeError naming the event`, () => {
      const projector = api.createAgentUiProjector();
      let error;
      for (const event of events) error ??= thrown(() => projector.apply(event));
      error ??= thrown(() => projector.getState());
      assertNamesEvent(error, events, "apply");
      assertNamesEvent(thrown(() => api.createAgentUiProjector().applyMany(events)), events, "applyMany");
      // hydrate refuses all or nothing when an event is refused (the projector keeps what it
      // had); when it takes the events and the state is what cannot be read, reading it throws.
      const hydrated = api.createAgentUiProjector();
      const before = hydrated.getState();
      const h = thrown(() => hydrated.hydrate(input));
      assertNamesEvent(h, events, "hydrate");
      if (/accepted event \d+/.test(h.message)) {
        assertNamesEvent(thrown(() => hydrated.getState()), events, "getState after hydrate");
      } else {
        assert.equal(hydrated.getState(), before);
      }
    });
  }

  test(`${name}: strict: true refuses it when an event is outside the strict boundary`, () => {
    const first = events.findIndex(outsideStrict);
    const strict = () => api.projectAgentUiState(input, { strict: true });
    if (first >= 0) {
      const error = thrown(strict);
      assert.ok(error instanceof TypeError, `${error}`);
      assert.match(error.message, new RegExp(`events\\[${first}\\]: `));
      const p = api.createAgentUiProjector(undefined, { strict: true });
      const before = p.getState();
      events.slice(0, first).forEach((e) => p.apply(e));
      const mid = p.getState();
      assert.throws(() => p.apply(events[first]), TypeError);
      assert.equal(p.getState(), mid, "a refused event changes nothing");
      assert.throws(() => api.createAgentUiProjector(undefined, { strict: true }).hydrate(input), TypeError);
      assert.throws(() => api.projectAgentUiState({ ...input, strict: true }), TypeError);
      assert.ok(before);
    } else {
      const error = thrown(() => api.projectAgentUiState(input));
      if (error) assert.throws(strict, TypeError);
      else assert.deepStrictEqual(strict(), api.projectAgentUiState(input));
    }
  });
}

test("only what cannot be carried is refused, naming the event; nothing projected is lost", () => {
  const base = { id: "a", kind: "model", eventClass: "model.delta", status: "running", title: "t", createdAt: "c" };
  const cyclic = { ...base, id: "cyc" };
  cyclic.self = cyclic;
  let deep = { leaf: 1 };
  for (let i = 0; i < 70; i++) deep = { a: deep };
  // Nested past what the module's JSON reader takes (128 levels): still named as its event.
  let deeper = { leaf: 1 };
  for (let i = 0; i < 300; i++) deeper = { a: deeper };
  for (const [bad, pattern] of [
    [null, /events\[1\]: Runtime event must be an object/],
    [7, /events\[1\]: Runtime event must be an object/],
    [[base], /events\[1\]: Runtime event must be an object/],
    [{ ...base, id: "deep", payload: deep }, /events\[1\]: Runtime event nesting exceeds the limit of 64 levels/],
    [{ ...base, id: "deeper", payload: deeper }, /events\[1\]: Runtime event nesting exceeds the limit of 64 levels/],
    [cyclic, /[eE]vents\[1\] cannot be serialized to JSON/],
    [{ ...base, id: "big", n: 1n }, /[eE]vents\[1\] cannot be serialized to JSON/],
  ]) {
    const list = [base, bad, { ...base, id: "b" }];
    assert.throws(() => api.projectAgentUiState({ executionEvents: list }), pattern);
    const p = api.createAgentUiProjector();
    p.apply({ ...base, id: "kept" });
    const before = p.getState();
    assert.throws(() => p.applyMany(list), (e) => e instanceof TypeError && pattern.test(e.message));
    assert.equal(p.getState(), before, "a list with an event that cannot be carried applies nothing");
    assert.throws(() => p.hydrate({ executionEvents: list }), TypeError);
    assert.equal(p.getState(), before);
    if (bad && typeof bad === "object" && !Array.isArray(bad) && bad !== cyclic && !("n" in bad)) {
      assert.throws(() => p.apply(bad), /apply: .*(must be an object|nesting exceeds the limit of 64 levels)/);
      assert.equal(p.getState(), before);
    }
  }
  // Wrong-typed fields, missing and numeric ids are projected.
  const status = { ...base, kind: "state", eventClass: "run.status" };
  const odd = [
    { ...status, id: undefined },
    { ...status, id: 42, title: 7 },
    { ...status, id: 42, createdAt: 5 },
    { ...status, id: "" },
  ];
  const state = api.projectAgentUiState({ executionEvents: odd });
  assert.equal(state.timeline.length, 4, "events without a non-empty string id are all projected");
  assert.deepStrictEqual(state.timeline.map((t) => t.entryId), [undefined, 42, 42, ""]);
  const p = api.createProjector();
  for (const e of odd) assert.equal(p.apply(e).accepted, true);
  assert.deepStrictEqual(p.getState(), state);
  // String ids still deduplicate, first wins, in every path.
  const dup = [{ ...base, id: "x", title: "first" }, { ...base, id: "x", title: "second" }];
  const once = api.projectAgentUiState({ executionEvents: dup.slice(0, 1) });
  assert.deepStrictEqual(api.projectAgentUiState({ executionEvents: dup }), once);
  assert.deepStrictEqual(api.createAgentUiProjector().applyMany(dup), once);
  assert.deepStrictEqual(api.createAgentUiProjector().hydrate({ executionEvents: dup }), once);
  const h = api.createProjector();
  assert.deepStrictEqual(h.hydrate({ executionEvents: dup }), { accepted: 1, eventCount: 1 });
});

test("applyMany stops at an event the reference throws on; the events before it stay applied", () => {
  const base = { kind: "tool", eventClass: "tool.started", status: "running", createdAt: "c", toolCallId: "t" };
  const good = { ...base, id: "g1", title: "Search" };
  const bad = { ...base, id: "bad", eventClass: 7, title: "x" };
  const after = { ...base, id: "g2", title: "Search" };
  const p = api.createAgentUiProjector();
  const error = thrown(() => p.applyMany([good, bad, after]));
  assert.ok(error instanceof TypeError);
  assert.match(error.message, /applyMany: events\[1\] \(id "bad"\): /);
  assert.deepStrictEqual(p.getState(), api.projectAgentUiState({ executionEvents: [good] }));
  assert.equal(p.getState().readModel.events[0].source, good);
  p.apply(after);
  assert.deepStrictEqual(p.getState(), api.projectAgentUiState({ executionEvents: [good, after] }));
});

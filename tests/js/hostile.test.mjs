// Hostile and broken input through the built package (pkg/): never trap, never lose state,
// never leak, never pollute a prototype. Run: node --test tests/js/  (after scripts/build-pkg.sh)
import assert from "node:assert/strict";
import { test } from "node:test";
import { pkgEntry } from "./reference.mjs";

const api = await import(pkgEntry);

// ---------------------------------------------------------------------------------------------
// Helpers

/** Deterministic PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = {
  schemaVersion: "lime-runtime-event/v0.1",
  runtimeId: "runtime_h",
  threadId: "thread_h",
  turnId: "turn_h",
  kind: "tool",
  status: "running",
  title: "T",
  createdAt: "2026-06-10T00:00:00.000Z",
};

/** An event parsed from JSON text, so `__proto__` members are own data properties. */
function parsedEvent(fields, rawMembers = "") {
  const text = JSON.stringify({ ...BASE, ...fields });
  return JSON.parse(rawMembers ? `${text.slice(0, -1)},${rawMembers}}` : text);
}

const POISON = `{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"prototype":{"polluted":1}}`;

function assertNoPollution() {
  assert.equal({}.polluted, undefined, "Object.prototype polluted");
  assert.equal([].polluted, undefined, "Array.prototype polluted");
  assert.equal(Object.prototype.polluted, undefined);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
  assert.equal(typeof Object.prototype.constructor, "function");
  assert.equal(Object.prototype.constructor, Object);
}

/**
 * Every object reachable from `root` (iteratively, shared subtrees once) has the plain
 * prototype it was made with: Object.prototype for objects, Array.prototype for arrays.
 * Returns the number of own `__proto__` data properties seen.
 */
function assertPlainPrototypes(root, where) {
  const seen = new Set();
  const stack = [root];
  let ownProto = 0;
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== "object" || x === null || seen.has(x)) continue;
    seen.add(x);
    const proto = Object.getPrototypeOf(x);
    const expected = Array.isArray(x) ? Array.prototype : Object.prototype;
    assert.ok(proto === expected, `${where}: an object has a foreign prototype`);
    for (const k of Object.keys(x)) {
      if (k === "__proto__") ownProto++;
      const d = Object.getOwnPropertyDescriptor(x, k);
      assert.ok(d && "value" in d, `${where}: key ${k} is not an own data property`);
      stack.push(d.value);
    }
  }
  return ownProto;
}

/** The class of an error thrown by `fn`, or null when it returns. Never a wasm trap. */
function outcome(fn, where) {
  try {
    fn();
    return null;
  } catch (error) {
    assert.ok(error instanceof Error, `${where}: threw a non-Error ${String(error)}`);
    assert.ok(!(error instanceof WebAssembly.RuntimeError), `${where}: wasm trap: ${error.message}`);
    assert.doesNotMatch(error.message, /unreachable|recursive use of an object|null pointer/, where);
    assert.ok(error.message.length > 0, `${where}: empty error message`);
    return error;
  }
}

function cyclic() {
  const o = { id: "cyc", eventClass: "tool.started" };
  o.self = o;
  return o;
}

function throwingGetter() {
  return {
    id: "getter",
    get payload() {
      throw new Error("getter says no");
    },
  };
}

const BAD_VALUES = () => [
  ["undefined", undefined],
  ["null", null],
  ["number", 42],
  ["NaN", NaN],
  ["string", "not an event"],
  ["empty array", []],
  ["array of junk", [1, "x", null]],
  ["cyclic object", cyclic()],
  ["BigInt", 10n],
  ["object with BigInt", { id: "b", sequence: 10n }],
  ["throwing getter", throwingGetter()],
  ["symbol", Symbol("s")],
  ["function", () => 1],
  ["proxy that throws", new Proxy({}, { ownKeys() { throw new Error("trap says no"); } })],
  ["toJSON returning a number", { id: "j", toJSON: () => 5 }],
];

const goodEvents = api.generateRuntimeEvents(240, 11);

// ---------------------------------------------------------------------------------------------
// Prototype safety

function hostileEvents() {
  const events = [];
  events.push(parsedEvent({ id: "__proto__", eventClass: "tool.started", toolCallId: "__proto__" }, `"payload":${POISON}`));
  events.push(parsedEvent({ id: "constructor", eventClass: "tool.result", toolCallId: "__proto__", status: "completed" }, `"payload":{"result":${POISON},"metadata":${POISON}}`));
  events.push(parsedEvent({ id: "prototype", eventClass: "tool.started", toolCallId: "constructor" }, `"payload":{"arguments":${POISON}}`));
  events.push(
    parsedEvent(
      { id: "sub1", kind: "subagent", eventClass: "subagent.started", subagentId: "__proto__", taskId: "constructor" },
      `"payload":{"collaborationFacts":${POISON},"metadata":{"collaborationFacts":${POISON}},"__proto__":{"polluted":1}}`,
    ),
  );
  events.push(
    parsedEvent(
      { id: "art1", kind: "draft", eventClass: "artifact.changed", artifactId: "__proto__", artifactRefs: ["__proto__", "constructor"] },
      `"payload":{"metadata":${POISON}}`,
    ),
  );
  events.push(
    parsedEvent(
      { id: "act1", kind: "action", eventClass: "action.required", actionId: "__proto__" },
      `"payload":${POISON}`,
    ),
  );
  events.push(
    parsedEvent(
      { id: "delta1", kind: "state", eventClass: "state.delta", status: "completed" },
      `"payload":{"target":"projection","patch":[` +
        `{"op":"add","path":"/ephemeralUi/__proto__","value":{"polluted":1}},` +
        `{"op":"add","path":"/ephemeralUi/__proto__/polluted","value":2},` +
        `{"op":"add","path":"/ephemeralUi/constructor","value":{"prototype":{"polluted":3}}},` +
        `{"op":"add","path":"/ephemeralUi/prototype","value":${POISON}}]}`,
    ),
  );
  events.push(parsedEvent({ id: "msg1", kind: "model", eventClass: "model.delta", status: "running" }, `"payload":{"delta":"\\u0000e0","text":"\\u0000u"}`));
  return events;
}

test("lone surrogates (a string cut inside a UTF-16 pair) project as U+FFFD instead of being refused", () => {
  const events = [{ id: "t0", sequence: 1, eventClass: "turn.started", kind: "turn", status: "running", turnId: "turn1", title: "cut \ud83d" }];
  for (let i = 1; i <= 6; i++) {
    events.push({
      id: `d${i}`, sequence: i + 1, eventClass: "model.delta", kind: "message", status: "running", turnId: "turn1",
      messageId: "m1", payload: { text: `token${i} and enough words for a long text ${i === 3 ? "\udc00" : ""}x \\ud800 ` },
    });
  }
  const batch = api.projectAgentUiState({ executionEvents: events });
  assert.equal(batch.graph[0].title, "cut \ufffd");
  const text = batch.messages[0].text;
  assert.ok(text.includes("text \ufffdx"), text);
  // A backslash followed by "ud800" is text, not an escape.
  assert.ok(text.includes("x \\ud800 token2"), text);
  const projector = api.createAgentUiProjector();
  for (const event of events) projector.apply(event);
  assert.deepStrictEqual(projector.getState(), batch);
  assert.deepStrictEqual(api.collectRuntimeEventsValidationIssues(events), api.collectRuntimeEventsValidationIssues(events.map((e) => ({ ...e, title: e.title?.replace("\ud83d", "\ufffd") }))));
});

test("prototype-named ids and keys stay own data properties through every export", () => {
  const events = hostileEvents();
  const where = [];
  const check = (name, value) => {
    where.push(name);
    assertPlainPrototypes(value, name);
    assertNoPollution();
  };

  const batch = api.projectAgentUiState({ executionEvents: events });
  check("projectAgentUiState", batch);
  assert.equal(Object.getPrototypeOf(batch.ephemeralUi), Object.prototype);
  assert.ok(Object.hasOwn(batch.ephemeralUi, "__proto__"), "ephemeralUi.__proto__ is an own key");
  assert.deepEqual(Object.keys(batch.ephemeralUi), ["__proto__", "constructor", "prototype"]);
  assert.equal(batch.ephemeralUi.__proto__.polluted, 2);
  assert.equal(batch.ephemeralUi.constructor.prototype.polluted, 3);
  // Strings that look like the wire escapes come back as the same strings.
  const sources = batch.readModel.events.map((e) => e.source);
  assert.ok(sources.every((s, i) => s === events[i]), "sources are the caller's objects");
  assert.ok(JSON.stringify(batch).includes(JSON.stringify("\u0000e0")));

  const p = api.createAgentUiProjector();
  for (const e of events) check("projector.apply", p.apply(e));
  assert.deepStrictEqual(p.getState(), batch);

  const q = api.createAgentUiProjector();
  check("projector.applyMany", q.applyMany(events));
  check("projector.hydrate", q.hydrate({ executionEvents: events }));
  assert.deepStrictEqual(q.getState(), batch);
  check("createAgentUiProjector(initial)", api.createAgentUiProjector({ executionEvents: events }).getState());

  const lean = api.createProjector();
  lean.applyMany(events);
  check("createProjector.getState", lean.getState());

  const fixture = JSON.parse(JSON.stringify(api.getAgentUiFixture(api.agentUiConformanceFixtures[0].id)));
  fixture.events = [...fixture.events, ...JSON.parse(JSON.stringify(events, (k, v) => v))];
  // JSON.stringify drops nothing here; re-parse so __proto__ stays own.
  const fixtureText = JSON.stringify(fixture).replace('"events":[', `"events":[`);
  check("replayAgentUiFixture", api.replayAgentUiFixture(JSON.parse(fixtureText)));
  check("projectAgentRuntimeReadModel", api.projectAgentRuntimeReadModel({ executionEvents: events }));
  check("projectAgentUiStateFromSessionSnapshot", api.projectAgentUiStateFromSessionSnapshot({ executionEvents: events }));
  check("buildAgentUiSubagentsModel", api.buildAgentUiSubagentsModel(events));
  check("verifyRuntimeEventSequence", api.verifyRuntimeEventSequence(events));
  const verifier = api.createRuntimeSequenceVerifier();
  for (const e of events) check("sequenceVerifier.push", verifier.push(e));
  check("sequenceVerifier.finalize", verifier.finalize());
  for (const e of events) {
    check("normalizeRuntimeEvent", api.normalizeRuntimeEvent(e));
    check("collectRuntimeEventValidationIssues", api.collectRuntimeEventValidationIssues(e));
  }
  const poison = JSON.parse(POISON);
  check("collectThreadReadModelValidationIssues", api.collectThreadReadModelValidationIssues(poison));
  check("collectProjectionStateValidationIssues", api.collectProjectionStateValidationIssues(poison));
  check("collectAgentUiFixtureValidationIssues", api.collectAgentUiFixtureValidationIssues(poison));
  check("collectRuntimeCapabilityManifestValidationIssues", api.collectRuntimeCapabilityManifestValidationIssues(poison));
  check("collectProjectionStateValidationIssues(state)", api.collectProjectionStateValidationIssues(batch));
  const normalized = api.normalizeRuntimeEvent(events[0]);
  assert.ok(Object.hasOwn(normalized.payload, "__proto__"));
  assert.equal(Object.getPrototypeOf(normalized.payload), Object.prototype);
  assert.ok(where.length > 20);
});

test("incremental patches keep __proto__ keys own (patch applier and decoder)", () => {
  const p = api.createAgentUiProjector();
  const before = p.getState();
  const delta = (id, patch) =>
    parsedEvent({ id, kind: "state", eventClass: "state.delta", status: "completed" }, `"payload":{"target":"projection","patch":${patch}}`);
  const s1 = p.apply(delta("pd1", `[{"op":"add","path":"/ephemeralUi/__proto__","value":{"polluted":1}}]`));
  const s2 = p.apply(delta("pd2", `[{"op":"add","path":"/ephemeralUi/__proto__/polluted","value":2}]`));
  const s3 = p.apply(delta("pd3", `[{"op":"replace","path":"/ephemeralUi/__proto__","value":${POISON}}]`));
  for (const s of [s1, s2, s3]) {
    assertPlainPrototypes(s, "patched state");
    assert.ok(Object.hasOwn(s.ephemeralUi, "__proto__"));
  }
  assert.equal(s2.ephemeralUi.__proto__.polluted, 2);
  assert.equal(s1.ephemeralUi.__proto__.polluted, 1, "an earlier state is never mutated");
  assert.deepEqual(before.ephemeralUi, {});
  assertNoPollution();
});

// ---------------------------------------------------------------------------------------------
// Bad calls: a clear JS Error, never a trap; the projector's state unchanged

test("every export called with bad arguments throws a clear Error or answers, never traps", () => {
  const reference = api.projectAgentUiState({ executionEvents: goodEvents.slice(0, 60) });
  const fns = Object.entries(api).filter(([, f]) => typeof f === "function" && !/^[A-Z]/.test(f.name ?? ""));
  assert.ok(fns.length >= 30, `found ${fns.length} exported functions`);
  let threw = 0;
  let answered = 0;
  for (const [name, fn] of fns) {
    if (name === "AgentUiContractValidationError") continue;
    for (const [label, bad] of BAD_VALUES()) {
      const e = outcome(() => fn(bad), `${name}(${label})`);
      if (e) threw++;
      else answered++;
      for (const [label2, bad2] of [["null", null], ["cyclic", cyclic()]]) {
        outcome(() => fn(bad, bad2), `${name}(${label}, ${label2})`);
      }
    }
  }
  assert.ok(threw > 50 && answered > 50, `threw ${threw}, answered ${answered}`);
  // The module is still alive and gives the same answer.
  assert.deepStrictEqual(api.projectAgentUiState({ executionEvents: goodEvents.slice(0, 60) }), reference);
  assertNoPollution();
});

test("projector methods refuse bad input with a TypeError and keep their state", () => {
  for (const make of [api.createAgentUiProjector, api.createProjector]) {
    const p = make();
    p.applyMany(goodEvents.slice(0, 40));
    let state = p.getState();
    const snapshot = structuredClone(JSON.parse(JSON.stringify(state)));
    for (const [label, bad] of BAD_VALUES()) {
      for (const method of ["apply", "applyMany", "hydrate"]) {
        if (method === "hydrate" && (bad === undefined || bad === null)) continue; // "hydrate nothing" is a reset
        const e = outcome(() => p[method](bad), `${make.name}.${method}(${label})`);
        // A value that serializes to a well-formed event list/object may be accepted: only
        // refusals are checked for "state unchanged".
        if (e) {
          assert.ok(e instanceof TypeError, `${method}(${label}): ${e.constructor.name} ${e.message}`);
          assert.equal(p.getState(), state, `${method}(${label}) changed the state object`);
        } else if (method === "hydrate") {
          // An object without executionEvents hydrates to the empty state (documented); put
          // the events back for the next round.
          assert.equal(p.getState().readModel.events.length, 0, `hydrate(${label})`);
          p.hydrate({ executionEvents: goodEvents.slice(0, 40) });
          state = p.getState();
        } else {
          // Only an empty list is a valid no-op here.
          assert.deepEqual(bad, [], `${method}(${label}) was accepted`);
          assert.equal(p.getState(), state, `${method}(${label}) changed the state object`);
        }
      }
    }
    assert.deepStrictEqual(JSON.parse(JSON.stringify(p.getState())), snapshot);
    // Still usable.
    p.applyMany(goodEvents.slice(40, 60));
    const clean = api.projectAgentUiState({ executionEvents: goodEvents.slice(0, 60) });
    assert.deepStrictEqual(p.getState(), clean);
  }
});

// ---------------------------------------------------------------------------------------------
// 10,000 malformed events between good ones

function malformed(r, nextGoodId) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const id = r() < 0.4 ? nextGoodId : `bad_${Math.floor(r() * 1e9)}`;
  const deep = () => {
    let v = { leaf: 1 };
    for (let i = 0; i < 70; i++) v = { v };
    return v;
  };
  switch (Math.floor(r() * 12)) {
    case 0:
      return pick([null, 5, "event", true, [], [{ id }], undefined]);
    case 1:
      return { ...BASE, id: pick(["", 5, null, {}, [], true]), eventClass: "tool.started" };
    case 2:
      return { ...BASE, eventClass: "tool.started" }; // no id
    case 3:
      return { ...BASE, id, [pick(["kind", "status", "eventClass", "turnId", "toolCallId", "createdAt", "title"])]: pick([5, {}, [], true]) };
    case 4:
      return { ...BASE, id, sequence: pick(["1", {}, [], true]) };
    case 5:
      return { ...BASE, id, [pick(["refIds", "artifactRefs", "evidenceRefs"])]: pick(["x", [1], [null], {}, [["a"]]]) };
    case 6:
      return { ...BASE, id, eventClass: "model.delta", payload: deep() };
    case 7: {
      const o = { ...BASE, id, payload: {} };
      o.payload.self = o;
      return o;
    }
    case 8:
      return { ...BASE, id, payload: { n: BigInt(Math.floor(r() * 100)) } };
    case 9:
      return {
        ...BASE,
        id,
        get payload() {
          throw new Error("no payload for you");
        },
      };
    case 10:
      return { ...BASE, id, toJSON: () => pick([5, "x", null, [1]]) };
    default:
      return { ...BASE, id, refIds: ["ok", 7] };
  }
}

/** The malformed events that cannot be carried at all (refused in both modes). */
function uncarryable(r) {
  for (;;) {
    const bad = malformed(r, "never");
    if (bad === null || typeof bad !== "object" || Array.isArray(bad)) return bad;
    if ("toJSON" in bad || Object.getOwnPropertyDescriptor(bad, "payload")?.get) return bad;
    const p = bad.payload;
    if (p && typeof p === "object" && ("self" in p || "n" in p || "v" in p)) return bad;
  }
}

for (const strict of [true, false]) {
  test(`10,000 ${strict ? "malformed events (strict)" : "events that cannot be carried"} between good ones leave exactly the good ones' state`, () => {
    const r = rng(20261130);
    const good = goodEvents;
    const p = api.createAgentUiProjector(undefined, { strict });
    const lean = api.createProjector(undefined, { strict });
    let refused = 0;
    let gi = 0;
    for (let i = 0; i < 10_000; i++) {
      if (i % 42 === 0 && gi < good.length) {
        p.apply(good[gi]);
        lean.apply(good[gi]);
        gi++;
      }
      const bad = strict ? malformed(r, good[Math.min(gi, good.length - 1)].id) : uncarryable(r);
      const e1 = outcome(() => p.apply(bad), `apply(malformed #${i})`);
      const e2 = outcome(() => lean.apply(bad), `lean.apply(malformed #${i})`);
      if (!(e1 && e2)) assert.fail(`malformed #${i} was accepted: ${Object.keys(bad ?? {}).join(",")}`);
      refused++;
      if (i % 97 === 0) {
        outcome(() => p.applyMany([good[0], bad]), "applyMany with one malformed event");
        p.getState();
      }
    }
    for (; gi < good.length; gi++) {
      p.apply(good[gi]);
      lean.apply(good[gi]);
    }
    const clean = api.createAgentUiProjector();
    for (const e of good) clean.apply(e);
    assert.equal(refused, 10_000);
    assert.deepStrictEqual(p.getState(), clean.getState());
    assert.deepStrictEqual(lean.getState(), clean.getState());
    assert.deepStrictEqual(p.getState(), api.projectAgentUiState({ executionEvents: good }));
    assertNoPollution();
  });
}

// ---------------------------------------------------------------------------------------------
// Partial failure: what one bad event inside a batch does (documented in docs/limits.md)

test("one malformed event in applyMany / project (strict): thrown TypeError naming its index, nothing applied", () => {
  const [g1, g2, g3] = goodEvents;
  const bad = { ...BASE, id: "bad", kind: 7 };
  const strict = { strict: true };
  const p = api.createAgentUiProjector(undefined, strict);
  p.apply(g1);
  const before = p.getState();
  const err = outcome(() => p.applyMany([g2, bad, g3]), "applyMany");
  assert.ok(err instanceof TypeError);
  assert.match(err.message, /applyMany: events\[1\]: Runtime event field 'kind' must be a string\./);
  assert.equal(p.getState(), before, "all-or-nothing: the good events of a refused batch are not applied");
  // The caller keeps its good events: retrying without the bad one applies them.
  p.applyMany([g2, g3]);
  assert.deepStrictEqual(p.getState(), api.projectAgentUiState({ executionEvents: [g1, g2, g3] }));

  const lean = api.createProjector(undefined, strict);
  assert.throws(() => lean.applyMany([g1, bad]), TypeError);
  assert.equal(lean.getState().readModel.events.length, 0);

  for (const [name, call] of [
    ["projectAgentUiState", () => api.projectAgentUiState({ executionEvents: [g1, bad, g2] }, strict)],
    ["project", () => api.project([g1, bad, g2], strict)],
    ["projectAgentRuntimeReadModel", () => api.projectAgentRuntimeReadModel({ executionEvents: [g1, bad, g2] }, strict)],
    ["hydrate", () => api.createAgentUiProjector(undefined, strict).hydrate({ executionEvents: [g1, bad, g2] })],
  ]) {
    const e = outcome(call, name);
    assert.ok(e instanceof TypeError, `${name} throws a TypeError`);
    assert.match(e.message, /events\[1\]/, `${name} names the index: ${e.message}`);
  }
  // By default the same event is projected as the reference projects it.
  const lax = api.projectAgentUiState({ executionEvents: [g1, bad, g2] });
  assert.equal(lax.timeline[1].entryId, "bad");
  // Validators never throw on malformed events: they report issues.
  const issues = api.collectRuntimeEventValidationIssues(bad);
  assert.ok(issues.some((i) => i.path === "$.kind"));
  const violations = api.verifyRuntimeEventSequence([g1, bad, g2]);
  assert.ok(Array.isArray(violations));
});

// ---------------------------------------------------------------------------------------------
// Large values through the wasm boundary

test("a long batch (read one event at a time) names the event it stops at as a short one does", () => {
  // Over the size from which the module reads a batch's events one at a time (256 KiB).
  const events = api.generateRuntimeEvents(1000, 12);
  assert.ok(JSON.stringify(events).length > 300_000);
  const classOf = (event) => ({ ...event, eventClass: 5 });
  const statusOf = (event) => ({ ...event, status: 5 });
  const deepOf = (event) => ({ ...event, payload: JSON.parse("[".repeat(70) + "]".repeat(70)) });
  const thrown = (list) => {
    try {
      api.projectAgentUiState({ executionEvents: list });
    } catch (error) {
      return `${error.constructor.name}: ${error.message}`;
    }
    return "no error";
  };
  // The reference throws on an event class that is not a string, whatever follows: named with
  // its index and id, in the words of a short batch.
  const long = events.slice();
  long[700] = classOf(events[700]);
  assert.match(thrown(long), /^TypeError: projectAgentUiState: events\[700\] \(id "[^"]+"\): the reference projection throws/);
  assert.equal(thrown(long), thrown([events[0], long[700]]).replace("events[1]", "events[700]"));
  // A status that is not a string throws when no later event decides the runtime status.
  const last = events.slice();
  last[999] = statusOf(events[999]);
  assert.equal(thrown(last), thrown([events[0], last[999]]).replace("events[1]", "events[999]"));
  // An event that cannot be carried is refused before any event is applied, whatever comes
  // before it.
  long[900] = deepOf(events[900]);
  assert.equal(thrown(long), "TypeError: projectAgentUiState: events[900]: Runtime event nesting exceeds the limit of 64 levels.");
  // And the package goes on: the stream without them projects as one event at a time does.
  const projector = api.createAgentUiProjector();
  for (const event of events) projector.apply(event);
  assert.deepStrictEqual(api.projectAgentUiState({ executionEvents: events }), projector.getState());
  projector.free();
});

test("a 10 MB text delta and a 20 MB payload string project without a trap", () => {
  const big = "x".repeat(10 * 1024 * 1024);
  const ev = parsedEvent({ id: "big1", kind: "model", eventClass: "model.delta", status: "running", sequence: 1 }, `"payload":{"delta":${JSON.stringify(big)}}`);
  const p = api.createAgentUiProjector();
  const s = p.apply(ev);
  assert.ok(JSON.stringify(s.messages).length >= big.length);
  const huge = parsedEvent({ id: "big2", kind: "tool", eventClass: "tool.result", status: "completed", toolCallId: "t", sequence: 2 }, `"payload":{"output":${JSON.stringify("y".repeat(20 * 1024 * 1024))}}`);
  p.apply(huge);
  assert.equal(p.getState().readModel.events.length, 2);
  assert.deepStrictEqual(p.getState(), api.projectAgentUiState({ executionEvents: [ev, huge] }));
});

test("deep nesting is a clear error at any depth, never a stack overflow", () => {
  for (const depth of [65, 200, 5000]) {
    let payload = { leaf: 1 };
    for (let i = 0; i < depth; i++) payload = { a: payload };
    const ev = { ...BASE, id: `deep${depth}`, payload };
    const e = outcome(() => api.createAgentUiProjector().apply(ev), `apply(depth ${depth})`);
    assert.ok(e instanceof TypeError, `depth ${depth}: ${e && e.message}`);
    // Either the Rust boundary refuses it, or (deeper) the host's own JSON.stringify runs out of
    // stack first; both surface as a TypeError with the reason.
    assert.match(e.message, /nesting exceeds the limit of 64 levels|recursion limit exceeded|Maximum call stack size exceeded/);
    const issues = outcome(() => api.collectRuntimeEventValidationIssues(ev), `validate(depth ${depth})`);
    assert.ok(issues === null || issues instanceof Error);
  }
  // A 1,000,000-level array cannot even be stringified by the host (RangeError), and that
  // surfaces as a TypeError from the wrapper, not a trap.
  let deep = [];
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  const e = outcome(() => api.projectAgentUiState({ executionEvents: [{ ...BASE, id: "d", payload: { deep } }] }), "1M deep");
  assert.ok(e, "refused");
});

test("a list holding an element nested near the JSON reader's limit gives the same error through every list entry point", () => {
  // 127 levels parse as one value but not inside the array (which takes a level of the
  // reader's budget): the list is refused for the nesting, named at that index, everywhere.
  const nest = (depth) => {
    let v = [];
    for (let i = 1; i < depth; i++) v = [v];
    return v;
  };
  const ev = { ...BASE, id: "n0" };
  for (const list of [[nest(127)], [ev, null, nest(127)], [{ ...ev, id: "n1", payload: nest(70) }, nest(127)]]) {
    const batch = outcome(() => api.projectAgentUiState({ executionEvents: list }), "batch");
    assert.ok(batch instanceof TypeError, String(batch));
    const words = batch.message.replace(/^projectAgentUiState: /, "");
    for (const [name, run] of [
      ["hydrate", () => api.createProjector().hydrate({ executionEvents: list })],
      ["applyMany", () => api.createProjector().applyMany(list)],
    ]) {
      const e = outcome(run, name);
      assert.ok(e instanceof TypeError, `${name}: ${e}`);
      assert.ok(e.message.endsWith(words), `${name}: ${e.message} (batch: ${batch.message})`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Secrets

const SECRET_VALUES = ["sk-live-123456", "Bearer abc.def", "hunter2", "s3cr3t-value", "tok_999"];

function secretEvents() {
  return [
    parsedEvent({ id: "s1", eventClass: "tool.started", toolCallId: "call_s" }, `"payload":{"arguments":{"apiKey":"sk-live-123456","headers":{"Authorization":"Bearer abc.def"}}}`),
    parsedEvent({ id: "s2", eventClass: "tool.result", status: "completed", toolCallId: "call_s" }, `"payload":{"result":{"password":"hunter2"},"metadata":{"clientSecret":"s3cr3t-value"}}`),
    parsedEvent({ id: "s3", kind: "subagent", eventClass: "subagent.started", subagentId: "sub_s" }, `"payload":{"collaborationFacts":{"accessToken":"tok_999"}}`),
  ];
}

test(
  "redactSecrets: true keeps every secret value out of every projected state",
  () => {
    assert.deepEqual([...api.PROJECTOR_OPTIONS], ["redactSecrets", "strict"]);
    const events = secretEvents();
    const states = [
      api.projectAgentUiState({ executionEvents: events, redactSecrets: true }),
      api.projectAgentUiState({ executionEvents: events }, { redactSecrets: true }),
      api.project(events, { redactSecrets: true }),
      api.createAgentUiProjector({ redactSecrets: true }).applyMany(events),
      api.createAgentUiProjector({ executionEvents: events }, { redactSecrets: true }).getState(),
      api.createProjector(undefined, { redactSecrets: true }).hydrate({ executionEvents: events }) &&
        api.createProjector({ executionEvents: events }, { redactSecrets: true }).getState(),
    ];
    const p = api.createAgentUiProjector(undefined, { redactSecrets: true });
    for (const e of events) states.push(p.apply(e));
    const lean = api.createProjector(undefined, { redactSecrets: true });
    lean.applyMany(events.slice(0, 1));
    lean.apply(events[1]);
    lean.apply(events[2]);
    states.push(lean.getState());
    for (const s of states) {
      for (const projection of s.readModel.events) {
        assert.ok(!events.includes(projection.source), "source is the redacted copy, not the caller's event");
      }
    }
    for (const s of states) {
      const text = JSON.stringify(s);
      for (const secret of SECRET_VALUES) assert.ok(!text.includes(secret), `secret ${secret} leaked`);
      assert.ok(text.includes("[redacted]"));
    }
    // The caller's own objects are not modified.
    assert.equal(events[0].payload.arguments.apiKey, "sk-live-123456");
  },
);

test("without redactSecrets the projection keeps payload values as given (default off)", () => {
  const text = JSON.stringify(api.projectAgentUiState({ executionEvents: secretEvents() }));
  assert.ok(text.includes("sk-live-123456"), "default projection keeps the source events");
});

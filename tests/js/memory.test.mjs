// Memory that comes back: after a batch returns, the package holds no more than 64 MiB of
// WebAssembly memory above what it held before, whatever the batch size (large batches run on a
// fresh instance that is dropped afterwards), and the result is the one the installed instance
// computes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pkgEntry } from "./reference.mjs";

const api = await import(pkgEntry);
const { core } = await import(new URL("core.js", `file://${pkgEntry}`).href);
const glue = await import(new URL("glue/agent_runtime_projection.js", `file://${pkgEntry}`).href);
const boundary = await import(new URL("boundary.js", `file://${pkgEntry}`).href);
const { ISOLATE_INPUT_UNITS } = boundary;

const MiB = 2 ** 20;
const memory = () => core.exports.memory.buffer.byteLength;

test("a batch larger than the isolation threshold leaves the installed instance's memory as it was", () => {
  const events = api.generateRuntimeEvents(12_000, 5);
  assert.ok(JSON.stringify(events).length > ISOLATE_INPUT_UNITS, "the stream is above the threshold");
  const before = memory();
  const state = api.projectAgentUiState({ executionEvents: events });
  const readModel = api.projectAgentRuntimeReadModel({ executionEvents: events });
  const issues = api.collectRuntimeEventsValidationIssues(events);
  const violations = api.verifyRuntimeEventSequence(events);
  assert.ok(memory() - before <= 64 * MiB, `grew by ${(memory() - before) / MiB} MiB`);
  // The same results as the installed instance's projector and per-event validator.
  const projector = api.createProjector();
  projector.applyMany(events);
  assert.deepStrictEqual(state, projector.getState());
  assert.deepStrictEqual(readModel, state.readModel);
  assert.deepStrictEqual(issues, events.flatMap((e, i) => api.collectRuntimeEventValidationIssues(e, `$[${i}]`)));
  assert.ok(Array.isArray(violations));
  projector.free();
  assert.equal(state.readModel.events[0].source, events[0], "sources are the caller's objects");
});

test("a read model of more events than its isolation threshold runs on a fresh instance and gives the same projections", () => {
  // ~1.2 million facts (the threshold is 2^20): tool events of a few tasks, then an action
  // request and its resolution at the end.
  const events = [];
  for (let i = 0; i < 130_000; i++) {
    events.push({ id: `e${i}`, eventClass: "tool.started", kind: "tool", status: "running", taskId: `task-${i % 7}` });
  }
  events.push({ id: "ask", eventClass: "action.required", kind: "action", status: "pending", actionId: "a1" });
  events.push({ id: "done", eventClass: "action.resolved", kind: "action", status: "completed", actionId: "a1" });
  const before = memory();
  const model = api.projectAgentRuntimeReadModel({ executionEvents: events });
  assert.ok(memory() - before <= 4 * MiB, `grew by ${(memory() - before) / MiB} MiB`);
  assert.equal(model.events.length, events.length);
  assert.ok(model.events.every((p, i) => p.source === events[i]), "sources are the caller's objects");
  const head = api.projectAgentRuntimeReadModel({ executionEvents: events.slice(0, 1000) });
  assert.deepStrictEqual(model.events.slice(0, 1000), head.events);
  const tail = api.projectAgentRuntimeReadModel({ executionEvents: events.slice(-2) });
  assert.deepStrictEqual(model.events.slice(-2), tail.events);
  assert.deepStrictEqual(model.visibleEvents, tail.visibleEvents);
  assert.deepStrictEqual(model.pendingActions, []);
  assert.deepStrictEqual(model.taskRefs, ["task-0", "task-1", "task-2", "task-3", "task-4", "task-5", "task-6"]);
});

test("a long batch's wire text handed out in pieces is the text the module returns whole", () => {
  const text = JSON.stringify(api.generateRuntimeEvents(3000, 8));
  const { call, putText } = boundary;
  const whole = call("test", () => glue.project(putText(text), undefined, false));
  const pieces = [];
  const rest = call("test", () => glue.project(putText(text), undefined, false, (piece) => pieces.push(piece)));
  assert.ok(pieces.length >= 2, `${pieces.length} pieces`);
  assert.ok(rest.length < whole.length / 2);
  assert.equal(pieces.join("") + rest, whole);
  // A sink that throws takes nothing: from then on the text stays in the module and comes back
  // with the result, so nothing is lost or doubled.
  let calls = 0;
  const taken = [];
  const refused = call("test", () =>
    glue.project(putText(text), undefined, false, (piece) => {
      calls++;
      if (calls === 2) throw new Error("full");
      taken.push(piece);
    }),
  );
  assert.equal(calls, 2, "no piece is offered after a refusal");
  assert.equal(taken.length, 1);
  assert.equal(taken[0] + refused, whole);
});

test("batches just under the threshold keep the installed instance within 64 MiB", () => {
  // The largest batch the installed instance takes: ~ISOLATE_INPUT_UNITS of input.
  let events = api.generateRuntimeEvents(4000, 6);
  while (JSON.stringify(events).length > ISOLATE_INPUT_UNITS) events = events.slice(0, Math.floor(events.length * 0.9));
  const before = memory();
  for (let i = 0; i < 3; i++) api.projectAgentUiState({ executionEvents: events });
  assert.ok(memory() - before <= 64 * MiB, `grew by ${(memory() - before) / MiB} MiB`);
});

test("an input over the module's input limit is a RangeError naming it, before any work, and the package keeps working", () => {
  // 300 MB of JSON text: over the 256 MiB limit (one event with a long text delta).
  const huge = { id: "huge", eventClass: "model.delta", kind: "model.delta", payload: { text: "x".repeat(300e6) } };
  const before = memory();
  const limitError = (what) => (error) =>
    error instanceof RangeError && error.message.startsWith(`${what}: `) && /input limit of 268435456 bytes \(256 MiB\)/.test(error.message);
  assert.throws(() => api.projectAgentUiState({ executionEvents: [huge] }), limitError("projectAgentUiState"));
  const projector = api.createAgentUiProjector();
  const fixture = api.agentUiConformanceFixtures[0].events;
  projector.apply(fixture[0]);
  const state = projector.getState();
  assert.throws(() => projector.apply(huge), limitError("createAgentUiProjector.apply"));
  assert.equal(projector.getState(), state, "the projector is unchanged");
  // Non-ASCII text over the limit (its UTF-8 bound is found while copying).
  const wide = { ...huge, payload: { text: "\u00e9".repeat(150e6) } };
  assert.throws(() => api.collectRuntimeEventValidationIssues(wide), limitError("collectRuntimeEventValidationIssues"));
  assert.ok(memory() - before <= 64 * MiB, `grew by ${(memory() - before) / MiB} MiB`);
  // Not a fault: the same instance goes on.
  assert.deepStrictEqual(
    api.projectAgentUiState({ executionEvents: fixture }),
    (() => {
      const p = api.createAgentUiProjector();
      for (const e of fixture) p.apply(e);
      return p.getState();
    })(),
  );
});

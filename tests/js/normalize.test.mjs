// `normalizeRuntimeEvent` (docs/normalize.md): the canonical RuntimeEvent envelope becomes an
// execution event the validators accept; execution events and anything else pass through.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pkgEntry } from "./reference.mjs";

const api = await import(pkgEntry);
const issues = (event) => api.collectRuntimeEventValidationIssues(event);

/** The contract's canonical `tool.started` envelope example (seed 000). */
const toolStartedEnvelope = () => ({
  schemaVersion: "0.1",
  runtimeId: "lime_runtime_local",
  sessionId: "sess_123",
  eventId: "evt_123",
  timestamp: "2026-06-10T00:00:00.000Z",
  sequence: 12,
  type: "tool.started",
  threadId: "thread_1",
  turnId: "turn_1",
  stepId: "step_1",
  toolCallId: "tool_1",
  payload: { toolName: "search", title: "Search the web" },
});

test("a canonical envelope normalizes to a valid execution event, members in the event model's order", () => {
  const raw = toolStartedEnvelope();
  // The raw envelope is not an execution event: five required members are missing.
  assert.deepStrictEqual(
    issues(raw).map((i) => i.path),
    ["$.id", "$.kind", "$.status", "$.title", "$.createdAt"],
  );
  const event = api.normalizeRuntimeEvent(raw);
  const want = {
    schemaVersion: "0.1",
    runtimeId: "lime_runtime_local",
    sessionId: "sess_123",
    id: "evt_123",
    eventClass: "tool.started",
    kind: "tool",
    status: "running",
    sequence: 12,
    threadId: "thread_1",
    turnId: "turn_1",
    stepId: "step_1",
    toolCallId: "tool_1",
    title: "Search the web",
    payload: { toolName: "search", title: "Search the web" },
    createdAt: "2026-06-10T00:00:00.000Z",
  };
  assert.deepStrictEqual(event, want);
  assert.deepStrictEqual(Object.keys(event), Object.keys(want));
  assert.deepStrictEqual(issues(event), []);
  // A copy: the envelope's payload is not the event's.
  assert.notEqual(event.payload, raw.payload);
});

test("a tool envelope without a tool call id misses its scope as the same hand-written event does", () => {
  const raw = toolStartedEnvelope();
  delete raw.toolCallId;
  assert.deepStrictEqual(
    issues(api.normalizeRuntimeEvent(raw)).map((i) => [i.code, i.path]),
    [["missing_scope_id", "$.toolCallId"]],
  );
  const direct = {
    id: "evt_123",
    schemaVersion: "lime-runtime-event/v0.1",
    runtimeId: "lime_runtime_local",
    kind: "tool",
    status: "running",
    sequence: 12,
    title: "Search the web",
    createdAt: "2026-06-10T00:00:00.000Z",
    eventClass: "tool.started",
    threadId: "thread_1",
    turnId: "turn_1",
  };
  assert.deepStrictEqual(issues(direct).map((i) => i.code), ["missing_scope_id"]);
});

test("execution events and what is no envelope pass through, as JSON reads them", () => {
  const direct = { id: "e", eventClass: "x", eventId: "ignored", note: undefined };
  assert.deepStrictEqual(api.normalizeRuntimeEvent(direct), { id: "e", eventClass: "x", eventId: "ignored" });
  for (const value of [null, [1], "s", 5, { type: "tool.started" }, { id: undefined }]) {
    assert.deepStrictEqual(api.normalizeRuntimeEvent(value), JSON.parse(JSON.stringify(value)));
  }
  assert.throws(() => api.normalizeRuntimeEvent(undefined), TypeError);
  assert.throws(() => api.normalizeRuntimeEvent({ eventId: "e", big: 1n }), TypeError);
});

test("refs, title and defaults map as documented", () => {
  const event = api.normalizeRuntimeEvent({
    eventId: "e1",
    runtimeId: "r",
    sessionId: "s",
    timestamp: "t",
    sequence: 1,
    type: "artifact.changed",
    artifactId: "a1",
    refs: { artifactIds: ["a1"], artifactRefs: ["a2", 3], evidenceIds: ["v1"], outputRefs: ["o1"], rawRefs: ["raw1"], refIds: [] },
    payload: { toolName: "writer" },
    unknown: "left out",
  });
  assert.equal(event.schemaVersion, "lime-runtime-event/v0.1");
  assert.deepStrictEqual(event.artifactRefs, ["a1", "a2"]);
  assert.deepStrictEqual(event.evidenceRefs, ["v1"]);
  assert.deepStrictEqual(event.refIds, ["o1", "raw1"]);
  assert.equal(event.title, "writer");
  assert.deepStrictEqual([event.kind, event.status], ["draft", "completed"]);
  assert.ok(!("unknown" in event));
  assert.deepStrictEqual(issues(event), []);

  const command = api.normalizeRuntimeEvent({ eventId: "e2", type: "command.output", refs: ["out_1", 5] });
  assert.deepStrictEqual(command.refIds, ["out_1"]);
  assert.equal(command.title, "command.output");
  // A class that is not a string is copied, without a kind, status or title from it.
  const odd = api.normalizeRuntimeEvent({ eventId: "e3", type: 7, refs: { refIds: [] } });
  assert.deepStrictEqual(odd, { schemaVersion: "lime-runtime-event/v0.1", id: "e3", eventClass: 7 });
});

test("kind and status by the class", () => {
  const cases = [
    ["tool.result", "tool", "completed"],
    ["tool.failed", "tool", "failed"],
    ["model.delta", "model", "running"],
    ["reasoning.summary", "note", "running"],
    ["action.required", "action", "pending"],
    ["action.resolved", "action", "completed"],
    ["patch.applied", "draft", "completed"],
    ["file.changed", "draft", "completed"],
    ["review.verdict", "evidence", "running"],
    ["permission.requested", "permission", "running"],
    ["sandbox.violation", "sandbox", "blocked"],
    ["sandbox.blocked", "sandbox", "blocked"],
    ["context.resolved", "context", "completed"],
    ["turn.canceled", "state", "canceled"],
    ["command.exited", "tool", "completed"],
    ["runtime.error", "note", "failed"],
    ["subagent.started", "handoff", "running"],
    ["mystery", "note", "running"],
    ["constructor.x", "note", "running"],
    ["__proto__", "note", "running"],
  ];
  for (const [type, kind, status] of cases) {
    const event = api.normalizeRuntimeEvent({ eventId: "e", type });
    assert.deepStrictEqual([event.kind, event.status], [kind, status], type);
  }
});

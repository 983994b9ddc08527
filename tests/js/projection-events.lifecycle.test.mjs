// Lifecycle builders (pkg-template/projection-events/lifecycle.ts): the branches the recorded
// reference calls leave out, checked against the rules the builders follow.
import assert from "node:assert/strict";
import { test } from "node:test";

const api = await import(new URL("../../pkg/index.node.js", import.meta.url).href);

const context = { sessionId: " s1 ", threadId: "  ", timestamp: "2026-01-01T00:00:00.000Z" };

test("lifecycle: a canceled run is archived in the cancelled phase, without a payload", () => {
  const event = api.buildAgentUiRunCanceledEvent(undefined, context);
  assert.deepStrictEqual(event, {
    sourceType: "turn_canceled",
    timestamp: "2026-01-01T00:00:00.000Z",
    sessionId: "s1",
    threadId: undefined,
    runId: undefined,
    turnId: undefined,
    messageId: undefined,
    taskId: undefined,
    runtimeEntity: "agent_turn",
    type: "run.canceled",
    owner: "runtime",
    scope: "run",
    phase: "cancelled",
    surface: "runtime_status",
    persistence: "archive",
  });
});

test("lifecycle: a run start counts the prompt's UTF-16 units and keeps the context's ids when its own are blank", () => {
  const event = api.buildAgentUiRunStartedEvent({ threadId: " ", turnId: null, promptText: "é😀" }, { threadId: " t ", turnId: "u" });
  assert.equal(event.threadId, "t");
  assert.equal(event.turnId, "u");
  assert.deepStrictEqual(event.payload, { status: undefined, promptLength: 3 });
});

test("lifecycle: runtime status without metadata has no team facts, and counts no checkpoints", () => {
  const event = api.buildAgentUiRuntimeStatusEvent({ phase: "failed", detail: "x".repeat(250) });
  assert.equal(event.phase, "failed");
  assert.equal(event.runtimeStatus, "failed");
  assert.equal(event.latestTurnStatus, "failed");
  assert.ok(!Object.hasOwn(event, "teamPhase"));
  assert.deepStrictEqual(event.payload, {
    runtimeEntity: "agent_turn",
    title: undefined,
    detailPreview: `${"x".repeat(240)}...`,
    sourcePhase: "failed",
    checkpointCount: 0,
    metadataKeys: [],
  });
});

test("lifecycle: runtime status takes concurrency facts when team facts are missing", () => {
  const event = api.buildAgentUiRuntimeStatusEvent({
    phase: "routing",
    metadata: { concurrency_phase: " queued ", concurrency_queued_count: 2 },
  });
  assert.equal(event.phase, "routing");
  assert.equal(event.runtimeStatus, "preparing");
  assert.equal(event.teamPhase, "queued");
  assert.equal(event.teamQueuedCount, 2);
  assert.equal(event.queuedTurnCount, 2);
  assert.equal(event.payload.teamPhase, "queued");
  assert.deepStrictEqual(event.payload.metadataKeys, ["concurrency_phase", "concurrency_queued_count"]);
  assert.ok(!Object.hasOwn(event.payload, "queueReason"));
});

test("lifecycle: a task profile leaves blank keys out and lists default to []", () => {
  const event = api.buildAgentUiTaskProfileResolvedEvent({ kind: " chat ", source: "  ", routingSlot: null });
  assert.deepStrictEqual(event.payload, { kind: "chat", traits: [], permissionProfileKeys: [] });
});

test("lifecycle: a non-string id fails as a trim of it would", () => {
  assert.throws(() => api.buildAgentUiThreadStartedEvent({ threadId: 7 }), {
    name: "TypeError",
    message: "value?.trim is not a function",
  });
});

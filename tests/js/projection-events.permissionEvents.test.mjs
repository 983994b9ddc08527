// Permission events (pkg-template/projection-events/permissionEvents.ts): the phase rule and the
// surface choice.
import assert from "node:assert/strict";
import { test } from "node:test";

const api = await import(new URL("../../pkg/index.node.js", import.meta.url).href);

const phase = (runtimePhase, metadata) => api.resolveAgentUiRuntimePermissionPhase({ phase: runtimePhase, metadata });

test("permissions: the phase rule, in order", () => {
  assert.equal(phase("permission_review", { permission_status: " denied " }), "failed");
  assert.equal(phase("preparing", { confirmation_status: "not_requested", permission_status: "granted" }), "waiting");
  assert.equal(phase("preparing", { ask_profile_keys: "read" }), "waiting");
  assert.equal(phase("routing", { confirmation_status: "resolved" }), "completed");
  assert.equal(phase("routing", {}), "routing");
  assert.equal(phase("context", null), "preparing");
});

test("permissions: no facts, no event; flags alone make a runtime status event", () => {
  assert.equal(api.hasAgentUiRuntimePermissionMetadata({ permission_status: " ", required_profile_keys: [" "] }), false);
  assert.equal(api.buildAgentUiRuntimePermissionChangedEvent({ phase: "preparing", metadata: {} }), null);
  const event = api.buildAgentUiRuntimePermissionChangedEvent({ phase: "preparing", metadata: { declared_only: false } });
  assert.equal(event.surface, "runtime_status");
  assert.equal(event.phase, "preparing");
  assert.ok(Object.hasOwn(event, "actionId") && event.actionId === undefined);
  assert.equal(event.payload.declaredOnly, false);
});

test("permissions: a pending confirmation is the action to approve, on the HITL surface", () => {
  const event = api.buildAgentUiRuntimePermissionChangedEvent({
    phase: "preparing",
    metadata: { confirmation_request_id: " c1 ", permission_status: "approved" },
  });
  assert.equal(event.actionId, "c1");
  assert.equal(event.control, "approve");
  assert.equal(event.surface, "hitl");
  assert.equal(event.phase, "waiting");
});

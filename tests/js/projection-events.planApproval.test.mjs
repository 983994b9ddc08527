// Plan approval (pkg-template/projection-events/planApproval.ts): where requests and responses
// are found, and how the caller's envelope is copied.
import assert from "node:assert/strict";
import { test } from "node:test";

const api = await import(new URL("../../pkg/index.node.js", import.meta.url).href);

test("plan approval: a request without its own id takes the pending request id", () => {
  assert.deepStrictEqual(
    api.extractAgentUiPlanApprovalProjection({ plan_approval_request: { sender: " lead " }, pendingRequestId: "p1", awaiting_leader_approval: false }),
    {
      requestId: "p1",
      from: "lead",
      planFilePath: undefined,
      planContent: undefined,
      timestamp: undefined,
      deliveryTarget: undefined,
      deliverySubmissionId: undefined,
      awaitingLeaderApproval: false,
    },
  );
  assert.equal(api.extractAgentUiPlanApprovalProjection({ plan_approval_request: {} }), null);
});

test("plan approval: a response is found in the delivery's extra record, its submission id in the delivery", () => {
  const response = api.extractAgentUiPlanApprovalResponseProjection({
    plan_approval_delivery: { submission_id: "sub", extra: { plan_approval_response: { id: "r1", approve: true } } },
  });
  assert.equal(response.requestId, "r1");
  assert.equal(response.approved, true);
  assert.equal(response.deliverySubmissionId, "sub");
  assert.equal(api.extractAgentUiPlanApprovalResponseProjection({ send_message: { plan_approval_response: {} } }), null);
});

test("plan approval: events copy the caller's envelope, own __proto__ key included, and leave it untouched", () => {
  const base = JSON.parse('{"__proto__": {"x": 1}, "sourceType": "s", "type": "old"}');
  const event = api.buildAgentUiPlanApprovalResolvedEvent({ base, projection: { requestId: "r1", approved: false }, persistence: "snapshot" });
  assert.equal(Object.getPrototypeOf(event), Object.prototype);
  assert.ok(Object.hasOwn(event, "__proto__"));
  assert.equal(event.type, "action.resolved");
  assert.equal(event.control, "reject");
  assert.ok(!Object.hasOwn(event, "toolCallId"));
  assert.deepStrictEqual(Object.keys(base), ["__proto__", "sourceType", "type"]);
  assert.equal(base.type, "old");
});

test("plan approval: a builder called without parameters fails destructuring them", () => {
  assert.throws(() => api.buildAgentUiPlanApprovalRequiredEvent(), {
    name: "TypeError",
    message: "Cannot destructure property 'base' of 'params' as it is undefined.",
  });
});

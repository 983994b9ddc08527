// Action builders (pkg-template/projection-events/actions.ts): the control table and scope rules.
import assert from "node:assert/strict";
import { test } from "node:test";

const api = await import(new URL("../../pkg/index.node.js", import.meta.url).href);

test("actions: the controls for pending and resolved actions", () => {
  assert.equal(api.resolveAgentUiActionRequiredControl("elicitation"), "answer");
  assert.equal(api.resolveAgentUiActionRequiredControl("tool_confirmation"), "approve");
  assert.equal(api.resolveAgentUiActionRequiredControl("plan_approval"), undefined);
  assert.equal(api.resolveAgentUiActionResolvedControl("ask_user", false), "answer");
  assert.equal(api.resolveAgentUiActionResolvedControl("plan_approval", undefined), "approve");
  assert.equal(api.resolveAgentUiActionResolvedControl("tool_confirmation", false), "reject");
  assert.equal(api.resolveAgentUiActionResolvedControl("other", false), undefined);
});

test("actions: blank scope ids fall back to the context's", () => {
  const event = api.buildAgentUiActionRequiredEvent(
    { requestId: "a1", actionType: "custom", scope: { sessionId: " ", threadId: " t2 " } },
    { sessionId: "s1", threadId: "t1", turnId: "u1" },
  );
  assert.deepStrictEqual([event.sessionId, event.threadId, event.turnId], ["s1", "t2", "u1"]);
  assert.ok(Object.hasOwn(event, "control"));
  assert.equal(event.control, undefined);
});

test("actions: a resolution reads plan facts from its data record only", () => {
  const event = api.buildAgentUiActionResolvedEvent({ requestId: "a1", actionType: "plan_approval", approved: false, data: ["x"] });
  assert.equal(event.control, "reject");
  assert.deepStrictEqual(event.payload, {
    actionType: "plan_approval",
    decisionKind: undefined,
    approved: false,
    feedbackPreview: undefined,
    permissionMode: undefined,
    targetSessionId: undefined,
    planFile: undefined,
    planId: undefined,
    awaitingLeaderApproval: undefined,
    responseMetadataKeys: [],
  });
});

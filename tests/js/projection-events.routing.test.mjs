// Routing events (pkg-template/projection-events/routing.ts): payload sources and the fallback
// chain rule.
import assert from "node:assert/strict";
import { test } from "node:test";

const api = await import(new URL("../../pkg/index.node.js", import.meta.url).href);

test("routing: a decision that is not a record adds nothing to the payload", () => {
  const event = api.buildAgentUiRoutingStatusEvent({ runtimeEvent: "routing_decided", routingDecision: "auto", limitEvent: { eventKind: "x" } });
  assert.equal(event.sourceType, "routing_decided");
  assert.equal(event.phase, "routing");
  assert.deepStrictEqual(event.payload, { runtimeEvent: "routing_decided" });
});

test("routing: a limit event keeps its keys, with a preview of its message", () => {
  const event = api.buildAgentUiRoutingStatusEvent({ runtimeEvent: "routing_not_possible", limitEvent: { message: " no model " } });
  assert.equal(event.phase, "failed");
  assert.deepStrictEqual(event.payload, {
    runtimeEvent: "routing_not_possible",
    limitEventKind: undefined,
    messagePreview: "no model",
    retryable: undefined,
  });
});

test("routing: the fallback chain is kept empty only for a nested decision or one naming its mode", () => {
  assert.deepStrictEqual(api.buildRoutingDecisionPayload({ routingDecision: {} }), { fallbackChain: [] });
  assert.deepStrictEqual(api.buildRoutingDecisionPayload({ routing_mode: " auto " }), { routingMode: "auto", fallbackChain: [] });
  assert.deepStrictEqual(api.buildRoutingDecisionPayload({ selected_model: "m" }), { selectedModel: "m" });
  assert.deepStrictEqual(api.buildRoutingDecisionPayload([{ routingMode: "auto" }]), {});
});

test("routing: numbers may be strings; attempts keep their record entries", () => {
  assert.deepStrictEqual(
    api.buildRoutingDecisionPayload({ candidate_count: " 3 ", routing_attempts: [{ provider: "a" }, "b", null] }),
    { candidateCount: 3, routingAttempts: [{ provider: "a" }] },
  );
});

// Conversation builders (pkg-template/projection-events/conversationEvents.ts): optional payload
// keys and errors the recorded reference calls leave out.
import assert from "node:assert/strict";
import { test } from "node:test";

const api = await import(new URL("../../pkg/index.node.js", import.meta.url).href);

test("conversation: a text delta carries chunk facts only with a numeric chunk count", () => {
  assert.deepStrictEqual(api.buildAgentUiTextDeltaEvent({ text: " hi " }).payload, { textLength: 4, preview: "hi" });
  assert.deepStrictEqual(api.buildAgentUiTextDeltaEvent({ text: "hi", chunkCount: 0 }).payload, {
    textLength: 2,
    preview: "hi",
    chunkCount: 0,
    boundary: undefined,
  });
  assert.ok(!Object.hasOwn(api.buildAgentUiTextDeltaEvent({ text: "hi", chunkCount: "2" }).payload, "chunkCount"));
});

test("conversation: a reasoning delta takes its item id as part id only when it is non-empty", () => {
  const withItem = api.buildAgentUiReasoningDeltaEvent({ text: "t", itemId: "r1", streamKind: "summary", summaryIndex: 0 });
  assert.equal(withItem.partId, "r1");
  assert.deepStrictEqual(withItem.payload, { textLength: 1, preview: "t", streamKind: "summary", summaryIndex: 0 });
  const without = api.buildAgentUiReasoningDeltaEvent({ text: "", itemId: "" });
  assert.ok(!Object.hasOwn(without, "partId"));
  assert.deepStrictEqual(without.payload, { textLength: 0, preview: undefined });
});

test("conversation: a delta without text fails reading its length", () => {
  assert.throws(() => api.buildAgentUiTextDeltaEvent({}), {
    name: "TypeError",
    message: "Cannot read properties of undefined (reading 'length')",
  });
});

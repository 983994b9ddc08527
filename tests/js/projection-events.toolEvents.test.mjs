// Tool builders (pkg-template/projection-events/toolEvents.ts and toolLifecycleMetadata.ts): the
// failure path, absent metadata and lifecycle metadata lookups the recorded reference calls leave out.
import assert from "node:assert/strict";
import { test } from "node:test";

const api = await import(new URL("../../pkg/index.node.js", import.meta.url).href);

test("tools: a result with success false is a failed, archived tool call", () => {
  const event = api.buildAgentUiToolEndEvent({ toolCallId: "c1", result: { success: false, error: " boom ", images: [] } });
  assert.equal(event.type, "tool.failed");
  assert.equal(event.phase, "failed");
  assert.equal(event.persistence, "archive");
  assert.deepStrictEqual(event.payload, {
    success: false,
    outputPreview: undefined,
    errorPreview: "boom",
    outputLength: 0,
    hasImages: false,
    metadataKeys: [],
  });
  assert.deepStrictEqual(event.refs, {});
});

test("tools: progress and output deltas without metadata keep an own undefined refs key", () => {
  const progress = api.buildAgentUiToolProgressEvent({ toolCallId: "c1", progress: {} });
  assert.ok(Object.hasOwn(progress, "refs"));
  assert.equal(progress.refs, undefined);
  const output = api.buildAgentUiToolOutputDeltaEvent({ toolCallId: "c1", delta: "ab" });
  assert.ok(Object.hasOwn(output, "refs"));
  assert.equal(output.refs, undefined);
  assert.deepStrictEqual(output.payload, { outputKind: undefined, deltaPreview: "ab", deltaLength: 2, metadataKeys: [] });
});

test("tools: lifecycle metadata is found in nested metadata, with labels falling back to the lifecycle record", () => {
  const [started] = api.buildAgentUiToolStartEvents({
    toolCallId: "c1",
    toolName: "read",
    metadata: {
      metadata: { soul_lifecycle: { surface: " inline ", risk_level: "low", pack_id: "p" } },
      result: { metadata: { tool_process_facts: { styleLevel: "calm", riskLevel: "high" }, riskLevel: "  " } },
    },
  });
  assert.deepStrictEqual(started.payload, {
    toolName: "read",
    soulLifecycle: { surface: " inline ", risk_level: "low", pack_id: "p" },
    toolProcessFacts: { styleLevel: "calm", riskLevel: "high" },
    soulSurface: "inline",
    styleLevel: "calm",
    riskLevel: "low",
    packId: "p",
  });
});

test("tools: the start events share the envelope but are distinct objects", () => {
  const [started, args] = api.buildAgentUiToolStartEvents({ toolCallId: "c1", toolName: "t", input: "  " }, { runId: "r" });
  assert.notStrictEqual(started, args);
  assert.equal(args.runId, "r");
  assert.deepStrictEqual(args.payload, { toolName: "t", inputAvailable: false, inputSummary: undefined, inputLength: 2 });
});

test("tools: an end without a result fails reading its success flag", () => {
  assert.throws(() => api.buildAgentUiToolEndEvents({ toolCallId: "c1" }), {
    name: "TypeError",
    message: "Cannot read properties of undefined (reading 'success')",
  });
});

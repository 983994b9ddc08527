// The UI projection-event layer (`AgentUiProjectionEvent`): the envelope, the builders, the event
// store and its selectors, the summaries. Plain JavaScript objects in, plain objects out: each
// function reads or builds a few small objects, which costs less than one call into WebAssembly
// (bench/surface.mjs measures both), so this layer runs in JS. It never calls the Rust core.
export type * from "./contracts.js";
export * from "./normalization.js";
export * from "./runtimeFacts.js";
export * from "./envelope.js";
export * from "./refs.js";
export * from "./lifecycle.js";
export * from "./conversationEvents.js";
export * from "./toolEvents.js";
export * from "./actions.js";
export * from "./planApproval.js";
export * from "./permissionEvents.js";
export * from "./routing.js";
export * from "./contextEvents.js";
export * from "./diagnosticEvents.js";
export * from "./hydrationEvents.js";
export * from "./artifactEvents.js";
export * from "./threadItems.js";
// Its extractor stays internal to the layer (the reference exports only the type).
export type { AgentUiToolLifecyclePayloadMetadata } from "./toolLifecycleMetadata.js";
export type * from "./mcpElicitation.js";
export type * from "./historyReplayVisualTypes.js";
export * from "./eventStore.js";
export * from "./incrementalStore.js";
export * from "./summary.js";

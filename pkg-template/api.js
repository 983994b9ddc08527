// The public API: the exact export names of @limecloud/agent-ui-contracts and
// @limecloud/agent-runtime-projection, over the Rust core. The JS side does only what JS must do:
// identity (validators return their input, fixtures and schemas are shared objects), the error
// classes, turning inputs into JSON text, decoding the wire encoding, structural sharing of
// materialized projector states and accumulator models, the per-event helpers that evaluate the
// core's rule tables (views.js: a call into WebAssembly would cost more than the rule), the
// canonical envelope's mapping (normalize.js, one object built from another), and the UI
// projection-event layer (plain object builders, see projection-events/index.ts).
export { AgentRuntimeProjectionFault, ready } from "./core.js";
export * from "./contracts.js";
export * from "./projection.js";
export { normalizeRuntimeEvent } from "./normalize.js";
export * from "./views.js";
export * from "./projection-events/index.js";
export * from "./app-server.js";

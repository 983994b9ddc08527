//! agent-runtime-projection: the Lime agent-runtime event validator and UI projection reducer.
//!
//! Layers (each imports only the ones above it):
//! - [`contract`]: the event model, JS value semantics, validators, sequence verifier, fixtures;
//! - [`projection`]: the reducer (batch and incremental), one module per state field;
//! - [`app_server`]: App Server facts (session reads, event notifications, evidence exports)
//!   as execution events, and their replay through the projection;
//! - [`generator`]: deterministic realistic event streams for benchmarks and tests;
//! - `wasm` (wasm32 only): the wasm-bindgen bindings.
#![deny(unsafe_code)]

pub mod contract;
/// The event generator (its own crate, `crates/generator`, compiled for size in the wasm build).
pub use agent_runtime_projection_generator as generator;
pub mod projection;

pub mod app_server;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

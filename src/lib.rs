//! agent-runtime-projection: the Lime agent-runtime event validator and UI projection reducer.
//!
//! Layers (each imports only the ones above it):
//! - [`contract`]: the event model, JS value semantics, validators, sequence verifier, fixtures;
//! - [`projection`]: the reducer (batch and incremental), one module per state field;
//! - [`generator`]: deterministic realistic event streams for benchmarks and tests;
//! - `wasm` (wasm32 only): the wasm-bindgen bindings.
#![deny(unsafe_code)]

pub mod contract;
/// The event generator (its own crate, `crates/generator`, compiled for size in the wasm build).
pub use agent_runtime_projection_generator as generator;
pub mod projection;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

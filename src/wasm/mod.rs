//! wasm-bindgen bindings (thin: JSON text in, wire-encoded JSON text out).

//! wasm-bindgen bindings (thin: JSON text in, wire-encoded JSON text out).
//!
//! Every function here parses its input text, calls the Rust core and writes the result with the
//! wire encoding of `docs/design.md` (`Val::write_json`). The JS wrapper in `pkg-template/`
//! stringifies inputs, decodes outputs and owns every JS-side fact (identity, error classes,
//! structural sharing).
//!
//! Inputs can arrive two ways: as a `&str` argument, or (the fast path) as UTF-8 bytes the wrapper
//! wrote with `TextEncoder.encodeInto` into the buffer returned by [`input_buffer`]; the `*_buf`
//! functions read that buffer.

mod alloc;
#[doc(hidden)]
pub use alloc::in_batch_arena;
pub mod api;
pub mod app_server;
pub mod input;
pub mod projector;
mod tape;
#[doc(hidden)]
pub use tape::last_tape;
pub mod types;
pub mod views;

/// What an instance sets up when it starts (wasm-bindgen's start function, run by the glue
/// before any call, on every instance): JS's own `toLowerCase` for the core's lower-casing of
/// text beyond ASCII (`contract::js::set_host_lower`: the module links no Unicode case tables),
/// and in debug builds (`scripts/build-pkg.sh --debug`) readable panic messages in the console.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    crate::contract::js::set_host_lower(host_lower);
    #[cfg(feature = "panic-hook")]
    console_error_panic_hook::set_once();
}

/// JS `s.toLowerCase()`, outside any batch arena (the call makes JS values).
fn host_lower(s: &str) -> String {
    alloc::outside_arena(|| js_sys::JsString::from(s).to_lower_case().into())
}

/// Test hook (the `test-faults` feature only): trap inside the module, to test that the package
/// survives it. `kind` 1 panics (an abort in wasm); anything else executes `unreachable`.
#[cfg(feature = "test-faults")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn test_trap(kind: u32) {
    if kind == 1 {
        panic!("test_trap: a forced panic");
    }
    core::arch::wasm32::unreachable()
}

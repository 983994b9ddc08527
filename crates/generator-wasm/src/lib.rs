//! The event generator (`generateRuntimeEvents` of the npm package) as a WebAssembly module of
//! its own, apart from the projection's module.
//!
//! Why separate: the projection never needs the generator at run time, and it is a large part of
//! a module's code (~18 KB gzip), so the projection's module stays smaller without it. Its memory
//! comes back too: the package runs every call on a fresh instance of this module and drops it
//! afterwards (linear memory never shrinks), so a large stream leaves nothing behind.
//!
//! The interface is a few plain exports, no wasm-bindgen: JS writes the options' JSON text into
//! the buffer [`input`] returns, calls [`generate`], and reads the result text at
//! [`output_ptr`] / [`output_len`].

use std::cell::RefCell;

use agent_runtime_projection_generator::{checked_count, generate_json};

thread_local! {
    /// The options' JSON text, written by JS.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last result: the events' JSON array text, or an error message.
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Make the input buffer `len` bytes long; returns where JS writes the options' UTF-8 text.
#[no_mangle]
pub extern "C" fn input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|buf| {
        buf.clear();
        buf.resize(len, 0);
        buf.as_mut_ptr()
    })
}

/// Generate `n` events (a non-negative integer; JS checks it) for `seed`, with the options in
/// the first `len` bytes of the input buffer (JSON text; empty for the defaults). Returns 0
/// when the output holds the events' JSON array text, 1 when it holds an error message.
#[no_mangle]
pub extern "C" fn generate(n: f64, seed: u32, len: usize) -> u32 {
    // `as` from a float saturates (and NaN is 0): a count beyond u64 is refused as above the limit.
    let result = INPUT.with_borrow(|buf| {
        let options = buf.get(..len).ok_or("generator options: no such input")?;
        let options = std::str::from_utf8(options)
            .map_err(|e| format!("generator options are not UTF-8: {e}"))?;
        generate_json(checked_count(n as u64)?, seed, options)
    });
    let (status, text) = match result {
        Ok(json) => (0, json),
        Err(message) => (1, message),
    };
    OUTPUT.set(text.into_bytes());
    status
}

/// Where the output of the last [`generate`] starts.
#[no_mangle]
pub extern "C" fn output_ptr() -> *const u8 {
    OUTPUT.with_borrow(|buf| buf.as_ptr())
}

/// The output's length in bytes.
#[no_mangle]
pub extern "C" fn output_len() -> usize {
    OUTPUT.with_borrow(Vec::len)
}

//! The input buffer of the fast path: the JS wrapper writes JSON text into wasm memory with
//! `TextEncoder.encodeInto` (one native copy) instead of passing a `&str` (which wasm-bindgen
//! copies character by character).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

/// Capacity above which the buffer is released by the next call that needs no more than this,
/// so one large input does not pin its size in the allocator for the life of the module (wasm
/// memory itself never shrinks, but the allocator can reuse the space). Calls with large inputs
/// in a row (a stream validated or projected again and again) reuse the buffer as it is: no
/// new allocation, no zero-fill of tens of megabytes, no fresh pages to fault in.
const KEEP_CAPACITY: usize = 1 << 20;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Make the input buffer at least `cap` bytes long and return its address in wasm memory.
/// The address is valid until the next call into the module that allocates.
#[wasm_bindgen]
pub fn input_buffer(cap: usize) -> usize {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        fit(&mut b, cap);
        b.as_mut_ptr() as usize
    })
}

/// Make `b` at least `cap` bytes long; a buffer over [`KEEP_CAPACITY`] is released first when
/// `cap` is small.
fn fit(b: &mut Vec<u8>, cap: usize) {
    if cap <= KEEP_CAPACITY && b.capacity() > KEEP_CAPACITY {
        *b = Vec::new();
    }
    if b.len() < cap {
        b.resize(cap, 0);
    }
}

/// Run `f` on the first `len` bytes of the input buffer, as UTF-8 text.
pub(crate) fn with_input<T>(
    len: usize,
    f: impl FnOnce(&str) -> Result<T, JsError>,
) -> Result<T, JsError> {
    INPUT.with(|cell| {
        let b = cell.borrow();
        match b.get(..len) {
            None => Err(JsError::new("Input length exceeds the input buffer.")),
            Some(bytes) => match std::str::from_utf8(bytes) {
                Ok(text) => f(text),
                Err(_) => Err(JsError::new("Input is not valid UTF-8 text.")),
            },
        }
    })
}

/// The buffer's current capacity in bytes (for tests of the release rule).
#[doc(hidden)]
pub fn input_capacity() -> usize {
    INPUT.with(|b| b.borrow().capacity())
}

/// Replace the start of the input buffer with `bytes` (growing it as needed).
pub(crate) fn fill_input(bytes: &[u8]) {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        fit(&mut b, bytes.len());
        if let Some(dst) = b.get_mut(..bytes.len()) {
            dst.copy_from_slice(bytes);
        }
    })
}

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

/// The most UTF-8 bytes of JSON text one call takes (256 MiB). A batch that parses its whole
/// list first takes about 12 bytes of module memory per byte of input (the text, the parsed
/// events, the views and the output text at once), so an input past this would exhaust
/// wasm32's 4 GiB part way and trap; it is refused up front instead, with a `RangeError` naming
/// the limit, before anything is copied.
pub const MAX_INPUT_BYTES: usize = 256 << 20;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The numbers a call takes and gives instead of text (the read model's facts).
    static WORDS: RefCell<Vec<i32>> = const { RefCell::new(Vec::new()) };
}

/// Make the input buffer at least `cap` bytes long and return its address in wasm memory.
/// The address is valid until the next call into the module that allocates. A `cap` over
/// [`MAX_INPUT_BYTES`] throws a `RangeError` naming the limit (nothing is allocated).
#[wasm_bindgen]
pub fn input_buffer(cap: usize) -> Result<usize, JsValue> {
    if cap > MAX_INPUT_BYTES {
        return Err(js_sys::RangeError::new(&format!(
            "the input's JSON text is at least {cap} bytes of UTF-8, over the input limit of \
             {MAX_INPUT_BYTES} bytes (256 MiB) per call"
        ))
        .into());
    }
    Ok(INPUT.with(|b| {
        let mut b = b.borrow_mut();
        fit(&mut b, cap);
        b.as_mut_ptr() as usize
    }))
}

/// [`MAX_INPUT_BYTES`], for the wrapper (which counts the UTF-8 length of text that may pass it).
#[wasm_bindgen]
pub fn max_input_bytes() -> usize {
    MAX_INPUT_BYTES
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

/// Make the word buffer at least `len` numbers long and return its address in wasm memory (the
/// input buffer's rules: valid until the next call that allocates; a large buffer is released by
/// the next call that needs a small one; over [`MAX_INPUT_BYTES`] is a `RangeError`).
#[wasm_bindgen]
pub fn words_buffer(len: usize) -> Result<usize, JsValue> {
    if len > MAX_INPUT_BYTES / 4 {
        return Err(js_sys::RangeError::new(&format!(
            "the input is {len} numbers, over the input limit of {} per call",
            MAX_INPUT_BYTES / 4
        ))
        .into());
    }
    Ok(WORDS.with(|w| {
        let mut w = w.borrow_mut();
        if len <= KEEP_CAPACITY / 4 && w.capacity() > KEEP_CAPACITY / 4 {
            *w = Vec::new();
        }
        if w.len() < len {
            w.resize(len, 0);
        }
        w.as_mut_ptr() as usize
    }))
}

/// Run `f` on the first `len` numbers of the word buffer; what it returns replaces them. Returns
/// the address of the answer (the caller reads it up to where it says it ends).
pub(crate) fn with_words(len: usize, f: impl FnOnce(&[i32]) -> Vec<i32>) -> usize {
    WORDS.with(|cell| {
        let out = {
            let w = cell.borrow();
            f(w.get(..len).unwrap_or_default())
        };
        let mut w = cell.borrow_mut();
        *w = out;
        w.as_mut_ptr() as usize
    })
}

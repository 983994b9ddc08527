//! Output values handed over as a tape (`contract::tape`): written into buffers the module keeps
//! until the next tape is written, which the JS side reads in place (`pkg-template/wire.js`,
//! `readTape`) before its next call into the module.

use std::cell::RefCell;

use wasm_bindgen::JsError;

use super::alloc::outside_arena;
use crate::contract::tape::{Tape, TapeTooLong};
use crate::contract::val::Val;

/// The module's tape and where its last write is ([`Written::at`]).
#[derive(Default)]
struct Written {
    tape: Tape,
    /// The ops' address and count, the numbers' address and count, the text's address and
    /// length in bytes, the number of names in the table, the address of their spans and of
    /// their text (`contract::tape::Names`).
    at: [u32; 9],
}

thread_local! {
    static TAPE: RefCell<Written> = RefCell::default();
}

/// Write `v` to the module's tape. Returns the address of [`Written::at`], which locates the
/// tape's buffers in linear memory. The buffers are the module's own, never a batch arena's, so
/// they outlive the call.
pub(crate) fn tape_of(v: &Val) -> Result<u32, JsError> {
    written(|tape| tape.write(v))
}

/// [`tape_of`] for a tape that `write` writes.
pub(crate) fn written(
    write: impl FnOnce(&mut Tape) -> Result<(), TapeTooLong>,
) -> Result<u32, JsError> {
    outside_arena(|| {
        TAPE.with(|cell| {
            let mut out = cell.borrow_mut();
            let Written { tape, at } = &mut *out;
            write(tape).map_err(|e| JsError::new(&e.to_string()))?;
            // Addresses and lengths in wasm32 linear memory fit in 32 bits.
            let addr = |p: *const u8| p as usize as u32;
            *at = [
                addr(tape.ops.as_ptr().cast()),
                tape.ops.len() as u32,
                addr(tape.nums.as_ptr().cast()),
                tape.nums.len() as u32,
                addr(tape.text.as_ptr()),
                tape.text.len() as u32,
                tape.names.len() as u32,
                addr(tape.names.spans.as_ptr().cast()),
                addr(tape.names.text.as_ptr()),
            ];
            Ok(addr(at.as_ptr().cast()))
        })
    })
}

/// The value of the module's last tape, its [`FIELD`](crate::contract::tape::FIELD)s as
/// `"<event>.<name>"` strings: for the wasm tests, which cannot run the JS reader.
#[doc(hidden)]
pub fn last_tape() -> Result<Val, String> {
    TAPE.with(|cell| {
        cell.borrow()
            .tape
            .read(&|event, name| Val::string(format!("{event}.{name}")))
    })
}

//! `WasmProjector`: the incremental projector behind `createAgentUiProjector`.
//!
//! The JS wrapper keeps the accepted event objects in a list; an event's index in that list is the
//! `ext` passed here, so `Val::Event(ext)` in a patch decodes to the caller's own object.

use wasm_bindgen::prelude::*;

use super::api::{parse, parse_events};
use super::input::with_input;
use crate::contract::json::array_element_texts;
use crate::projection::patch::PATCH_TEXT_CAPACITY;
use crate::projection::projector::Projector;

#[wasm_bindgen]
pub struct WasmProjector {
    inner: Projector,
}

#[wasm_bindgen]
impl WasmProjector {
    #[wasm_bindgen(constructor)]
    pub fn new(source_count: Option<f64>) -> WasmProjector {
        WasmProjector {
            inner: Projector::new(source_count),
        }
    }

    /// Apply one event (JSON in the input buffer). `true`: accepted as event `ext`; `false`:
    /// its id was seen before. A malformed event throws and changes nothing.
    pub fn apply(&mut self, len: usize, ext: u32) -> Result<bool, JsError> {
        with_input(len, |text| {
            let event = parse(text)?;
            self.inner
                .apply_keeping_text(event, text, ext)
                .map_err(|e| JsError::new(&e.message))
        })
    }

    /// Apply a JSON array of events in order; accepted events get `ext_start`, `ext_start + 1`, ...
    /// Returns one byte per input event (1 accepted, 0 duplicate). Every event is checked before
    /// any is applied: a malformed one throws and changes nothing.
    pub fn apply_many(&mut self, len: usize, ext_start: u32) -> Result<Vec<u8>, JsError> {
        with_input(len, |text| {
            let events = parse_events(parse(text)?)?;
            // Each accepted event is kept as its text (see `projection::events`).
            let texts = array_element_texts(text).unwrap_or_default();
            let mut flags = Vec::with_capacity(events.len());
            let mut ext = ext_start;
            for (i, event) in events.into_iter().enumerate() {
                // Checked above with the whole list.
                let accepted = self
                    .inner
                    .apply_checked_keeping(event, texts.get(i).copied(), ext);
                if accepted {
                    ext = ext.saturating_add(1);
                }
                flags.push(u8::from(accepted));
            }
            Ok(flags)
        })
    }

    /// Replace everything with these events (a JSON array, already free of duplicate ids, so
    /// event `i` is array element `i`). A malformed event throws and changes nothing.
    pub fn hydrate(&mut self, len: usize, source_count: Option<f64>) -> Result<(), JsError> {
        with_input(len, |text| {
            let events = parse_events(parse(text)?)?;
            let texts = array_element_texts(text).unwrap_or_default();
            self.inner.hydrate_checked(events, &texts, source_count);
            Ok(())
        })
    }

    /// Back to the empty state (the constructor's sourceCount is dropped, as in the reference).
    pub fn reset(&mut self) {
        self.inner.reset();
    }

    /// The whole state, wire-encoded.
    pub fn state(&self) -> String {
        let mut s = String::new();
        self.inner.write_wire(&self.inner.state(), &mut s);
        s
    }

    /// The changes since the previous call (patch protocol of docs/design.md), wire-encoded.
    pub fn take_patch(&mut self) -> String {
        let mut s = String::with_capacity(PATCH_TEXT_CAPACITY);
        let patch = self.inner.take_patch();
        self.inner.write_patch_wire(&patch, &mut s);
        s
    }
}

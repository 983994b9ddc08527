//! `WasmProjector`: the incremental projector behind `createAgentUiProjector`.
//!
//! The JS wrapper keeps the accepted event objects in a list; an event's index in that list is the
//! `ext` passed here, so `Val::Event(ext)` in a patch decodes to the caller's own object.

use wasm_bindgen::prelude::*;

use super::api::{parse_event, parse_event_list, source_count};
use super::input::with_input;
use crate::contract::event::check_carryable;
use crate::contract::json::{array_element_texts, for_each_array_element, Parsed};
use crate::projection::projector::Projector;

#[wasm_bindgen]
pub struct WasmProjector {
    inner: Projector,
    /// Why the last `apply_many` stopped early.
    error: Option<String>,
}

/// The events of a JSON array text and each one's text, read in one pass (the parsed list
/// gives the error of a text that is not an array of events).
fn events_of(text: &str) -> Result<(Vec<serde_json::Value>, Vec<&str>), JsError> {
    let (mut events, mut texts) = (Vec::new(), Vec::new());
    // An element that cannot be carried sends the list to the parsed-whole path, whose error
    // is the one to give (see `for_each_array_element` on nesting).
    let read = for_each_array_element(text, |Parsed(event), item| {
        if check_carryable(&event).is_err() {
            return false;
        }
        events.push(event);
        texts.push(item);
        true
    });
    if read {
        return Ok((events, texts));
    }
    let events = parse_event_list(text).map_err(|e| JsError::new(&e))?;
    let texts = array_element_texts(text).unwrap_or_default();
    Ok((events, texts))
}

#[wasm_bindgen]
impl WasmProjector {
    /// `source_count_json`: the source count's JSON text (`api::source_count`). `strict`: refuse
    /// events outside `check_event`'s boundary instead of projecting them as the reference does.
    #[wasm_bindgen(constructor)]
    pub fn new(source_count_json: Option<String>, strict: bool) -> Result<WasmProjector, JsError> {
        let mut inner = Projector::counted(source_count(source_count_json)?);
        inner.set_strict(strict);
        Ok(WasmProjector { inner, error: None })
    }

    /// Apply one event (JSON in the input buffer). `true`: accepted as event `ext`; `false`:
    /// its id was seen before. A refused event throws and changes nothing.
    pub fn apply(&mut self, len: usize, ext: u32) -> Result<bool, JsError> {
        with_input(len, |text| {
            let applied = match self.inner.apply_text(text, ext) {
                Some(applied) => applied,
                // Not an object the projection can carry: why, as the parsed text tells.
                None => match check_carryable(&parse_event(text)?) {
                    Err(e) => Err(e),
                    Ok(()) => Err(crate::contract::event::not_an_object()),
                },
            };
            applied.map_err(|e| JsError::new(&e.message))
        })
    }

    /// Apply a JSON array of events in order; accepted events get `ext_start`, `ext_start + 1`, ...
    /// Returns one byte per event applied: 1 accepted, 0 duplicate. An event that cannot be
    /// carried throws before any is applied; at an event the reference throws on, the events
    /// before it stay applied, the list ends with a 2 and `take_error` tells why.
    pub fn apply_many(&mut self, len: usize, ext_start: u32) -> Result<Vec<u8>, JsError> {
        with_input(len, |text| {
            let (events, texts) = events_of(text)?;
            let (mut flags, err) = self.inner.apply_many(events, &texts, ext_start);
            match err {
                Some(e) if flags.is_empty() => return Err(JsError::new(&e.message)),
                Some(e) => {
                    self.error = Some(e.message);
                    flags.push(2);
                }
                None => {}
            }
            Ok(flags)
        })
    }

    /// Why the last `apply_many` stopped at an event (once).
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    /// Replace everything with these events (a JSON array): one byte per event, 1 accepted
    /// (its `ext` is the number accepted before it), 0 duplicate id. All or nothing: a refused
    /// event throws and changes nothing.
    pub fn hydrate(
        &mut self,
        len: usize,
        source_count_json: Option<String>,
    ) -> Result<Vec<u8>, JsError> {
        let count = source_count(source_count_json)?;
        let flags = with_input(len, |text| {
            if let Some(flags) = self.inner.hydrate_text(text, None) {
                return Ok(flags);
            }
            let (events, texts) = events_of(text)?;
            self.inner
                .hydrate(events, &texts, None)
                .map_err(|e| JsError::new(&e.message))
        })?;
        // The hydrated projector has sent nothing yet: its first patch holds the count.
        self.inner.set_source_count(count);
        Ok(flags)
    }

    /// Back to the empty state (the constructor's sourceCount is dropped, as in the reference).
    pub fn reset(&mut self) {
        self.inner.reset();
    }

    /// The whole state, wire-encoded; throws while it is unreadable (the reference throws on
    /// these events as they stand: a later event may decide otherwise).
    pub fn state(&self) -> Result<String, JsError> {
        let state = self
            .inner
            .state_compact()
            .map_err(|e| JsError::new(&e.message))?;
        let mut s = String::new();
        self.inner.write_wire(&state, &mut s);
        Ok(s)
    }

    /// The wrapper already has the initial state (see `ProjectorCore::assume_initial_sent`).
    pub fn assume_initial_sent(&mut self) {
        self.inner.assume_initial_sent();
    }

    /// The changes since the previous call (patch protocol of docs/design.md), as a tape
    /// (`contract::tape`); throws while the state is unreadable (the changes are kept for the next call).
    pub fn take_patch(&mut self) -> Result<u32, JsError> {
        let patch = self
            .inner
            .take_patch()
            .map_err(|e| JsError::new(&e.message))?;
        let inner = &self.inner;
        super::tape::written(|tape| inner.write_patch(&patch, tape))
    }
}

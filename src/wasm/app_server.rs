//! Bindings of the App Server facts (`crate::app_server`): the facts' JSON text in through the
//! input buffer (length 0 stands for `undefined`), a tape out (`contract::tape`).
//!
//! The three projections' tapes hold two values, `refs` then the events; the replay's four,
//! `refs`, the events, the state and the diagnostics. `refs` are the paths, from the input, of
//! the caller's objects the events embed (`Val::Event(i)` in the events is the i-th of them); in
//! the state, `Val::Event(i)` is the i-th returned event.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::alloc::{dispose, BatchArena};
use super::api::parse_text;
use super::input::with_input;
use super::tape::written;
use crate::app_server::{self, FactsError};

/// What to do with the facts.
#[derive(Clone, Copy)]
enum Call {
    Events,
    SessionRead,
    EvidenceExport,
    Replay,
}

/// Parse the facts (`None` for `undefined`), run `call` on them and write its result as a tape
/// (`contract::tape`). A `FactsError` becomes the error's message (the JS wrapper throws it as a
/// `TypeError`). One function for the four exports, so the module holds one copy of the input
/// handling.
///
/// The work runs in a [`BatchArena`] (as the batch projections of `api.rs` do); an error becomes
/// a JS error only after it stopped.
fn run(len: usize, call: Call) -> Result<u32, JsError> {
    let mut at = Ok(0);
    with_input(len, |text| {
        let arena = BatchArena::start();
        let result = facts_tape(text, len, call, &mut at, arena.as_ref());
        let stopped = arena.map(BatchArena::stop);
        let result = result.map_err(|e| JsError::new(&e));
        drop(stopped);
        result
    })?;
    at
}

fn facts_tape(
    text: &str,
    len: usize,
    call: Call,
    at: &mut Result<u32, JsError>,
    arena: Option<&BatchArena>,
) -> Result<(), String> {
    let parsed = if len == 0 {
        None
    } else {
        Some(parse_text(text)?)
    };
    let result = write(parsed.as_ref(), call, at, arena).map_err(|e| e.0);
    dispose(arena, parsed);
    result
}

fn write(
    facts: Option<&Value>,
    call: Call,
    at: &mut Result<u32, JsError>,
    arena: Option<&BatchArena>,
) -> Result<(), FactsError> {
    let events = match call {
        Call::Events => app_server::project_app_server_events_to_execution_events(facts)?,
        Call::SessionRead => {
            app_server::project_app_server_session_read_to_execution_events(facts)?
        }
        Call::EvidenceExport => {
            app_server::project_app_server_evidence_export_to_execution_events(facts)?
        }
        Call::Replay => {
            let replay = app_server::replay_app_server_facts(facts)?;
            *at = written(|tape| replay.write_tape(facts, tape));
            dispose(arena, replay);
            return Ok(());
        }
    };
    *at = written(|tape| {
        tape.clear();
        events.write_tape(facts, tape)
    });
    dispose(arena, events);
    Ok(())
}

/// `projectAppServerEventsToExecutionEvents(events)`.
#[wasm_bindgen]
pub fn app_server_events(len: usize) -> Result<u32, JsError> {
    run(len, Call::Events)
}

/// `projectAppServerSessionReadToExecutionEvents(readModel)`.
#[wasm_bindgen]
pub fn app_server_session_read(len: usize) -> Result<u32, JsError> {
    run(len, Call::SessionRead)
}

/// `projectAppServerEvidenceExportToExecutionEvents(exportFacts)`.
#[wasm_bindgen]
pub fn app_server_evidence_export(len: usize) -> Result<u32, JsError> {
    run(len, Call::EvidenceExport)
}

/// `replayAppServerFacts(input)`.
#[wasm_bindgen]
pub fn app_server_replay(len: usize) -> Result<u32, JsError> {
    run(len, Call::Replay)
}

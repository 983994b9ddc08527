//! Bindings of the App Server facts (`crate::app_server`): the facts' JSON text in through the
//! input buffer (length 0 stands for `undefined`), wire text out.
//!
//! The three projections return `{"events":[...],"refs":[...]}`, the replay
//! `{"events":[...],"refs":[...],"state":{...},"diagnostics":[...]}`. `refs` are the paths,
//! from the input, of the caller's objects the events embed (`Val::Event(i)` in the events is
//! the i-th of them); in the state, `Val::Event(i)` is the i-th returned event.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::alloc::{dispose, BatchArena};
use super::api::parse_text;
use super::input::with_input;
use crate::app_server::{self, FactsError};

/// What to do with the facts.
#[derive(Clone, Copy)]
enum Call {
    Events,
    SessionRead,
    EvidenceExport,
    Replay,
}

/// Parse the facts (`None` for `undefined`), run `call` on them and write its wire text. A
/// `FactsError` becomes the error's message (the JS wrapper throws it as a `TypeError`). One
/// function for the four exports, so the module holds one copy of the input handling.
///
/// The work runs in a [`BatchArena`] (as the batch projections of `api.rs` do): the result
/// buffer is allocated before it starts, and an error becomes a JS error only after it stopped.
fn run(len: usize, call: Call) -> Result<String, JsError> {
    let mut out = String::with_capacity(len.saturating_mul(3).max(64));
    with_input(len, |text| {
        let arena = BatchArena::start();
        let result = facts_wire(text, len, call, &mut out, arena.as_ref());
        let stopped = arena.map(BatchArena::stop);
        let result = result.map_err(|e| JsError::new(&e));
        drop(stopped);
        result
    })?;
    Ok(out)
}

fn facts_wire(
    text: &str,
    len: usize,
    call: Call,
    out: &mut String,
    arena: Option<&BatchArena>,
) -> Result<(), String> {
    let parsed = if len == 0 {
        None
    } else {
        Some(parse_text(text)?)
    };
    let result = write(parsed.as_ref(), call, out, arena).map_err(|e| e.0);
    dispose(arena, parsed);
    result
}

fn write(
    facts: Option<&Value>,
    call: Call,
    out: &mut String,
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
            replay.write_wire(facts, out);
            dispose(arena, replay);
            return Ok(());
        }
    };
    out.push('{');
    events.write_wire_members(facts, out);
    out.push('}');
    dispose(arena, events);
    Ok(())
}

/// `projectAppServerEventsToExecutionEvents(events)`.
#[wasm_bindgen]
pub fn app_server_events(len: usize) -> Result<String, JsError> {
    run(len, Call::Events)
}

/// `projectAppServerSessionReadToExecutionEvents(readModel)`.
#[wasm_bindgen]
pub fn app_server_session_read(len: usize) -> Result<String, JsError> {
    run(len, Call::SessionRead)
}

/// `projectAppServerEvidenceExportToExecutionEvents(exportFacts)`.
#[wasm_bindgen]
pub fn app_server_evidence_export(len: usize) -> Result<String, JsError> {
    run(len, Call::EvidenceExport)
}

/// `replayAppServerFacts(input)`.
#[wasm_bindgen]
pub fn app_server_replay(len: usize) -> Result<String, JsError> {
    run(len, Call::Replay)
}

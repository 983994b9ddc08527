//! Free functions: validators, sequence verification, terminal helpers, secret redaction and
//! batch projections.
//!
//! Functions named with a `len` parameter read their JSON input from the input buffer
//! ([`super::input_buffer`]; [`set_input`] in tests); results are wire-encoded JSON text.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::alloc::{dispose, outside_arena, BatchArena};
use super::input::with_input;
use crate::contract::val::{Flush, Val};
use crate::contract::{sequence, terminal, validation};
use crate::projection::projector::ProjectorCore;
use crate::projection::{replay, subagents};

/// Copy `text` into the input buffer; returns its length in bytes (the binding tests' way in;
/// the JS wrapper writes into the buffer itself).
pub fn set_input(text: &str) -> usize {
    super::input::fill_input(text.as_bytes());
    text.len()
}

/// The input's JSON value, or the error the bindings report for text that is not JSON (as text,
/// for a batch, which turns it into a JS error after its arena stopped).
pub(crate) fn parse_text(text: &str) -> Result<Value, String> {
    crate::contract::json::parse_value(text).map_err(|e| format!("Invalid JSON input: {e}"))
}

/// [`parse_text`] of wire-encoded text, straight into a `Val` (`contract::json::parse_wire_val`).
pub(crate) fn parse_wire_text(text: &str) -> Result<Val, String> {
    crate::contract::json::parse_wire_val(text).map_err(|e| format!("Invalid JSON input: {e}"))
}

pub(crate) fn parse(text: &str) -> Result<Value, JsError> {
    parse_text(text).map_err(|e| JsError::new(&e))
}

fn parse_input(len: usize) -> Result<Value, JsError> {
    with_input(len, parse)
}

/// Parse one event's JSON text: text nested too deep to parse is the event nesting limit.
pub(crate) fn parse_event(text: &str) -> Result<Value, JsError> {
    crate::contract::json::parse_value(text).map_err(|e| {
        if is_too_deep(&e) {
            JsError::new(&crate::contract::event::too_deep().message)
        } else {
            JsError::new(&format!("Invalid JSON input: {e}"))
        }
    })
}

fn is_too_deep(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// Parse the JSON text of an event list. An error inside an event names it (`events[i]`), and
/// text nested too deep to parse is that event's nesting limit.
pub(crate) fn parse_event_list(text: &str) -> Result<Vec<Value>, String> {
    use crate::contract::json::{array_element_at, offset_of, parse_value};
    match parse_value(text) {
        Ok(v) => event_array(v),
        Err(e) => {
            let at = array_element_at(text, offset_of(text, e.line(), e.column()));
            Err(match at {
                Some(i) if is_too_deep(&e) => {
                    format!("events[{i}]: {}", crate::contract::event::too_deep())
                }
                Some(i) => format!("events[{i}]: Invalid event JSON: {e}"),
                None => format!("Invalid JSON input: {e}"),
            })
        }
    }
}

/// The events of an array (`Err` when it is not one).
pub(crate) fn event_array(v: Value) -> Result<Vec<Value>, String> {
    match v {
        Value::Array(items) => Ok(items),
        _ => Err("Runtime events must be an array.".to_owned()),
    }
}

/// The events of an array, each one checked at the projection's boundary: what cannot be
/// carried is refused, and (strict) what `check_event` refuses (errors as text).
fn event_list(text: &str, strict: bool) -> Result<Vec<Value>, String> {
    let items = parse_event_list(text)?;
    for (i, e) in items.iter().enumerate() {
        check(e, strict).map_err(|err| format!("events[{i}]: {err}"))?;
    }
    Ok(items)
}

/// What the projection refuses of an event: what cannot be carried, and (strict) what
/// `check_event` refuses.
pub(crate) fn check(event: &Value, strict: bool) -> Result<(), crate::contract::event::EventError> {
    if strict {
        crate::contract::event::check_event(event)
    } else {
        crate::contract::event::check_carryable(event)
    }
}

/// An event error of a list (`(index, why)`) as text.
fn at(err: (usize, crate::contract::event::Odd)) -> String {
    format!("events[{}]: {}", err.0, err.1)
}

/// A source count given as JSON text (`None`: absent, the reference's default 0), as the read
/// model keeps it (any value: a string, a record, `null` too, which the wrapper sends only where
/// the reference keeps it).
pub(crate) fn source_count(json: Option<String>) -> Result<Val, JsError> {
    let given = json.map(|t| parse(&t)).transpose()?;
    Ok(crate::projection::read_model::source_count_of(
        given.as_ref(),
    ))
}

/// Run a batch over the input text inside a [`BatchArena`]: `f` parses and projects, writes
/// the result into `out` (allocated before the arena starts, so it outlives it) and hands what
/// it built to the arena to dispose of. Errors become JS errors only after the arena stopped.
pub(crate) fn batch(
    len: usize,
    out_capacity: usize,
    f: impl FnOnce(&str, &mut String, Option<&BatchArena>) -> Result<(), String>,
) -> Result<String, JsError> {
    let mut out = String::with_capacity(out_capacity.max(64));
    with_input(len, |text| {
        let arena = BatchArena::start();
        let result = f(text, &mut out, arena.as_ref());
        let stopped = arena.map(BatchArena::stop);
        let result = result.map_err(|e| JsError::new(&e));
        drop(stopped);
        result
    })?;
    Ok(out)
}

/// [`batch`] of a function whose result is a value, handed over as a tape (`contract::tape`).
pub(crate) fn batch_tape(
    len: usize,
    f: impl FnOnce(&str, Option<&BatchArena>) -> Result<Val, String>,
) -> Result<u32, JsError> {
    let mut at = Ok(0);
    batch(len, 0, |text, _, arena| {
        let v = f(text, arena)?;
        at = super::tape::tape_of(&v);
        dispose(arena, v);
        Ok(())
    })?;
    at
}

/// The wire text of a batch's `state` into `out`, in pieces to `sink` when there is one.
fn write_state(
    projector: &ProjectorCore<'_>,
    state: &Val,
    out: &mut String,
    sink: Option<&js_sys::Function>,
) {
    match sink {
        Some(sink) => {
            let mut send = to_sink(sink);
            let flush = Flush {
                at: WIRE_CHUNK,
                sink: &mut send,
            };
            projector.write_wire_flushed(state, out, flush);
        }
        None => projector.write_wire(state, out),
    }
}

/// A flush sink ([`Flush`]) that hands the text to the JS function `sink` as a string (outside
/// the batch arena: the call's JS values may grow wasm-bindgen's table). Should the function
/// throw, the text stays in the buffer and no more is handed over: it all comes back with the
/// call's result instead, so the pieces and the result always make the whole.
fn to_sink(sink: &js_sys::Function) -> impl FnMut(&mut String) + '_ {
    let mut taken = true;
    move |out: &mut String| {
        if taken {
            taken = outside_arena(|| sink.call1(&JsValue::NULL, &JsValue::from_str(out)).is_ok());
            if taken {
                out.clear();
            }
        }
    }
}

fn wire(v: &Val) -> String {
    let mut s = String::new();
    v.write_json(&mut s);
    s
}

fn issues_json(issues: &[validation::Issue]) -> String {
    wire(&Val::arr(
        issues.iter().map(validation::Issue::to_val).collect(),
    ))
}

/// `redactSecrets`: the JSON text in the input buffer with every secret-bearing member redacted
/// (`contract::redact`), or `undefined` when nothing was redacted.
#[wasm_bindgen]
pub fn redact_secrets_json(len: usize) -> Result<Option<String>, JsError> {
    with_input(len, |text| {
        crate::contract::redact::redact_json_text(text).map_err(|e| JsError::new(&e))
    })
}

/// `collect*ValidationIssues`: `kind` is one of `runtimeEvent`, `threadReadModel`,
/// `projectionState`, `fixture`, `capabilityManifest`. Returns the issue array.
#[wasm_bindgen]
pub fn collect_issues(kind: &str, len: usize, path: &str) -> Result<String, JsError> {
    if kind == "runtimeEvent" {
        // A clean event is recognized on its text, without parsing it into a value.
        let issues = with_input(len, |text| {
            validation::collect_runtime_event_text_issues(text, path).map_err(|e| JsError::new(&e))
        })?;
        return Ok(issues_json(&issues));
    }
    let input = parse_input(len)?;
    let issues = match kind {
        "runtimeEvent" => validation::collect_runtime_event_issues(&input, path),
        "threadReadModel" => validation::collect_thread_read_model_issues(&input, path),
        "projectionState" => validation::collect_projection_state_issues(&input, path),
        "fixture" => validation::collect_fixture_issues(&input, path),
        "capabilityManifest" => validation::collect_capability_manifest_issues(&input, path),
        _ => return Err(JsError::new(&format!("Unknown validator kind: {kind}"))),
    };
    Ok(issues_json(&issues))
}

/// `collectRuntimeEventsValidationIssues(events, path)`: the input buffer holds the JSON text of
/// an array of events; returns the issues of every event (paths `{path}[i]...`) as one array.
#[wasm_bindgen]
pub fn collect_runtime_events_issues(len: usize, path: &str) -> Result<String, JsError> {
    let issues = with_input(len, |text| {
        validation::collect_runtime_events_issues(text, path).map_err(|e| JsError::new(&e))
    })?;
    Ok(issues_json(&issues))
}

/// `collectRuntimeEventsValidationIssues(ndjsonText, path)`: the input buffer holds
/// newline-delimited events; returns the issues of every event (paths `{path}[i]...`).
#[wasm_bindgen]
pub fn collect_runtime_events_ndjson_issues(len: usize, path: &str) -> Result<String, JsError> {
    let issues = with_input(len, |text| {
        validation::collect_runtime_events_ndjson_issues(text, path).map_err(|e| JsError::new(&e))
    })?;
    Ok(issues_json(&issues))
}

/// Violations as a tape (`contract::tape`).
fn violations_tape(v: &[sequence::Violation]) -> Result<u32, JsError> {
    super::tape::tape_of(&Val::arr(
        v.iter().map(sequence::Violation::to_val).collect(),
    ))
}

/// `verifyRuntimeEventSequence(events)`: the input is any JSON array.
#[wasm_bindgen]
pub fn verify_sequence(len: usize) -> Result<u32, JsError> {
    match parse_input(len)? {
        Value::Array(events) => violations_tape(&sequence::verify_runtime_event_sequence(&events)),
        _ => Err(JsError::new("Runtime events must be an array.")),
    }
}

/// The incremental runtime sequence verifier.
#[wasm_bindgen]
pub struct WasmSequenceVerifier {
    inner: sequence::SequenceVerifier,
}

#[wasm_bindgen]
impl WasmSequenceVerifier {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmSequenceVerifier {
        WasmSequenceVerifier {
            inner: sequence::SequenceVerifier::new(),
        }
    }

    /// Push one event (from the input buffer); returns the violations it produced (a tape).
    pub fn push(&mut self, len: usize) -> Result<u32, JsError> {
        let event = parse_input(len)?;
        violations_tape(&self.inner.push(&event))
    }

    /// Every violation so far.
    pub fn violations(&self) -> Result<u32, JsError> {
        violations_tape(self.inner.violations())
    }
}

#[wasm_bindgen]
pub fn normalize_runtime_status_value(v: Option<String>) -> Option<String> {
    terminal::normalize_runtime_status_value(v.as_deref())
}

#[wasm_bindgen]
pub fn runtime_turn_terminal_kind_from_status(v: Option<String>) -> Option<String> {
    terminal::runtime_turn_terminal_kind_from_status(v.as_deref()).map(|k| k.to_string())
}

/// `{kind, eventClass, status, phase}` as JSON text.
#[wasm_bindgen]
pub fn runtime_turn_terminal_projection_from_kind(kind: &str) -> String {
    wire(&terminal::runtime_turn_terminal_projection_from_kind(kind))
}

/// The terminal projection as JSON text, or `undefined`.
#[wasm_bindgen]
pub fn runtime_turn_terminal_projection_from_status(v: Option<String>) -> Option<String> {
    match terminal::runtime_turn_terminal_projection_from_status(v.as_deref()) {
        Val::Undef => None,
        p => Some(wire(&p)),
    }
}

#[wasm_bindgen]
pub fn normalize_runtime_turn_terminal_event_class(v: Option<String>) -> Option<String> {
    terminal::normalize_runtime_turn_terminal_event_class(v.as_deref()).map(|s| s.to_string())
}

#[wasm_bindgen]
pub fn is_runtime_turn_terminal_event_class(v: Option<String>) -> bool {
    terminal::is_runtime_turn_terminal_event_class(v.as_deref())
}

#[wasm_bindgen]
pub fn is_legacy_runtime_turn_terminal_event_class(v: Option<String>) -> bool {
    terminal::is_legacy_runtime_turn_terminal_event_class(v.as_deref())
}

#[wasm_bindgen]
pub fn is_runtime_terminal_status_value(v: Option<String>) -> bool {
    terminal::is_runtime_terminal_status_value(v.as_deref())
}

#[wasm_bindgen]
pub fn is_runtime_settled_status_value(v: Option<String>) -> bool {
    terminal::is_runtime_settled_status_value(v.as_deref())
}

#[wasm_bindgen]
pub fn runtime_status_for_terminal_event_class(v: Option<String>) -> Option<String> {
    terminal::runtime_status_for_terminal_event_class(v.as_deref()).map(|s| s.to_string())
}

/// Input from which a batch projection sets aside most of the memory it needs at once. (A batch
/// reads its events one at a time, `ProjectorCore::project_array_text`: it holds one event's
/// parsed record rather than the stream's trees, about 6 bytes of memory per byte of input less
/// at its peak, and a record is read 5-8% faster than the event's tree.)
const STREAM_MIN_BYTES: usize = 256 * 1024;

/// What a long stream's batch sets aside ahead (`alloc::reserve`), in tenths of its input's
/// bytes: the memory it needs beyond its input buffer, or a little less.
const STREAM_RESERVE_TENTHS: usize = 17;

/// Bytes of wire text a batch projection with a sink hands over at a time.
const WIRE_CHUNK: usize = 256 * 1024;

/// Batch projection of a JSON array of events; `Val::Event(i)` is the i-th array element.
/// `source_count_json`: the source count's JSON text ([`source_count`]). `strict`: refuse events
/// outside `check_event`'s boundary instead of projecting them as the reference does.
/// `sink`: a function that takes the wire text in pieces of about [`WIRE_CHUNK`] bytes as it is
/// written (the returned text is the rest), so the module never holds a long stream's whole
/// wire text next to its input and state; without one, the whole text is returned.
#[wasm_bindgen]
pub fn project(
    len: usize,
    source_count_json: Option<String>,
    strict: bool,
    sink: Option<js_sys::Function>,
) -> Result<String, JsError> {
    // The wire text of a long stream is about 0.45x its input (events and most per-event
    // objects cross as references to the caller's events): reserve about that once, or two
    // pieces when it goes to a sink.
    let reserve = match sink {
        Some(_) => 2 * WIRE_CHUNK,
        None => len / 2 + 1024,
    };
    project_batch(
        len,
        source_count_json,
        strict,
        reserve,
        &mut |projector, state, out| {
            write_state(projector, state, out, sink.as_ref());
            Ok(())
        },
    )
}

/// [`project`], the state handed over as a tape (`contract::tape`): for the shorter batches,
/// whose state the JS side decodes faster from a tape than from text.
#[wasm_bindgen]
pub fn project_tape(
    len: usize,
    source_count_json: Option<String>,
    strict: bool,
) -> Result<u32, JsError> {
    let mut at = 0;
    project_batch(
        len,
        source_count_json,
        strict,
        0,
        &mut |projector, state, _| {
            at = super::tape::written(|tape| projector.write_tape(state, tape))?;
            Ok(())
        },
    )?;
    Ok(at)
}

/// What a batch's state is written with: into the text, or elsewhere (then the text stays empty).
type StateWriter<'w> = dyn FnMut(&ProjectorCore<'_>, &Val, &mut String) -> Result<(), JsError> + 'w;

/// The batch projection of [`project`] and [`project_tape`]; `reserve`: bytes of text to set
/// aside.
fn project_batch(
    len: usize,
    source_count_json: Option<String>,
    strict: bool,
    reserve: usize,
    write: &mut StateWriter<'_>,
) -> Result<String, JsError> {
    let source_count = source_count(source_count_json)?;
    // A long stream's batch needs about 2.7x its input (the input buffer included: the
    // projector keeps each event's text, then its views and the state); set most of it aside
    // at once.
    let _reserved = (len >= STREAM_MIN_BYTES)
        .then(|| crate::wasm::alloc::reserve(len / 10 * STREAM_RESERVE_TENTHS));
    let mut written = Ok(());
    let text = batch(len, reserve, |text, out, arena| {
        // One pass: each event read as a record, applied and dropped (the projector keeps its
        // slice of the text).
        let mut projector = ProjectorCore::counted(source_count.clone());
        projector.set_strict(strict);
        if let Some(state) = projector.project_array_text(text) {
            written = write(&projector, &state, out);
            dispose(arena, state);
            dispose(arena, projector);
            return Ok(());
        }
        // Something stopped it: the parsed list gives the error (or, should the two ever
        // disagree, the state). Dropped, not forgotten: its blocks serve that second pass.
        drop(projector);
        let events = parse_event_list(text)?;
        // Same result as `projection::project`, without cloning the events.
        let mut projector = crate::projection::projector::Projector::counted(source_count);
        projector.set_strict(strict);
        let state = projector.project_list_compact(events);
        if let Ok(state) = &state {
            written = write(&projector, state, out);
        }
        let state = state.map_err(|e| e.message);
        dispose(arena, projector);
        state.map(|s| dispose(arena, s))
    })?;
    written.map(|()| text)
}

/// `buildAgentUiSubagentsModel(events)`, as a tape (`contract::tape`).
#[wasm_bindgen]
pub fn build_subagents_model(len: usize) -> Result<u32, JsError> {
    let events = with_input(len, |text| {
        event_list(text, false).map_err(|e| JsError::new(&e))
    })?;
    let model =
        subagents::build_agent_ui_subagents_model(&events).map_err(|e| JsError::new(&at(e)))?;
    super::tape::tape_of(&model)
}

/// `replayAgentUiFixture(fixture)`; `Val::Event(i)` is `fixture.events[i]`. `shared`: the read
/// models' sources the wrapper found to be the fixture's events (`replay::write_replay`).
/// The result is a tape (`contract::tape`).
#[wasm_bindgen]
pub fn replay_fixture(len: usize, shared: &[u32]) -> Result<u32, JsError> {
    let mut at = Ok(0);
    batch(len, 0, |text, _, arena| {
        let fixture = parse_text(text)?;
        let result = replay::write_replay(&fixture, shared, |result, projector| {
            at = super::tape::written(|tape| match projector {
                Some(p) => p.write_tape(result, tape),
                None => tape.write(result),
            });
        });
        dispose(arena, fixture);
        result.map_err(|e| e.message)
    })?;
    at
}

//! Bindings of the projection's views taken one at a time: the read-model, runtime-status and
//! subagents accumulators, the tool and MCP surfaces, runtime status and state deltas over a
//! list, the coding workbench view and the collaboration metadata builder. (The per-event rule
//! tables the JS wrapper evaluates itself are written into the package by its build:
//! `projection::view_rules::rules_json`.)
//!
//! Inputs are read from the input buffer (see [`super::input`]); values that may hold
//! `undefined` or stand for objects the caller keeps (a projection state) arrive wire-encoded
//! (`Val::from_wire_json`; the delta pass reads its state straight from the text,
//! `parse_wire_text`). The subagents accumulator answers with patches (docs/design.md, "Patch
//! protocol") at paths relative to its model; the read-model and runtime-status accumulators
//! take and give numbers.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::alloc::dispose;
use super::api::{batch, batch_tape, check, parse, parse_text, parse_wire_text};
use super::input::{with_input, with_words};
use super::tape::{tape_of, written};
use crate::contract::event::{check_carryable, empty_record, Ev, EvIndex, Js, Odd, OddOp};
use crate::contract::json::for_each_array_element;
use crate::contract::record::{EventRecord, MaybeRecord};
use crate::contract::val::{Obj, Val};
use crate::projection::collaboration::{build_collaboration_payload_metadata, CollabInput};
use crate::projection::patch::diff_patch;
use crate::projection::patch::ListChange;
use crate::projection::projector::{name_with_id, Named};
use crate::projection::read_model::{ClassFacts, ReadFacts, ReadModelAcc};
use crate::projection::runtime::{RuntimeStatusAcc, RuntimeStatusScan, StatusClass};
use crate::projection::state_delta::{DeltaList, Held, PassError, WholeStatePass};
use crate::projection::subagents::SubagentsAccumulator;
use crate::projection::{coding, tool_surface, view_rules};

/// The input buffer's JSON value.
fn input_value(len: usize) -> Result<Value, JsError> {
    with_input(len, parse)
}

/// One event from the input buffer, checked at the projection's boundary (what cannot be
/// carried is refused); with its text.
fn with_event<T>(len: usize, f: impl FnOnce(Value, &str) -> T) -> Result<T, JsError> {
    with_input(len, |text| {
        let event = parse(text)?;
        check_carryable(&event).map_err(|e| JsError::new(&e.message))?;
        Ok(f(event, text))
    })
}

// ---- read model -------------------------------------------------------------------------------

/// The read-model accumulator of `createAgentRuntimeReadModelAccumulator` and
/// `projectAgentRuntimeReadModel`, fed what it reads of each event as numbers (no JSON): the
/// JS side reads the caller's events, numbers their ids and refs (equal values, equal numbers)
/// and builds the projections from the events themselves.
///
/// An event's facts, as `apply` takes them (one event after another): its class code
/// ([`read_model_class`]), its surface (the position of the deciding rule in
/// `view_rules::SURFACE_RULES`, their number for the default), flags (1: an input-source
/// recovery, 2: a positive `payload.skillCount`), the numbers of its `id`, of a truthy
/// `actionId`, of a non-empty string `payload.resolvedFromEventId` and of a truthy `taskId` (0:
/// none), then its artifact refs and its evidence refs, each list as its length and numbers.
#[wasm_bindgen]
pub struct WasmReadModel {
    acc: ReadModelAcc,
    /// How many of each ref list the caller has.
    sent_refs: [usize; 3],
}

#[wasm_bindgen]
impl WasmReadModel {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmReadModel {
        WasmReadModel {
            acc: ReadModelAcc::new(Val::Undef),
            sent_refs: [0; 3],
        }
    }

    /// Apply the events the first `len` numbers of the word buffer describe
    /// ([`super::input::words_buffer`]); puts what changed since the last call in the word buffer
    /// and returns its address: whether it is an input-source recovery (0 or 1); the number of
    /// projections set, then each as its index, template and three codes (`Val::Made`); the
    /// visible projections' indices as a length and indices (-1: unchanged), the pending ones
    /// likewise; the refs each list gained (artifact, evidence, task), as a length and numbers.
    pub fn apply(&mut self, len: usize) -> usize {
        with_words(len, |facts| self.apply_facts(facts))
    }

    /// Forget every event.
    pub fn reset(&mut self) {
        *self = WasmReadModel::new();
    }
}

impl WasmReadModel {
    fn apply_facts(&mut self, facts: &[i32]) -> Vec<i32> {
        let number = |n: i32| Val::Num(f64::from(n));
        let some_key = |n: i32| (n != 0).then(|| number(n).key());
        let mut it = facts.iter().copied();
        while let Some(code) = it.next() {
            let class = ClassFacts::from_code(code as u16);
            let mut next = || it.next().unwrap_or(0);
            let rule = next() as u32 as usize;
            let surface = view_rules::SURFACE_RULES
                .get(rule)
                .map_or(view_rules::DEFAULT_SURFACE, |r| r.surface);
            let flags = next();
            let id = number(next()).key();
            let action = some_key(next());
            let resolved_from = some_key(next());
            let task = Some(next()).filter(|&n| n != 0).map(number);
            // A length is never more than what is left (`facts` bounds it up front).
            let mut refs = || -> Vec<Val> {
                let n = next() as u32 as usize;
                (0..n.min(facts.len())).map(|_| number(next())).collect()
            };
            let artifact_refs = refs();
            let evidence_refs = refs();
            let ext = u32::try_from(self.acc.projections.len()).unwrap_or(u32::MAX);
            let facts = ReadFacts {
                class,
                surface,
                count_positive: class.counted && flags & 2 != 0,
                recovery: flags & 1 != 0,
                id,
                action,
                resolved_from,
                artifact_refs,
                evidence_refs,
                task,
            };
            self.acc.apply(facts, ext);
        }
        self.changes()
    }

    fn changes(&mut self) -> Vec<i32> {
        let acc = &mut self.acc;
        let int = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
        let [visible, pending, _] = acc.take_dirty();
        let mut out = Vec::with_capacity(64);
        out.push(i32::from(acc.input_source_recovery));
        // The events list is only ever appended to or set slot by slot (never sent whole).
        let set = match acc.t_events.take(acc.projections.len()) {
            ListChange::Slots { idx, .. } => idx,
            _ => Vec::new(),
        };
        let start = out.len();
        out.push(0);
        for i in set {
            // Every projection is made by a template.
            if let Some(Val::Made(made)) = acc.projections.get(i) {
                out.push(int(i));
                out.push(i32::from(made.template));
                out.extend(made.codes.map(i32::from));
            }
        }
        let made = int((out.len() - start - 1) / 5);
        if let Some(slot) = out.get_mut(start) {
            *slot = made;
        }
        let mut list = |changed: bool, indices: &mut dyn Iterator<Item = usize>| {
            if changed {
                let start = out.len();
                out.push(0);
                out.extend(indices.map(int));
                let n = int(out.len() - start - 1);
                if let Some(slot) = out.get_mut(start) {
                    *slot = n;
                }
            } else {
                out.push(-1);
            }
        };
        list(visible, &mut acc.visible_indices().iter().copied());
        list(pending, &mut acc.pending_indices());
        for (set, sent) in [&acc.artifact_refs, &acc.evidence_refs, &acc.task_refs]
            .into_iter()
            .zip(&mut self.sent_refs)
        {
            let new = set.items.get(*sent..).unwrap_or_default();
            out.push(int(new.len()));
            out.extend(new.iter().map(|v| match v {
                Val::Num(n) => *n as i32,
                _ => 0,
            }));
            *sent = set.items.len();
        }
        out
    }
}

/// The read model's class code of an event's `eventClass` and `status` (each "" when not a
/// string): a pure function of the two, which the JS side keeps per pair.
#[wasm_bindgen]
pub fn read_model_class(event_class: &str, status: &str) -> u16 {
    ClassFacts::of(event_class, Some(status)).code()
}

/// Why the read model refuses the event in the input buffer (JSON), if it does: what cannot be
/// carried (with `strict`: what is outside the strict boundary), then where the reference throws
/// on it. For the events the JS side does not take as facts as they are (an `eventClass` or a
/// ref list of an odd type, a value that is no object) and, with `strict`, for every event.
#[wasm_bindgen]
pub fn read_model_event_error(len: usize, strict: bool) -> Result<Option<String>, JsError> {
    with_input(len, |text| {
        let event = parse(text)?;
        Ok(match check(&event, strict) {
            Err(e) => Some(e.message),
            Ok(()) => ReadModelAcc::check(Ev::of(&event))
                .err()
                .map(|o| o.to_string()),
        })
    })
}

// ---- runtime status ---------------------------------------------------------------------------

/// `createRuntimeStatusAccumulator()` (the reference's incremental algorithm). It takes what the
/// status reads of an event as numbers (its class code and the numbers the JS side gives its
/// ids; no JSON, no strings); the JS side builds the view from the event itself.
#[wasm_bindgen]
pub struct WasmRuntimeStatusAccumulator {
    inner: RuntimeStatusAcc<u32>,
}

#[wasm_bindgen]
impl WasmRuntimeStatusAccumulator {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmRuntimeStatusAccumulator {
        WasmRuntimeStatusAccumulator {
            inner: RuntimeStatusAcc::default(),
        }
    }

    /// Apply one event given by its class code ([`runtime_status_class`]) and the numbers the
    /// caller gives the values of its `id` (0 when the class pushes no candidate: then it is
    /// not read), its `actionId` when truthy and its `payload.resolvedFromEventId` when a
    /// non-empty string (0: none; equal values, equal numbers); returns the status (its
    /// position in `view_rules::RUNTIME_STATUSES`).
    pub fn apply(&mut self, class: u8, id: u32, action_id: u32, resolved_from: u32) -> u8 {
        let some = |n: u32| (n != 0).then_some(n);
        let status = self.inner.apply(
            StatusClass::from_code(class),
            id,
            some(action_id),
            some(resolved_from),
        );
        view_rules::runtime_status_code(status)
    }

    /// Forget everything.
    pub fn reset(&mut self) {
        self.inner = RuntimeStatusAcc::default();
    }
}

/// The runtime status accumulator's class code of an event's `eventClass` and `status` (each
/// "" when not a string): a pure function of the two, which the JS side keeps per pair.
#[wasm_bindgen]
pub fn runtime_status_class(event_class: &str, status: &str) -> u8 {
    StatusClass::of(event_class, Some(status)).code()
}

/// `runtimeStatusForEvents(events)`, fed one event at a time from the end of the stream (most
/// streams are decided by their last few events), each by what the status reads, as numbers (its
/// class code and the number the JS side gives its actionId in this scan); the JS side builds
/// the view from the last event.
#[wasm_bindgen]
pub struct WasmRuntimeStatusScan {
    inner: RuntimeStatusScan<u32>,
}

#[wasm_bindgen]
impl WasmRuntimeStatusScan {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmRuntimeStatusScan {
        WasmRuntimeStatusScan {
            inner: RuntimeStatusScan::default(),
        }
    }

    /// Start a new scan.
    pub fn reset(&mut self) {
        self.inner.reset();
    }

    /// The event before those fed so far (`events[at]`), by its class code
    /// ([`runtime_status_class`]), the number the caller gives its `actionId` when truthy (0:
    /// none; equal values, equal numbers), the kinds of its `status` and `eventClass` when they
    /// are values the reference's scan calls a string method on ([`odd_kind`]; 0 for a string or
    /// nothing) and, when one is, its `id` (`undefined` unless a string; for the error): the
    /// status once it decides it (its position in `view_rules::RUNTIME_STATUSES`), else -1.
    /// Throws where the reference throws on reaching the event.
    pub fn step(
        &mut self,
        class: u8,
        action_id: u32,
        at: u32,
        status_kind: u8,
        class_kind: u8,
        id: Option<String>,
    ) -> Result<i32, JsError> {
        let odd = || odd_kind("status", status_kind).or_else(|| odd_kind("eventClass", class_kind));
        let action_id = (action_id != 0).then_some(action_id);
        match self
            .inner
            .step_class(StatusClass::from_code(class), action_id, odd)
        {
            Ok(step) => Ok(step.map_or(-1, |s| i32::from(view_rules::runtime_status_code(s)))),
            Err(odd) => Err(JsError::new(&format!(
                "{}{odd}",
                name_with_id(id.as_deref(), Named::Listed(at as usize))
            ))),
        }
    }
}

/// Why the reference's status scan throws on a field of kind `kind`, as the wrapper reports it:
/// 1 a number, 2 a boolean, 3 an object, 4 an array (0: a string or nothing, no throw).
fn odd_kind(field: &'static str, kind: u8) -> Option<Odd> {
    let found = match kind {
        1 => Js::Num(0.0),
        2 => Js::Bool(false),
        3 => Js::Obj(empty_record()),
        4 => Js::Arr(&[]),
        _ => return None,
    };
    Some(Odd::new(field, found.type_name(), OddOp::StringMethod))
}

// ---- subagents --------------------------------------------------------------------------------

/// `createAgentUiSubagentsModelAccumulator()`.
#[wasm_bindgen]
pub struct WasmSubagentsAccumulator {
    inner: SubagentsAccumulator,
}

#[wasm_bindgen]
impl WasmSubagentsAccumulator {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmSubagentsAccumulator {
        WasmSubagentsAccumulator {
            inner: SubagentsAccumulator::new(),
        }
    }

    /// Apply one event (JSON in the input buffer); returns the patch (no ops when the event is
    /// not a subagent event).
    pub fn apply(&mut self, len: usize) -> Result<u32, JsError> {
        let inner = &mut self.inner;
        with_event(len, |event, _| {
            Ev::with_indexed(&event, |ev| inner.apply(ev))
        })?
        .map_err(|odd| JsError::new(&odd.to_string()))?;
        self.take_patch()
    }

    /// Forget everything; returns the patch (the whole model).
    pub fn reset(&mut self) -> Result<u32, JsError> {
        self.inner.reset();
        self.take_patch()
    }

    /// What changed since the previous patch (the whole model first), as a tape
    /// (`contract::tape`).
    pub fn take_patch(&mut self) -> Result<u32, JsError> {
        let patch = self.inner.take_patch();
        written(|tape| patch.write_to(tape, &|_| None))
    }
}

// ---- tool and MCP surfaces ----------------------------------------------------------------------

/// `projectAgentUiToolSurface(projections)`: the input buffer holds a JSON array of read-model
/// projections.
/// The result is a tape (`contract::tape`).
#[wasm_bindgen]
pub fn tool_surface(len: usize) -> Result<u32, JsError> {
    let surface = with_input(len, |text| {
        tool_surface::project_tool_surface(text).map_err(|e| {
            // What stopped it: the text's own error first, as when it is parsed whole.
            match parse(text) {
                Err(json) => json,
                Ok(Value::Array(_)) => JsError::new(&e),
                Ok(_) => JsError::new("Projections must be an array."),
            }
        })
    })?;
    tape_of(&surface)
}

/// `projectAgentUiMcpSurface(toolSurface)`: the input buffer holds the calls' `mcp` views
/// (`toolSurface.calls.map((call) => call.mcp)`); `Val::Event(i)` in the result (a tape) is view
/// `i`.
#[wasm_bindgen]
pub fn mcp_surface(len: usize) -> Result<u32, JsError> {
    let views = Val::from_json(&input_value(len)?);
    let surface = tool_surface::project_mcp_surface(&views).map_err(|e| JsError::new(&e))?;
    tape_of(&surface)
}

// ---- state deltas -----------------------------------------------------------------------------

/// The deltas of `applyAgentRuntimeStateDelta(s)ToProjectionState`, prepared from the events
/// in the input buffer (one event when `single`, else an array, to which `more` may add), then
/// run over the state.
#[wasm_bindgen]
pub struct WasmStateDeltaPass {
    /// A list's deltas while more of its events may come (`more`); made the pass when it is
    /// first asked for (`pass`).
    reading: Option<DeltaList>,
    inner: Option<WholeStatePass>,
}

impl WasmStateDeltaPass {
    fn pass(&mut self) -> Option<&WholeStatePass> {
        if let Some(list) = self.reading.take() {
            self.inner = Some(list.finish());
        }
        self.inner.as_ref()
    }
}

/// Push the events of the array in `text` to `list`, each read as a record as it comes; from an
/// item that is not a record (or null) on, the rest of the array is read whole, for its error or
/// its odd items. `first`: the index in the caller's list of the first event in `text` (errors
/// name events by their index there).
fn push_events(list: &mut DeltaList, text: &str, first: usize) -> Result<(), JsError> {
    let throws = |(i, odd): (usize, Odd)| {
        JsError::new(&format!("events[{}]: {odd}", first.saturating_add(i)))
    };
    let mut at = 0;
    let mut thrown = None;
    let read = for_each_array_element(text, |MaybeRecord(r), _| {
        let pushed = match &r {
            Some(r) => list.push(r.ev(&r.index())),
            None => list.push(Ev::new(empty_record())),
        };
        match pushed {
            Ok(()) => at += 1,
            Err(odd) => thrown = Some((at, odd)),
        }
        thrown.is_none()
    });
    if let Some(t) = thrown {
        return Err(throws(t));
    }
    if read {
        return Ok(());
    }
    let Value::Array(events) = parse(text)? else {
        return Err(JsError::new("Runtime events must be an array."));
    };
    list.push_values(events.get(at..).unwrap_or_default())
        .map_err(|(i, odd)| throws((at.saturating_add(i), odd)))
}

#[wasm_bindgen]
impl WasmStateDeltaPass {
    /// `first`: the index in the caller's list of the first event in the buffer (errors name
    /// events by their index there).
    #[wasm_bindgen(constructor)]
    pub fn new(len: usize, single: bool, first: usize) -> Result<WasmStateDeltaPass, JsError> {
        with_input(len, |text| {
            if single {
                // Read as a record (its strings borrowed); a text that is not an event object
                // is parsed for its error, or read as the value it is.
                let inner = match EventRecord::parse(text) {
                    Some(r) => WholeStatePass::of_event(r.ev(&r.index())),
                    None => WholeStatePass::of_event(Ev::of(&parse(text)?)),
                };
                return Ok(WasmStateDeltaPass {
                    reading: None,
                    inner,
                });
            }
            let mut list = DeltaList::default();
            push_events(&mut list, text, first)?;
            Ok(WasmStateDeltaPass {
                reading: Some(list),
                inner: None,
            })
        })
    }

    /// The areas of the list's deltas not superseded yet, as a JSON array of their names
    /// (`DeltaList::later_areas`; `[]` when there is no list): the caller's later events matter
    /// only while there is one, and only by the fields the view rules' `areaReads` give for it.
    pub fn later_areas(&self) -> String {
        self.reading
            .as_ref()
            .map_or_else(|| "[]".into(), DeltaList::later_areas)
    }

    /// Read the next events of the list from the input buffer (an array; `first`, the index of
    /// its first event in the caller's list). Returns `later_areas` after them.
    pub fn more(&mut self, len: usize, first: usize) -> Result<String, JsError> {
        let Some(list) = self.reading.as_mut() else {
            return Err(JsError::new(
                "internal error: the delta pass reads no more events",
            ));
        };
        with_input(len, |text| push_events(list, text, first))?;
        Ok(list.later_areas())
    }

    /// Whether there is nothing to apply (not a `state.delta` event; no delta in the list).
    pub fn is_empty(&mut self) -> bool {
        self.pass().map_or(true, WholeStatePass::is_empty)
    }

    /// What of the state the pass needs (`WholeStatePass::needed_json`). `diagnostics` is in
    /// it whole only `with_diagnostics` (a failing delta writes it; `run` asks for it when it
    /// does).
    pub fn needed(&mut self, with_diagnostics: bool) -> String {
        match self.pass() {
            Some(p) => p.needed_json(with_diagnostics),
            None => "[]".into(),
        }
    }

    /// Run over the state in the input buffer (wire-encoded; what is not needed may be
    /// placeholders), then a line feed and what the placeholders of items the re-sync reads
    /// hold: `[index, {member: value, ...}, ...]` (`state_delta::Held`). Returns a tape of
    /// `{applied, error, patch}`: `patch` turns the given state into the result (docs/design.md,
    /// "Patch protocol"); or of `{retry: true}` when a delta failed and the state's
    /// `diagnostics` was a placeholder (run again with it).
    pub fn run(&mut self, len: usize) -> Result<u32, JsError> {
        let Some(pass) = self.pass() else {
            return Err(JsError::new("Nothing to apply."));
        };
        // In the batch arena: the state and what the pass makes of it are forgotten at the end.
        let mut at = Ok(0);
        batch(len, 0, |text, _, arena| {
            let Some((text, held_text)) = text.split_once('\n') else {
                return Err("Expected the state and what its placeholders hold.".to_string());
            };
            let state = parse_wire_text(text)?;
            let held = held_members(&parse_wire_text(held_text)?)?;
            let done = match pass.run(&state, &held) {
                Ok(out) => {
                    let patch = diff_patch(&state, &out.state);
                    at = written(|tape| {
                        tape.clear();
                        tape.append_by(&|_| None, |w| {
                            w.object(3)?;
                            w.static_name("applied")?;
                            w.value(&Val::Bool(out.applied))?;
                            w.static_name("error")?;
                            match &out.error {
                                Some(e) => w.string(e)?,
                                None => w.value(&Val::Null)?,
                            }
                            w.static_name("patch")?;
                            patch.write_tape(w)
                        })
                    });
                    dispose(arena, (out, patch));
                    Ok(())
                }
                Err(PassError::NeedsDiagnostics) => {
                    at = tape_of(&Obj::new().k("retry", Val::Bool(true)).into_val());
                    Ok(())
                }
                Err(PassError::Throws(e)) => Err(e),
            };
            dispose(arena, (state, held));
            done
        })?;
        at
    }
}

/// [`Held`] of its JSON form, `[index, {member: value, ...}, ...]`.
fn held_members(v: &Val) -> Result<Held, String> {
    let bad = || "Expected pairs of a placeholder's index and its members.".to_string();
    let list = v.as_arr().ok_or_else(bad)?;
    let mut held = Held::default();
    for pair in list.chunks(2) {
        let [Val::Num(i), Val::Obj(members)] = pair else {
            return Err(bad());
        };
        if !(i.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(i)) {
            return Err(bad());
        }
        held.insert(*i as u32, members.clone());
    }
    Ok(held)
}

// ---- coding -----------------------------------------------------------------------------------

/// `projectCodingWorkbenchView(state, codingReadModel)`: the input buffer holds the state,
/// `[codingReadModel, refs]` and `sources`, each after a line feed from the one before (JSON
/// text has no raw line feed): the state wire-encoded (its read model is not read), `sources` the read model's events (`state.readModel.events[i].source`; those a coding
/// view cannot read may be null), the coding read model or null, and where the state's own
/// objects the view hands back are in the caller's list (`coding::StateRefs`: the positions of
/// `runtime` and `actions`). `Val::Event(i)` stands for entry `i` of that list, whose first
/// entries are `sources`. Runs in the batch arena; the result is a tape (`contract::tape`).
#[wasm_bindgen]
pub fn coding_view(len: usize) -> Result<u32, JsError> {
    batch_tape(len, |text, arena| {
        let mut parts = text.splitn(3, '\n');
        let (state_text, head, sources_text) = (parts.next(), parts.next(), parts.next());
        let expected =
            || "Expected the state, [codingReadModel, refs] and the sources.".to_string();
        let (Some(state_text), Some(head), Some(sources_text)) = (state_text, head, sources_text)
        else {
            return Err(expected());
        };
        let state = parse_wire_text(state_text)?;
        let input = parse_text(head)?;
        let (Some(rm), Some(refs)) = (input.get(0), input.get(1)) else {
            return Err(expected());
        };
        // The sources read as records, one at a time (`None`: null, an event the view cannot
        // read).
        let mut sources = Vec::new();
        if !for_each_array_element(sources_text, |MaybeRecord(r), _| {
            sources.push(r);
            true
        }) {
            parse_text(sources_text)?;
            return Err("The coding view's sources must be event objects or null.".to_string());
        }
        let at = |i: usize| {
            refs.get(i)
                .and_then(Value::as_u64)
                .and_then(|x| u32::try_from(x).ok())
        };
        let refs = at(0)
            .zip(at(1))
            .map(|(runtime, actions)| coding::StateRefs { runtime, actions });
        // Each event's fields located once: the view reads many of them, several times.
        let none = EvIndex::new(empty_record());
        let indexes: Vec<Option<EvIndex<'_>>> = sources
            .iter()
            .map(|r| r.as_ref().map(EventRecord::index))
            .collect();
        let src: Vec<Ev<'_>> = sources
            .iter()
            .zip(&indexes)
            .map(|(r, ix)| match (r, ix) {
                (Some(r), Some(ix)) => r.ev(ix),
                _ => Ev::indexed(empty_record(), &none),
            })
            .collect();
        let view = coding::project_coding_workbench_view_of(
            &state,
            &src,
            Some(rm),
            &coding::single_event_actions,
            refs,
        );
        dispose(arena, (src, state));
        dispose(arena, indexes);
        dispose(arena, none);
        dispose(arena, sources);
        dispose(arena, input);
        Ok(view)
    })
}

/// `projectCodingWorkbenchViewFromEvents(input)`; `Val::Event(i)` is `input.executionEvents[i]`.
/// The result is a tape (`contract::tape`).
#[wasm_bindgen]
pub fn coding_view_from_events(len: usize) -> Result<u32, JsError> {
    batch_tape(len, |text, arena| {
        let input = parse_text(text)?;
        let view = coding::project_coding_workbench_view_from_events(&input)?;
        dispose(arena, input);
        Ok(view)
    })
}

// ---- collaboration ----------------------------------------------------------------------------

/// `buildAgentUiCollaborationPayloadMetadata(input)`: the input buffer holds the input object.
/// A named field that is neither a string nor absent reads as absent. The result is a tape.
#[wasm_bindgen]
pub fn collaboration_metadata(len: usize) -> Result<u32, JsError> {
    let input = input_value(len)?;
    let s = |k: &str| input.get(k).and_then(Value::as_str);
    let metadata = CollabInput {
        source_type: s("sourceType"),
        collaboration_kind: s("collaborationKind"),
        surface: s("surface"),
        phase: s("phase"),
        status: s("status"),
        runtime_entity: s("runtimeEntity"),
        runtime_status: s("runtimeStatus"),
        latest_turn_status: s("latestTurnStatus"),
        task_id: s("taskId"),
        agent_id: s("agentId"),
        parent_thread_id: s("parentThreadId"),
        transcript_ref: s("transcriptRef"),
        handoff_id: s("handoffId"),
        style_level: s("styleLevel"),
        risk_level: s("riskLevel"),
        tone_variant: s("toneVariant"),
        profile_id: s("profileId"),
        pack_id: s("packId"),
        metadata: input.get("metadata"),
        payload: input.get("payload"),
    };
    tape_of(&build_collaboration_payload_metadata(&metadata))
}

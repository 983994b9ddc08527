//! Bindings of the projection's views taken one at a time: the read-model, runtime-status and
//! subagents accumulators, the tool and MCP surfaces, runtime status and state deltas over a
//! list, the coding workbench view and the collaboration metadata builder. (The per-event rule
//! tables the JS wrapper evaluates itself are written into the package by its build:
//! `projection::view_rules::rules_json`.)
//!
//! Inputs are read from the input buffer (see [`super::input`]); values that may hold
//! `undefined` or stand for objects the caller keeps (a projection state) arrive wire-encoded
//! (`Val::from_wire_json`). Accumulators answer with patches (docs/design.md, "Patch protocol")
//! at paths relative to their model.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::alloc::dispose;
use super::api::{batch, parse, parse_text, source_count};
use super::input::with_input;
use crate::contract::event::{check_carryable, empty_record, Ev, Js, Odd, OddOp};
use crate::contract::val::Val;
use crate::projection::collaboration::{build_collaboration_payload_metadata, CollabInput};
use crate::projection::patch::{diff_patch, Patch};
use crate::projection::projector::{name_with_id, Named};
use crate::projection::read_model::ReadModelAccumulator;
use crate::projection::runtime::{RuntimeStatusAcc, RuntimeStatusScan, StatusClass};
use crate::projection::state_delta::{PassError, WholeStatePass};
use crate::projection::subagents::SubagentsAccumulator;
use crate::projection::{coding, tool_surface, view_rules};

fn wire(v: &Val) -> String {
    let mut s = String::new();
    v.write_json(&mut s);
    s
}

/// A view's patch as text. It is usually a few hundred bytes, so its text starts at the largest
/// size the allocator serves from its small-block caches (`alloc::SMALL_MAX`) rather than at the
/// projector's patch capacity, which goes through talc's general path on every call.
fn patch_text(p: &Patch) -> String {
    let mut s = String::with_capacity(crate::wasm::alloc::SMALL_MAX);
    p.write_json(&mut s);
    s
}

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

/// `createAgentRuntimeReadModelAccumulator(sourceCount)`; `Val::Event(i)` in its patches is the
/// `i`-th event applied since construction or the last `reset`.
#[wasm_bindgen]
pub struct WasmReadModelAccumulator {
    inner: ReadModelAccumulator,
}

#[wasm_bindgen]
impl WasmReadModelAccumulator {
    /// `source_count_json`: JSON text of the source count, `None` when it is absent.
    #[wasm_bindgen(constructor)]
    pub fn new(source_count_json: Option<String>) -> Result<WasmReadModelAccumulator, JsError> {
        Ok(WasmReadModelAccumulator {
            inner: ReadModelAccumulator::new(source_count(source_count_json)?),
        })
    }

    /// Apply one event (JSON in the input buffer); returns the patch. A malformed event throws
    /// and changes nothing.
    pub fn apply(&mut self, len: usize) -> Result<String, JsError> {
        let inner = &mut self.inner;
        with_event(len, |event, text| inner.apply(event, Some(text)))?
            .map_err(|odd| JsError::new(&odd.to_string()))?;
        Ok(patch_text(&self.inner.take_patch()))
    }

    /// Forget every event; returns the patch (the whole model).
    pub fn reset(&mut self, source_count_json: Option<String>) -> Result<String, JsError> {
        self.inner.reset(source_count(source_count_json)?);
        Ok(patch_text(&self.inner.take_patch()))
    }

    /// What changed since the previous patch (the whole model first).
    pub fn take_patch(&mut self) -> String {
        patch_text(&self.inner.take_patch())
    }

    /// The projections on `surface`, wire-encoded.
    pub fn surface_events(&self, surface: &str) -> String {
        wire(&self.inner.surface_events(surface))
    }
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
    pub fn apply(&mut self, len: usize) -> Result<String, JsError> {
        let inner = &mut self.inner;
        with_event(len, |event, _| {
            Ev::with_indexed(&event, |ev| inner.apply(ev))
        })?
        .map_err(|odd| JsError::new(&odd.to_string()))?;
        Ok(patch_text(&self.inner.take_patch()))
    }

    /// Forget everything; returns the patch (the whole model).
    pub fn reset(&mut self) -> String {
        self.inner.reset();
        patch_text(&self.inner.take_patch())
    }

    /// What changed since the previous patch (the whole model first).
    pub fn take_patch(&mut self) -> String {
        patch_text(&self.inner.take_patch())
    }
}

// ---- tool and MCP surfaces ----------------------------------------------------------------------

/// `projectAgentUiToolSurface(projections)`: the input buffer holds a JSON array of read-model
/// projections.
#[wasm_bindgen]
pub fn tool_surface_json(len: usize) -> Result<String, JsError> {
    let Value::Array(items) = input_value(len)? else {
        return Err(JsError::new("Projections must be an array."));
    };
    tool_surface::project_tool_surface(&items)
        .map(|v| wire(&v))
        .map_err(|e| JsError::new(&e))
}

/// `projectAgentUiMcpSurface(toolSurface)`: the input buffer holds the calls' `mcp` views
/// (`toolSurface.calls.map((call) => call.mcp)`); `Val::Event(i)` in the result is view `i`.
#[wasm_bindgen]
pub fn mcp_surface_json(len: usize) -> Result<String, JsError> {
    let views = Val::from_json(&input_value(len)?);
    tool_surface::project_mcp_surface(&views)
        .map(|v| wire(&v))
        .map_err(|e| JsError::new(&e))
}

// ---- state deltas -----------------------------------------------------------------------------

/// The deltas of `applyAgentRuntimeStateDelta(s)ToProjectionState`, prepared from the events
/// in the input buffer (one event when `single`, else an array), then run over the state.
#[wasm_bindgen]
pub struct WasmStateDeltaPass {
    inner: Option<WholeStatePass>,
}

#[wasm_bindgen]
impl WasmStateDeltaPass {
    /// `first`: the index in the caller's list of the first event in the buffer (errors name
    /// events by their index there).
    #[wasm_bindgen(constructor)]
    pub fn new(len: usize, single: bool, first: usize) -> Result<WasmStateDeltaPass, JsError> {
        let input = input_value(len)?;
        let inner = if single {
            WholeStatePass::of_event(&input)
        } else {
            let Value::Array(events) = input else {
                return Err(JsError::new("Runtime events must be an array."));
            };
            Some(WholeStatePass::of_events(&events).map_err(|(i, odd)| {
                JsError::new(&format!("events[{}]: {odd}", first.saturating_add(i)))
            })?)
        };
        Ok(WasmStateDeltaPass { inner })
    }

    /// Whether there is nothing to apply (not a `state.delta` event; no delta in the list).
    pub fn is_empty(&self) -> bool {
        match &self.inner {
            None => true,
            Some(p) => p.is_empty(),
        }
    }

    /// The state keys the pass needs: `{"keys": [...], "partial": {<key>: [...]}}`: keys needed
    /// whole, and keys of which only the listed keys are needed. `diagnostics` is among them
    /// only `with_diagnostics` (a failing delta writes it; `run` asks for it when it does).
    pub fn needed(&self, with_diagnostics: bool) -> String {
        match &self.inner {
            Some(p) => p.needed_json(with_diagnostics),
            None => "{\"keys\":[],\"partial\":{}}".into(),
        }
    }

    /// Run over the state in the input buffer (wire-encoded; keys not needed may be
    /// placeholders). Returns `{"applied", "error", "patch"}`: `patch` turns the given state
    /// into the result (docs/design.md, "Patch protocol"); or `{"retry": true}` when a delta
    /// failed and the state's `diagnostics` was a placeholder (run again with it).
    pub fn run(&self, len: usize) -> Result<String, JsError> {
        let Some(pass) = &self.inner else {
            return Err(JsError::new("Nothing to apply."));
        };
        // In the batch arena: the state and what the pass makes of it are forgotten at the end.
        batch(len, 256, |text, s, arena| {
            let parsed = parse_text(text)?;
            let state = Val::from_wire_json(&parsed);
            dispose(arena, parsed);
            let done = match pass.run(&state) {
                Ok(out) => {
                    s.push_str("{\"applied\":");
                    s.push_str(if out.applied { "true" } else { "false" });
                    s.push_str(",\"error\":");
                    match &out.error {
                        Some(e) => crate::contract::val::write_wire_str(e, s),
                        None => s.push_str("null"),
                    }
                    s.push_str(",\"patch\":");
                    diff_patch(&state, &out.state).write_json(s);
                    s.push('}');
                    dispose(arena, out);
                    Ok(())
                }
                Err(PassError::NeedsDiagnostics) => {
                    s.push_str("{\"retry\":true}");
                    Ok(())
                }
                Err(PassError::Throws(e)) => Err(e),
            };
            dispose(arena, state);
            done
        })
    }
}

// ---- coding -----------------------------------------------------------------------------------

/// `projectCodingWorkbenchView(state, codingReadModel)`: the input buffer holds
/// `[state, sources, codingReadModel, refs]`: the state wire-encoded (its read model is not
/// read), `sources` the read model's events (`state.readModel.events[i].source`; those a coding
/// view cannot read may be null), the coding read model or null, and where the state's own
/// objects the view hands back are in the caller's list (`coding::StateRefs`: the positions of
/// `runtime` and `actions`). `Val::Event(i)` stands for entry `i` of that list, whose first
/// entries are `sources`. Runs in the batch arena.
#[wasm_bindgen]
pub fn coding_view_json(len: usize) -> Result<String, JsError> {
    batch(len, 1024, |text, out, arena| {
        let input = parse_text(text)?;
        let (Some(state), Some(Value::Array(sources)), Some(rm), Some(refs)) =
            (input.get(0), input.get(1), input.get(2), input.get(3))
        else {
            return Err("Expected [state, sources, codingReadModel, refs].".to_string());
        };
        let at = |i: usize| {
            refs.get(i)
                .and_then(Value::as_u64)
                .and_then(|x| u32::try_from(x).ok())
        };
        let refs = at(0)
            .zip(at(1))
            .map(|(runtime, actions)| coding::StateRefs { runtime, actions });
        let state = Val::from_wire_json(state);
        let src: Vec<Ev<'_>> = sources.iter().map(Ev::of).collect();
        let view = coding::project_coding_workbench_view_of(
            &state,
            &src,
            Some(rm),
            &coding::single_event_actions,
            refs,
        );
        view.write_json(out);
        dispose(arena, (view, src, state));
        dispose(arena, input);
        Ok(())
    })
}

/// `projectCodingWorkbenchViewFromEvents(input)`; `Val::Event(i)` is `input.executionEvents[i]`.
#[wasm_bindgen]
pub fn coding_view_from_events_json(len: usize) -> Result<String, JsError> {
    batch(len, 1024, |text, out, arena| {
        let input = parse_text(text)?;
        let view = coding::project_coding_workbench_view_from_events(&input)?;
        view.write_json(out);
        dispose(arena, (view, input));
        Ok(())
    })
}

// ---- collaboration ----------------------------------------------------------------------------

/// `buildAgentUiCollaborationPayloadMetadata(input)`: the input buffer holds the input object.
/// A named field that is neither a string nor absent reads as absent.
#[wasm_bindgen]
pub fn collaboration_metadata_json(len: usize) -> Result<String, JsError> {
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
    Ok(wire(&build_collaboration_payload_metadata(&metadata)))
}

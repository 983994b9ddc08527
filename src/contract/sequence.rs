//! The runtime sequence verifier: a per-turn state machine over a stream of events that
//! reports pairing and closure breaches (21 codes; `model_unclosed_at_turn_end` is declared by
//! the contract but never produced).
//!
//! It reports only breaches, never incompleteness: a stream that simply stops with open
//! scopes is legal. Each event costs work proportional to the event itself plus the scopes a
//! turn terminal closes.
//!
//! Values are compared the way the reference's JS `Map`s and `Set`s compare them: string ids
//! by content, numbers by value, and object or array ids by identity (so two events never
//! share one). Interpolated values print as JS `String(v)` does.

use super::fxhash::{HashMap, HashSet};

use super::order::OrdMap;

use serde_json::{Map, Value};

use super::event::Js;
use super::js::js_value_to_string;
use super::terminal::is_runtime_turn_terminal_event_class;
use super::val::{drop_deep, Obj, Val};

/// The key of the turn an event without a `turnId` belongs to.
pub const DEFAULT_TURN_KEY: &str = "__default_turn__";

/// Every violation code the contract declares, in its published order.
pub const SEQUENCE_VIOLATION_CODES: [&str; 21] = [
    "duplicate_event_id",
    "tool_result_without_start",
    "tool_failed_without_start",
    "tool_started_already_active",
    "tool_unclosed_at_turn_end",
    "patch_terminal_without_start",
    "patch_started_already_active",
    "patch_unclosed_at_turn_end",
    "command_output_without_start",
    "command_exited_without_start",
    "command_started_already_active",
    "command_unclosed_at_turn_end",
    "test_completed_without_start",
    "test_started_already_active",
    "test_unclosed_at_turn_end",
    "action_resolved_without_request",
    "action_required_already_active",
    "action_unresolved_at_turn_end",
    "model_unclosed_at_turn_end",
    "execution_after_turn_terminal",
    "turn_terminal_repeated",
];

/// One breach of the sequence rules (`RuntimeSequenceViolation`).
#[derive(Clone, Debug)]
pub struct Violation {
    pub code: &'static str,
    /// The triggering event's `id`, as given (`Undef` when absent).
    pub event_id: Val,
    /// The scope concerned: `None` leaves the `scopeId` key out (the reference's duplicate-id
    /// and repeated-terminal violations have none); `Some(Undef)` is an own key holding
    /// `undefined` (a scope read from the event that it does not carry).
    pub scope_id: Option<Val>,
    /// The triggering event's `turnId`, as given (`Undef` when absent).
    pub turn_id: Val,
    pub message: String,
}

impl Violation {
    /// `{code, eventId, scopeId, turnId, message}`; `turnId` is present even when `undefined`,
    /// `scopeId` whenever the violation names a scope (as in the reference).
    pub fn to_val(&self) -> Val {
        let mut o = Obj::with_capacity(5)
            .k("code", Val::str(self.code))
            .k("eventId", self.event_id.clone());
        if let Some(scope) = &self.scope_id {
            o.push("scopeId", scope.clone());
        }
        o.k("turnId", self.turn_id.clone())
            .k("message", Val::str(&self.message))
            .into_val()
    }
}

impl Drop for Violation {
    fn drop(&mut self) {
        drop_deep(std::mem::take(&mut self.event_id));
        if let Some(v) = self.scope_id.take() {
            drop_deep(v);
        }
        drop_deep(std::mem::take(&mut self.turn_id));
    }
}

/// All violations as a JS array.
pub fn violations_to_val(violations: &[Violation]) -> Val {
    Val::arr(violations.iter().map(Violation::to_val).collect())
}

/// A JS `Map`/`Set` key (SameValueZero): strings and numbers by value, objects by identity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum JsKey {
    Str(String),
    Num(u64),
    Bool(bool),
    Null,
    Identity(u64),
}

/// A value as given: its map key, the value itself and its `String(v)` rendering.
struct Keyed<'a> {
    key: JsKey,
    src: &'a Value,
    text: String,
}

/// Open scopes of one kind, iterated in opening order (JS `Map` insertion order).
#[derive(Default)]
struct OpenScopes {
    slot_of: HashMap<JsKey, usize>,
    by_slot: OrdMap<usize, (Val, String, String)>,
    next_slot: usize,
}

impl OpenScopes {
    fn contains(&self, k: &JsKey) -> bool {
        self.slot_of.contains_key(k)
    }

    fn open(&mut self, scope: Keyed<'_>, opener_text: String) {
        let slot = self.next_slot;
        self.next_slot = self.next_slot.saturating_add(1);
        self.slot_of.insert(scope.key, slot);
        self.by_slot
            .insert(slot, (Val::from_json(scope.src), scope.text, opener_text));
    }

    fn close(&mut self, k: &JsKey) {
        if let Some(slot) = self.slot_of.remove(k) {
            if let Some((v, _, _)) = self.by_slot.remove(slot) {
                drop_deep(v);
            }
        }
    }

    /// Take every open scope, in opening order, leaving the set empty.
    fn drain(&mut self) -> Vec<(Val, String, String)> {
        self.slot_of.clear();
        std::mem::take(&mut self.by_slot).into_values()
    }
}

impl Drop for OpenScopes {
    fn drop(&mut self) {
        for (v, _, _) in std::mem::take(&mut self.by_slot).into_values() {
            drop_deep(v);
        }
    }
}

#[derive(Default)]
struct TurnState {
    tools: OpenScopes,
    patches: OpenScopes,
    commands: OpenScopes,
    tests: OpenScopes,
    actions: OpenScopes,
    /// Tracked like the reference does, never reported.
    model_streaming: bool,
    terminal: bool,
}

/// Incremental verifier (`createRuntimeSequenceVerifier`).
#[derive(Default)]
pub struct SequenceVerifier {
    seen_ids: HashSet<String>,
    turns: HashMap<JsKey, TurnState>,
    violations: Vec<Violation>,
    next_identity: u64,
}

/// The scope families with a start / terminal lifecycle keyed by a payload id or the tool call.
#[derive(Clone, Copy)]
enum Family {
    Patch,
    Command,
    Test,
}

impl SequenceVerifier {
    pub fn new() -> Self {
        Self::default()
    }

    /// All violations so far (`getViolations()` / `finalize()`, which add nothing).
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Feed one event; returns the violations this event produced. A non-object is read as
    /// an event with no fields.
    pub fn push(&mut self, ev: &Value) -> Vec<Violation> {
        let before = self.violations.len();
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        let rec = ev
            .as_object()
            .unwrap_or_else(|| EMPTY.get_or_init(Map::new));
        self.step(rec);
        self.violations.get(before..).unwrap_or_default().to_vec()
    }

    fn keyed<'a>(&mut self, v: &'a Value) -> Keyed<'a> {
        let key = match v {
            Value::String(s) => JsKey::Str(s.clone()),
            Value::Number(n) => {
                let x = n.as_f64().unwrap_or(0.0);
                JsKey::Num(if x == 0.0 { 0 } else { x.to_bits() })
            }
            Value::Bool(b) => JsKey::Bool(*b),
            Value::Null => JsKey::Null,
            Value::Array(_) | Value::Object(_) => {
                self.next_identity += 1;
                JsKey::Identity(self.next_identity)
            }
        };
        Keyed {
            key,
            src: v,
            text: js_value_to_string(v),
        }
    }

    fn step(&mut self, ev: &Map<String, Value>) {
        // Output values are built only when a violation is reported.
        let id_val = || ev.get("id").map(Val::from_json).unwrap_or(Val::Undef);
        let turn_val = || ev.get("turnId").map(Val::from_json).unwrap_or(Val::Undef);
        let id_text = ev
            .get("id")
            .map(js_value_to_string)
            .unwrap_or_else(|| "undefined".to_string());

        if let Some(Value::String(id)) = ev.get("id") {
            if !id.is_empty() && !self.seen_ids.insert(id.clone()) {
                self.violations.push(Violation {
                    code: "duplicate_event_id",
                    event_id: id_val(),
                    scope_id: None,
                    turn_id: turn_val(),
                    message: format!(
                        "Runtime event id '{id}' appears more than once in the stream."
                    ),
                });
            }
        }

        let class = match ev.get("eventClass") {
            Some(Value::String(s)) => s.as_str(),
            _ => "",
        };
        // `turnId ?? "__default_turn__"`
        let turn = match ev.get("turnId") {
            None | Some(Value::Null) => Keyed {
                key: JsKey::Str(DEFAULT_TURN_KEY.to_string()),
                src: &Value::Null,
                text: DEFAULT_TURN_KEY.to_string(),
            },
            Some(t) => self.keyed(t),
        };
        let mk = |code: &'static str, scope_id: Option<Val>, message: String| Violation {
            code,
            event_id: id_val(),
            scope_id,
            turn_id: turn_val(),
            message,
        };

        let terminal_now = self
            .turns
            .get(&turn.key)
            .map(|t| t.terminal)
            .unwrap_or(false);
        if terminal_now && is_execution_stream_class(class) {
            // `toolCallId ?? actionId`
            let scope = match ev.get("toolCallId") {
                Some(v) if !v.is_null() => Val::from_json(v),
                _ => ev.get("actionId").map(Val::from_json).unwrap_or(Val::Undef),
            };
            let v = mk(
                "execution_after_turn_terminal",
                Some(scope),
                format!(
                    "Event '{class}' arrived after turn '{}' reached a terminal state.",
                    turn.text
                ),
            );
            self.violations.push(v);
            return;
        }

        let mut out: Vec<Violation> = Vec::new();
        match class {
            "patch.started" | "command.started" | "test.started" => {
                let fam = match class {
                    "patch.started" => Family::Patch,
                    "command.started" => Family::Command,
                    _ => Family::Test,
                };
                if let Some(scope) = self.family_scope(ev, fam) {
                    let state = self.turns.entry(turn.key.clone()).or_default();
                    let set = family_set(state, fam);
                    if set.contains(&scope.key) {
                        let (code, noun) = match fam {
                            Family::Patch => ("patch_started_already_active", "a patch"),
                            Family::Command => ("command_started_already_active", "a command"),
                            Family::Test => ("test_started_already_active", "a test run"),
                        };
                        out.push(mk(
                            code,
                            Some(Val::from_json(scope.src)),
                            format!(
                                "{class} for '{}' while {noun} with the same id is still active.",
                                scope.text
                            ),
                        ));
                    } else {
                        set.open(scope, id_text.clone());
                    }
                }
            }
            "patch.applied" | "patch.failed" | "command.exited" | "test.completed" => {
                let (fam, code, opener) = match class {
                    "command.exited" => (
                        Family::Command,
                        "command_exited_without_start",
                        "command.started",
                    ),
                    "test.completed" => {
                        (Family::Test, "test_completed_without_start", "test.started")
                    }
                    _ => (
                        Family::Patch,
                        "patch_terminal_without_start",
                        "patch.started",
                    ),
                };
                if let Some(scope) = self.family_scope(ev, fam) {
                    let state = self.turns.entry(turn.key.clone()).or_default();
                    let set = family_set(state, fam);
                    if set.contains(&scope.key) {
                        set.close(&scope.key);
                    } else {
                        out.push(mk(
                            code,
                            Some(Val::from_json(scope.src)),
                            format!("{class} for '{}' has no matching {opener}.", scope.text),
                        ));
                    }
                }
            }
            "command.output" => {
                if let Some(scope) = self.family_scope(ev, Family::Command) {
                    let state = self.turns.entry(turn.key.clone()).or_default();
                    if !state.commands.contains(&scope.key) {
                        out.push(mk(
                            "command_output_without_start",
                            Some(Val::from_json(scope.src)),
                            format!(
                                "command.output for '{}' has no matching command.started.",
                                scope.text
                            ),
                        ));
                    }
                }
            }
            "tool.started" | "action.required" => {
                let field = if class == "tool.started" {
                    "toolCallId"
                } else {
                    "actionId"
                };
                if let Some(Value::String(sid)) = ev.get(field) {
                    let state = self.turns.entry(turn.key.clone()).or_default();
                    let set = if class == "tool.started" {
                        &mut state.tools
                    } else {
                        &mut state.actions
                    };
                    let key = JsKey::Str(sid.clone());
                    if set.contains(&key) {
                        let (code, msg) = if class == "tool.started" {
                            (
                                "tool_started_already_active",
                                format!("tool.started for '{sid}' while a tool call with the same id is still active."),
                            )
                        } else {
                            (
                                "action_required_already_active",
                                format!("action.required for '{sid}' while an action with the same id is still pending."),
                            )
                        };
                        out.push(mk(code, Some(Val::str(sid)), msg));
                    } else {
                        set.open(
                            Keyed {
                                key,
                                src: ev.get(field).unwrap_or(&Value::Null),
                                text: sid.clone(),
                            },
                            id_text.clone(),
                        );
                    }
                }
            }
            "tool.result" | "tool.failed" => {
                if let Some(Value::String(sid)) = ev.get("toolCallId") {
                    let state = self.turns.entry(turn.key.clone()).or_default();
                    let key = JsKey::Str(sid.clone());
                    if state.tools.contains(&key) {
                        state.tools.close(&key);
                    } else {
                        let code = if class == "tool.result" {
                            "tool_result_without_start"
                        } else {
                            "tool_failed_without_start"
                        };
                        out.push(mk(
                            code,
                            Some(Val::str(sid)),
                            format!("{class} for '{sid}' has no matching tool.started."),
                        ));
                    }
                }
            }
            "action.resolved" | "action.cancelled" | "action.canceled" | "action.expired" => {
                if let Some(Value::String(sid)) = ev.get("actionId") {
                    let state = self.turns.entry(turn.key.clone()).or_default();
                    let key = JsKey::Str(sid.clone());
                    if state.actions.contains(&key) {
                        state.actions.close(&key);
                    } else {
                        out.push(mk(
                            "action_resolved_without_request",
                            Some(Val::str(sid)),
                            format!("action.resolved for '{sid}' has no matching action.required."),
                        ));
                    }
                }
            }
            "model.delta" => {
                self.turns
                    .entry(turn.key.clone())
                    .or_default()
                    .model_streaming = true;
            }
            "model.completed" | "model.failed" => {
                self.turns
                    .entry(turn.key.clone())
                    .or_default()
                    .model_streaming = false;
            }
            _ if is_runtime_turn_terminal_event_class(Some(class)) => {
                let state = self.turns.entry(turn.key.clone()).or_default();
                if state.terminal {
                    out.push(mk(
                        "turn_terminal_repeated",
                        None,
                        format!(
                            "Turn '{}' reached a terminal state more than once.",
                            turn.text
                        ),
                    ));
                } else {
                    let groups: [(&mut OpenScopes, &'static str, &str, &str); 5] = [
                        (
                            &mut state.tools,
                            "tool_unclosed_at_turn_end",
                            "tool.started",
                            "closed",
                        ),
                        (
                            &mut state.patches,
                            "patch_unclosed_at_turn_end",
                            "patch.started",
                            "closed",
                        ),
                        (
                            &mut state.commands,
                            "command_unclosed_at_turn_end",
                            "command.started",
                            "closed",
                        ),
                        (
                            &mut state.tests,
                            "test_unclosed_at_turn_end",
                            "test.started",
                            "closed",
                        ),
                        (
                            &mut state.actions,
                            "action_unresolved_at_turn_end",
                            "action.required",
                            "resolved",
                        ),
                    ];
                    for (set, code, opener, verb) in groups {
                        for (scope_val, scope_text, opener_id) in set.drain() {
                            out.push(mk(
                                code,
                                Some(scope_val),
                                format!(
                                    "{opener} '{scope_text}' (event '{opener_id}') was not {verb} before {class}."
                                ),
                            ));
                        }
                    }
                    state.terminal = true;
                    state.model_streaming = false;
                }
            }
            _ => {
                // Unknown or non-lifecycle class: the turn still exists (as in the reference).
                self.turns.entry(turn.key.clone()).or_default();
            }
        }
        self.violations.extend(out);
    }

    /// `payload[<family id>]` if a non-empty string, else `toolCallId` as given; `None` when
    /// that value is falsy in JS.
    fn family_scope<'a>(&mut self, ev: &'a Map<String, Value>, fam: Family) -> Option<Keyed<'a>> {
        let payload_key = match fam {
            Family::Patch => "patchId",
            Family::Command => "commandId",
            Family::Test => "testRunId",
        };
        let from_payload = ev
            .get("payload")
            .and_then(Value::as_object)
            .and_then(|p| p.get(payload_key))
            .filter(|v| matches!(v, Value::String(s) if !s.is_empty()));
        let v = from_payload.or_else(|| ev.get("toolCallId"))?;
        if !Js::of(Some(v)).truthy() {
            return None;
        }
        Some(self.keyed(v))
    }
}

fn family_set(state: &mut TurnState, fam: Family) -> &mut OpenScopes {
    match fam {
        Family::Patch => &mut state.patches,
        Family::Command => &mut state.commands,
        Family::Test => &mut state.tests,
    }
}

/// Classes that belong to a turn's execution stream and may not follow its terminal.
pub fn is_execution_stream_class(class: &str) -> bool {
    const PREFIXES: [&str; 10] = [
        "tool.",
        "file.",
        "patch.",
        "command.",
        "test.",
        "action.",
        "model.",
        "reasoning.",
        "permission.",
        "sandbox.",
    ];
    class == "context.resolved" || PREFIXES.iter().any(|p| class.starts_with(p))
}

/// `verifyRuntimeEventSequence`: push every event in order and return all violations.
pub fn verify_runtime_event_sequence(events: &[Value]) -> Vec<Violation> {
    let mut verifier = SequenceVerifier::new();
    for ev in events {
        verifier.push(ev);
    }
    std::mem::take(&mut verifier.violations)
}

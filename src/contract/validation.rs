//! Contract validators: runtime events, thread read models, projection states, conformance
//! fixtures and capability manifests.
//!
//! Every `collect_*` function takes any JSON value and a root path (`"$"` by default in the
//! JS API) and returns the issues in the contract's order: the order of the checks below,
//! array items in index order, and object members in JS own-key order for the secret scan.
//! Inputs come from JSON, so "absent" and "`undefined`" are the same thing; `null` is a
//! present value of the wrong type.
//!
//! Walks over caller-controlled nesting (payload and metadata values) are iterative; all
//! other checks follow the fixed shape of the contract, so their depth is bounded.

use serde_json::{Map, Value};

use super::constants::LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES;
pub(crate) use super::js::js_number_len;
use super::js::{has_content, is_integer, js_own_entries, json_stringify_measure, utf16_len};
use super::names;
use super::sequence::SequenceVerifier;
use super::terminal::is_legacy_runtime_turn_terminal_event_class;
use super::val::{Obj, Val};

/// Largest inline payload (UTF-16 units of its JSON text) before `large_payload_inline`.
pub const MAX_INLINE_PAYLOAD_UNITS: usize = 32_000;
/// Largest ref-view `preview` (UTF-16 units) before `large_payload_inline`.
pub const MAX_REF_PREVIEW_UNITS: usize = 512;

/// One validation finding (`AgentUiContractValidationIssue`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// One of `schema_mismatch`, `missing_scope_id`, `sequence_gap`, `sequence_violation`,
    /// `secret_leak_risk`, `large_payload_inline` (`unknown_event_type` is never produced).
    pub code: &'static str,
    pub path: String,
    pub message: String,
}

impl Issue {
    fn new(code: &'static str, path: String, message: impl Into<String>) -> Issue {
        Issue {
            code,
            path,
            message: message.into(),
        }
    }

    /// `{code, path, message}` in that key order.
    pub fn to_val(&self) -> Val {
        Obj::new()
            .k("code", Val::str(self.code))
            .k("path", Val::str(&self.path))
            .k("message", Val::str(&self.message))
            .into_val()
    }
}

/// The message of `AgentUiContractValidationError`: `"<path>: <message>"` joined by `"; "`.
pub fn issues_message(issues: &[Issue]) -> String {
    let mut out = String::new();
    for (i, issue) in issues.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        out.push_str(&issue.path);
        out.push_str(": ");
        out.push_str(&issue.message);
    }
    out
}

/// All issues as a JS array of issue objects.
pub fn issues_to_val(issues: &[Issue]) -> Val {
    Val::arr(issues.iter().map(Issue::to_val).collect())
}

const SCHEMA_MISMATCH: &str = "schema_mismatch";
const MISSING_SCOPE_ID: &str = "missing_scope_id";
const SEQUENCE_GAP: &str = "sequence_gap";
const SEQUENCE_VIOLATION: &str = "sequence_violation";
const SECRET_LEAK_RISK: &str = "secret_leak_risk";
const LARGE_PAYLOAD_INLINE: &str = "large_payload_inline";

type Rec = Map<String, Value>;

/// Issue sink with the shared primitive checks (all `schema_mismatch`).
struct Sink {
    issues: Vec<Issue>,
}

fn field_path(path: &str, field: &str) -> String {
    let mut p = String::with_capacity(path.len() + 1 + field.len());
    p.push_str(path);
    p.push('.');
    p.push_str(field);
    p
}

fn item_path(path: &str, field: &str, index: usize) -> String {
    format!("{path}.{field}[{index}]")
}

impl Sink {
    fn new() -> Sink {
        Sink { issues: Vec::new() }
    }

    fn push(&mut self, code: &'static str, path: String, message: impl Into<String>) {
        self.issues.push(Issue::new(code, path, message));
    }

    fn mismatch(&mut self, path: &str, field: &str, what: &str) {
        self.push(
            SCHEMA_MISMATCH,
            field_path(path, field),
            format!("{field} must be {what}"),
        );
    }

    fn req_string(&mut self, rec: &Rec, field: &str, path: &str) {
        match rec.get(field) {
            Some(Value::String(s)) if !s.is_empty() => {}
            _ => self.mismatch(path, field, "a non-empty string."),
        }
    }

    fn req_number(&mut self, rec: &Rec, field: &str, path: &str) {
        if !matches!(rec.get(field), Some(Value::Number(_))) {
            self.mismatch(path, field, "a number.");
        }
    }

    fn req_bool(&mut self, rec: &Rec, field: &str, path: &str) {
        if !matches!(rec.get(field), Some(Value::Bool(_))) {
            self.mismatch(path, field, "a boolean.");
        }
    }

    fn req_array(&mut self, rec: &Rec, field: &str, path: &str) {
        if !matches!(rec.get(field), Some(Value::Array(_))) {
            self.mismatch(path, field, "an array.");
        }
    }

    fn req_record(&mut self, rec: &Rec, field: &str, path: &str) {
        if !matches!(rec.get(field), Some(Value::Object(_))) {
            self.mismatch(path, field, "an object.");
        }
    }

    fn opt_string(&mut self, rec: &Rec, field: &str, path: &str) {
        match rec.get(field) {
            None | Some(Value::String(_)) => {}
            Some(_) => self.mismatch(path, field, "a string."),
        }
    }

    fn opt_number(&mut self, rec: &Rec, field: &str, path: &str) {
        if rec.contains_key(field) {
            self.req_number(rec, field, path);
        }
    }

    fn opt_bool(&mut self, rec: &Rec, field: &str, path: &str) {
        if rec.contains_key(field) {
            self.req_bool(rec, field, path);
        }
    }

    fn req_string_array(&mut self, rec: &Rec, field: &str, path: &str) {
        match rec.get(field) {
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        self.push(
                            SCHEMA_MISMATCH,
                            item_path(path, field, i),
                            format!("{field} entries must be strings."),
                        );
                    }
                }
            }
            _ => self.mismatch(path, field, "an array."),
        }
    }

    /// Validate each item of an array field (if it is an array) with `check`.
    fn each_item(
        &mut self,
        rec: &Rec,
        field: &str,
        path: &str,
        check: fn(&mut Sink, &Value, &str),
    ) {
        if let Some(Value::Array(items)) = rec.get(field) {
            for (i, item) in items.iter().enumerate() {
                check(self, item, &item_path(path, field, i));
            }
        }
    }

    /// Required array whose items are checked with `check`.
    fn req_array_of(
        &mut self,
        rec: &Rec,
        field: &str,
        path: &str,
        check: fn(&mut Sink, &Value, &str),
    ) {
        self.req_array(rec, field, path);
        self.each_item(rec, field, path, check);
    }
}
// ---------------------------------------------------------------------------------------------
// Runtime events (§2.3-2.5)

/// Index of each top-level member the event rules read (`0..7` are [`REQUIRED_EVENT_FIELDS`]).
mod field {
    pub const SEQUENCE: usize = 7;
    pub const EVENT_CLASS: usize = 8;
    pub const TOOL_CALL_ID: usize = 9;
    pub const ACTION_ID: usize = 10;
    pub const ARTIFACT_ID: usize = 11;
    pub const EVIDENCE_ID: usize = 12;
    pub const ARTIFACT_REFS: usize = 13;
    pub const REF_IDS: usize = 14;
    pub const EVIDENCE_REFS: usize = 15;
    pub const PAYLOAD: usize = 16;
    pub const COUNT: usize = 17;
}

/// The required non-empty string members of a runtime event, in the order they are reported:
/// the string fields the event model's table marks required by the schema, in schema order.
const REQUIRED_EVENT_FIELDS: [&str; field::SEQUENCE] = {
    use super::event_model::{FieldKind, EVENT_MODEL};
    let mut out = [""; field::SEQUENCE];
    let mut n = 0;
    let mut order = 0u8;
    while (order as usize) < EVENT_MODEL.len() {
        let mut i = 0;
        while i < EVENT_MODEL.len() {
            let f = &EVENT_MODEL[i];
            if f.schema_order == order && f.schema_required && f.kind as u8 == FieldKind::Str as u8
            {
                out[n] = f.name;
                n += 1;
            }
            i += 1;
        }
        order += 1;
    }
    assert!(
        n == field::SEQUENCE,
        "the required string members changed: update `field`"
    );
    out
};

/// The top-level members the event rules read, by index (see [`field`]): the required strings,
/// then the members particular rules read.
const EVENT_RULE_FIELDS: [&str; field::COUNT] = {
    const RULES: [&str; field::COUNT - field::SEQUENCE] = [
        "sequence",
        "eventClass",
        "toolCallId",
        "actionId",
        "artifactId",
        "evidenceId",
        "artifactRefs",
        "refIds",
        "evidenceRefs",
        "payload",
    ];
    let mut out = [""; field::COUNT];
    let mut i = 0;
    while i < field::COUNT {
        out[i] = if i < field::SEQUENCE {
            REQUIRED_EVENT_FIELDS[i]
        } else {
            RULES[i - field::SEQUENCE]
        };
        i += 1;
    }
    out
};
const EVENT_RULE_TABLE: [u8; 128] = names::name_table(&EVENT_RULE_FIELDS);

/// Which rule member a top-level key names, if any.
fn event_field(key: &[u8]) -> Option<usize> {
    names::name_index(&EVENT_RULE_FIELDS, &EVENT_RULE_TABLE, key)
}

/// Index of each payload member the scope rules read.
mod payload_field {
    pub const PATH: usize = 0;
    pub const PATCH_ID: usize = 1;
    pub const FAILURE_CATEGORY: usize = 2;
    pub const COMMAND_ID: usize = 3;
    pub const OUTPUT_REF: usize = 4;
    pub const CONTENT_REF: usize = 5;
    pub const DIFF_REF: usize = 6;
    pub const TEST_RUN_ID: usize = 7;
    pub const RESULT: usize = 8;
    pub const REASON_CODE: usize = 9;
    pub const STATUS: usize = 10;
    pub const EXIT_CODE: usize = 11;
    pub const COUNT: usize = 12;
}

/// The payload members the scope rules read, by index (see [`payload_field`]).
const PAYLOAD_RULE_FIELDS: [&str; payload_field::COUNT] = [
    "path",
    "patchId",
    "failureCategory",
    "commandId",
    "outputRef",
    "contentRef",
    "diffRef",
    "testRunId",
    "result",
    "reasonCode",
    "status",
    "exitCode",
];
const PAYLOAD_RULE_TABLE: [u8; 128] = names::name_table(&PAYLOAD_RULE_FIELDS);

fn payload_field(key: &[u8]) -> Option<usize> {
    names::name_index(&PAYLOAD_RULE_FIELDS, &PAYLOAD_RULE_TABLE, key)
}

/// What the scope rules need to know about an event besides its class, however it was read
/// (from a parsed value or straight from its JSON text).
trait ScopeFacts {
    /// The top-level member `f` is a string.
    fn is_string(&self, f: usize) -> bool;
    /// The top-level member `f` is an array with at least one non-empty string.
    fn has_refs(&self, f: usize) -> bool;
    /// The payload is an object whose member `p` is a string with non-blank content.
    fn payload_has(&self, p: usize) -> bool;
    /// The payload is an object whose member `p` is a string.
    fn payload_is_string(&self, p: usize) -> bool;
    /// The payload is an object whose member `p` is an integral number.
    fn payload_is_integer(&self, p: usize) -> bool;
}

/// The contract's per-family scope-id rules, in its order: calls `miss(field, message)` for
/// each failed rule (all `missing_scope_id`).
fn scope_rules(facts: &impl ScopeFacts, class: &str, mut miss: impl FnMut(&str, &'static str)) {
    use field::*;
    use payload_field as p;
    let has_tool_call = facts.is_string(TOOL_CALL_ID);
    let has_artifact = facts.is_string(ARTIFACT_ID) || facts.has_refs(ARTIFACT_REFS);

    if class.starts_with("tool.") && !has_tool_call {
        miss("toolCallId", "Tool events must include toolCallId.");
    }
    if class.starts_with("action.") && !facts.is_string(ACTION_ID) {
        miss("actionId", "Action events must include actionId.");
    }
    if class.starts_with("artifact.") && !has_artifact {
        miss(
            "artifactId",
            "Artifact events must include artifactId or artifactRefs.",
        );
    }
    if class == "file.read" && !facts.payload_has(p::PATH) {
        miss(
            "payload.path",
            "file.read events must include payload.path.",
        );
    }
    if class == "file.changed" {
        if !has_artifact {
            miss(
                "artifactId",
                "file.changed events must include artifactId or artifactRefs.",
            );
        }
        if !facts.payload_has(p::PATH) {
            miss(
                "payload.path",
                "file.changed events must include payload.path.",
            );
        }
    }
    if class.starts_with("patch.") && !facts.payload_has(p::PATCH_ID) && !has_tool_call {
        miss(
            "payload.patchId",
            "Patch events must include payload.patchId or toolCallId.",
        );
    }
    if class == "patch.failed" && !facts.payload_has(p::FAILURE_CATEGORY) {
        miss(
            "payload.failureCategory",
            "patch.failed events must include payload.failureCategory.",
        );
    }
    if class.starts_with("command.") && !facts.payload_has(p::COMMAND_ID) && !has_tool_call {
        miss(
            "payload.commandId",
            "Command events must include payload.commandId or toolCallId.",
        );
    }
    if class == "command.output" {
        let has_output = facts.has_refs(REF_IDS)
            || facts.has_refs(ARTIFACT_REFS)
            || facts.has_refs(EVIDENCE_REFS)
            || facts.payload_has(p::OUTPUT_REF)
            || facts.payload_has(p::CONTENT_REF)
            || facts.payload_has(p::DIFF_REF);
        if !has_output {
            miss(
                "refIds",
                "command.output events must include an output ref.",
            );
        }
    }
    if class == "command.exited"
        && !facts.payload_is_integer(p::EXIT_CODE)
        && !facts.payload_is_string(p::STATUS)
    {
        miss(
            "payload.exitCode",
            "command.exited events must include payload.exitCode or payload.status.",
        );
    }
    if class.starts_with("test.") && !facts.payload_has(p::TEST_RUN_ID) && !has_tool_call {
        miss(
            "payload.testRunId",
            "Test events must include payload.testRunId or toolCallId.",
        );
    }
    if class == "test.completed"
        && !facts.payload_has(p::RESULT)
        && !facts.payload_is_string(p::STATUS)
    {
        miss(
            "payload.result",
            "test.completed events must include payload.result or payload.status.",
        );
    }
    if class == "sandbox.blocked" && !facts.payload_has(p::REASON_CODE) {
        miss(
            "payload.reasonCode",
            "sandbox.blocked events must include payload.reasonCode.",
        );
    }
    if (class.starts_with("evidence.") || class.starts_with("review."))
        && !facts.is_string(EVIDENCE_ID)
        && !facts.has_refs(EVIDENCE_REFS)
    {
        miss(
            "evidenceId",
            "Evidence and review events must include evidenceId or evidenceRefs.",
        );
    }
}

/// The rule members of a parsed event, found in one pass over its keys (and, when the rules
/// need them, over its payload's keys).
struct EventMembers<'a> {
    top: [Option<&'a Value>; field::COUNT],
    payload: [Option<&'a Value>; payload_field::COUNT],
}

impl<'a> EventMembers<'a> {
    fn of(rec: &'a Rec) -> EventMembers<'a> {
        let mut top = [None; field::COUNT];
        for (k, v) in rec {
            if let Some(slot) = event_field(k.as_bytes()).and_then(|f| top.get_mut(f)) {
                *slot = Some(v);
            }
        }
        EventMembers {
            top,
            payload: [None; payload_field::COUNT],
        }
    }

    fn get(&self, f: usize) -> Option<&'a Value> {
        self.top.get(f).copied().flatten()
    }

    /// Fill in the payload's rule members (the payload is an object).
    fn read_payload(&mut self) {
        if let Some(Value::Object(p)) = self.get(field::PAYLOAD) {
            for (k, v) in p {
                if let Some(slot) =
                    payload_field(k.as_bytes()).and_then(|f| self.payload.get_mut(f))
                {
                    *slot = Some(v);
                }
            }
        }
    }

    fn payload_member(&self, p: usize) -> Option<&'a Value> {
        self.payload.get(p).copied().flatten()
    }
}

impl ScopeFacts for EventMembers<'_> {
    fn is_string(&self, f: usize) -> bool {
        matches!(self.get(f), Some(Value::String(_)))
    }
    fn has_refs(&self, f: usize) -> bool {
        match self.get(f) {
            Some(Value::Array(items)) => items
                .iter()
                .any(|x| matches!(x, Value::String(s) if !s.is_empty())),
            _ => false,
        }
    }
    fn payload_has(&self, p: usize) -> bool {
        matches!(self.payload_member(p), Some(Value::String(s)) if has_content(s))
    }
    fn payload_is_string(&self, p: usize) -> bool {
        matches!(self.payload_member(p), Some(Value::String(_)))
    }
    fn payload_is_integer(&self, p: usize) -> bool {
        matches!(self.payload_member(p), Some(Value::Number(n)) if n.as_f64().is_some_and(is_integer))
    }
}

/// Issues of one runtime execution event.
pub fn collect_runtime_event_issues(input: &Value, path: &str) -> Vec<Issue> {
    let mut sink = Sink::new();
    runtime_event(&mut sink, input, path);
    sink.issues
}

fn runtime_event(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Runtime event must be an object.",
        );
        return;
    };
    let mut members = EventMembers::of(rec);
    for (f, name) in REQUIRED_EVENT_FIELDS.iter().enumerate() {
        match members.get(f) {
            Some(Value::String(s)) if !s.is_empty() => {}
            _ => sink.mismatch(path, name, "a non-empty string."),
        }
    }
    let integral = match members.get(field::SEQUENCE) {
        Some(Value::Number(n)) => n.as_f64().is_some_and(is_integer),
        _ => false,
    };
    if !integral {
        sink.push(
            SCHEMA_MISMATCH,
            field_path(path, "sequence"),
            "Runtime event sequence must be an integer.",
        );
    }
    if let Some(Value::String(class)) = members.get(field::EVENT_CLASS) {
        if is_legacy_class(class) {
            sink.push(
                SCHEMA_MISMATCH,
                field_path(path, "eventClass"),
                "Legacy turn terminal event is not allowed; use turn.completed, turn.failed, or turn.canceled.",
            );
        }
        members.read_payload();
        scope_rules(&members, class, |field, message| {
            sink.push(MISSING_SCOPE_ID, field_path(path, field), message);
        });
    }
    if let Some(payload) = members.get(field::PAYLOAD) {
        payload_checks(sink, payload, path, "payload");
    }
}

/// `is_legacy_runtime_turn_terminal_event_class(Some(class))`, without its lowercased copy for
/// the common case: an ASCII class with no white space at its ends, whose JS `trim` is itself
/// and whose `toLowerCase` is ASCII folding. Anything else takes the exact function.
fn is_legacy_class(class: &str) -> bool {
    let is_ws = |c: &u8| crate::contract::js::is_js_ascii_whitespace(*c);
    let b = class.as_bytes();
    if !class.is_ascii() || b.first().is_some_and(is_ws) || b.last().is_some_and(is_ws) {
        return is_legacy_runtime_turn_terminal_event_class(Some(class));
    }
    LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES
        .iter()
        .any(|legacy| legacy.eq_ignore_ascii_case(class))
}

/// True when an object key names a secret-bearing field: case-insensitive substring match of
/// `api[-_]?key`, `authorization`, `password`, `secret`, `token` (ASCII folding only, as the
/// non-Unicode JS regex does).
pub fn is_secret_key(key: &str) -> bool {
    is_secret_key_bytes(key.as_bytes())
}

/// [`is_secret_key`] on the UTF-8 bytes of a key (non-ASCII bytes never match a needle byte).
/// Each needle is tried only where its first letter occurs.
pub(crate) fn is_secret_key_bytes(k: &[u8]) -> bool {
    fn at(k: &[u8], i: usize, needle: &[u8]) -> bool {
        k.get(i..i + needle.len()).is_some_and(|w| {
            w.iter()
                .zip(needle)
                .all(|(a, b)| a.to_ascii_lowercase() == *b)
        })
    }
    k.iter().enumerate().any(|(i, c)| match c | 0x20 {
        b'a' => {
            at(k, i, b"apikey")
                || at(k, i, b"api-key")
                || at(k, i, b"api_key")
                || at(k, i, b"authorization")
        }
        b'p' => at(k, i, b"password"),
        b's' => at(k, i, b"secret"),
        b't' => at(k, i, b"token"),
        _ => false,
    })
}

/// Large-inline check then secret-key scan of the member `field` of the record at `path`
/// (a payload or metadata value). Paths are built only when an issue is reported.
fn payload_checks(sink: &mut Sink, value: &Value, path: &str, field: &str) {
    let (len, secret) = json_stringify_measure(value, is_secret_key);
    if len > MAX_INLINE_PAYLOAD_UNITS {
        sink.push(
            LARGE_PAYLOAD_INLINE,
            field_path(path, field),
            "Large runtime payloads must be stored as refs instead of inline event payloads.",
        );
    }
    if secret {
        scan_secret_keys(sink, value, &field_path(path, field));
    }
}

enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// One container being walked: its children in JS own-key order, the next child, and the
/// length of the shared path buffer that names the container.
struct Frame<'a> {
    children: Vec<(Seg<'a>, &'a Value)>,
    next: usize,
    base: usize,
}

fn frame_of(v: &Value, base: usize) -> Option<Frame<'_>> {
    let children: Vec<(Seg<'_>, &Value)> = match v {
        Value::Object(m) => js_own_entries(m)
            .into_iter()
            .map(|(k, x)| (Seg::Key(k), x))
            .collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| (Seg::Index(i), x))
            .collect(),
        _ => return None,
    };
    Some(Frame {
        children,
        next: 0,
        base,
    })
}

/// Depth-first, pre-order walk with one path buffer; a matching key is reported and not
/// descended into.
fn scan_secret_keys(sink: &mut Sink, root: &Value, root_path: &str) {
    let mut path = String::from(root_path);
    let mut stack: Vec<Frame<'_>> = Vec::new();
    if let Some(f) = frame_of(root, path.len()) {
        stack.push(f);
    }
    while let Some(top) = stack.last_mut() {
        let Some((seg, child)) = top.children.get(top.next) else {
            stack.pop();
            continue;
        };
        top.next += 1;
        path.truncate(top.base);
        match seg {
            Seg::Key(k) => {
                path.push('.');
                path.push_str(k);
                if is_secret_key(k) {
                    sink.push(
                        SECRET_LEAK_RISK,
                        path.clone(),
                        "Runtime payload appears to contain a secret-bearing field.",
                    );
                    continue;
                }
            }
            Seg::Index(i) => {
                path.push('[');
                path.push_str(&i.to_string());
                path.push(']');
            }
        }
        let child: &Value = child;
        if let Some(f) = frame_of(child, path.len()) {
            stack.push(f);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Runtime events as JSON text: one event, a JSON array, or NDJSON, with a fast path

mod text;

/// Issues of one runtime event given as JSON text: exactly what parsing it and
/// [`collect_runtime_event_issues`] give. A clean event (the common case) is recognized in one
/// pass over the text without parsing it into a value. Error: the text is not JSON
/// (`Invalid JSON input: ...`, serde_json's message).
pub fn collect_runtime_event_text_issues(text: &str, path: &str) -> Result<Vec<Issue>, String> {
    let b = text.as_bytes();
    let start = text::skip_ws(b, 0);
    if text::clean_event_end(text, start).is_some_and(|end| text::skip_ws(b, end) == b.len()) {
        return Ok(Vec::new());
    }
    let event = super::json::parse_value(text).map_err(|e| format!("Invalid JSON input: {e}"))?;
    Ok(collect_runtime_event_issues(&event, path))
}

/// Issues of every element of a JSON array of runtime events: the issues
/// [`collect_runtime_event_issues`] gives for element `i` at path `{path}[i]`, concatenated in
/// index order. `text` is the array's JSON text (as `JSON.stringify` writes it).
///
/// One pass over the text: each element is first checked by the no-allocation pass of
/// `validation::text`, and only an element it cannot call clean is parsed into a value and
/// validated in full. Errors: `text` is not a JSON array (`Runtime events must be an array.`
/// or `Invalid JSON input: ...`), or element `i` cannot be parsed on its own
/// (`events[i]: Invalid JSON input: ...`, e.g. nesting deeper than serde_json's limit).
pub fn collect_runtime_events_issues(text: &str, path: &str) -> Result<Vec<Issue>, String> {
    match array_issues(text, path) {
        Some(issues) => Ok(issues),
        // Unusual or invalid text: the element-by-element parse, which also words the errors.
        None => array_issues_parsed(text, path),
    }
}

/// The single pass of [`collect_runtime_events_issues`]; `None` when the text is not a
/// well-formed array (or an element does not parse), for the careful path to report.
fn array_issues(text: &str, path: &str) -> Option<Vec<Issue>> {
    let b = text.as_bytes();
    let mut pos = text::skip_ws(b, 0);
    if b.get(pos) != Some(&b'[') {
        return None;
    }
    pos = text::skip_ws(b, pos + 1);
    let mut sink = Sink::new();
    if b.get(pos) == Some(&b']') {
        return (text::skip_ws(b, pos + 1) == b.len()).then_some(sink.issues);
    }
    let mut index = 0usize;
    loop {
        pos = match text::clean_event_end(text, pos) {
            Some(end) => end,
            None => pos + parse_and_validate(&mut sink, text.get(pos..)?, path, index).ok()?,
        };
        pos = text::skip_ws(b, pos);
        match b.get(pos) {
            Some(b',') => {
                pos = text::skip_ws(b, pos + 1);
                index += 1;
            }
            Some(b']') => return (text::skip_ws(b, pos + 1) == b.len()).then_some(sink.issues),
            _ => return None,
        }
    }
}

/// Parse the JSON value at the start of `rest`, validate it as event `index`, and return the
/// length of its text.
fn parse_and_validate(
    sink: &mut Sink,
    rest: &str,
    path: &str,
    index: usize,
) -> Result<usize, serde_json::Error> {
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<super::json::Parsed>();
    let event = match values.next() {
        Some(v) => v?.0,
        None => Value::Null,
    };
    runtime_event(sink, &event, &format!("{path}[{index}]"));
    Ok(values.byte_offset())
}

/// The careful path of [`collect_runtime_events_issues`]: split the array into its elements'
/// texts, then parse and validate each element on its own.
fn array_issues_parsed(text: &str, path: &str) -> Result<Vec<Issue>, String> {
    let items = match super::json::array_element_texts(text) {
        Ok(items) => items,
        Err(e) if e.is_data() => return Err("Runtime events must be an array.".to_string()),
        Err(e) => return Err(format!("Invalid JSON input: {e}")),
    };
    let mut sink = Sink::new();
    for (i, raw) in items.iter().enumerate() {
        if text::clean_event_end(raw, 0) == Some(raw.len()) {
            continue;
        }
        let event = super::json::parse_value(raw)
            .map_err(|e| format!("events[{i}]: Invalid JSON input: {e}"))?;
        runtime_event(&mut sink, &event, &format!("{path}[{i}]"));
    }
    Ok(sink.issues)
}

/// Issues of newline-delimited runtime events (NDJSON; any JSON white space may separate
/// the events, blank lines included): event `i` (counting events, not lines) gets the issues
/// [`collect_runtime_event_issues`] gives at path `{path}[i]`. Error: event `i` is not JSON
/// (`events[i]: Invalid JSON input: ...`, positions counted from the event's start).
pub fn collect_runtime_events_ndjson_issues(text: &str, path: &str) -> Result<Vec<Issue>, String> {
    let b = text.as_bytes();
    let mut sink = Sink::new();
    let mut pos = text::skip_ws(b, 0);
    let mut index = 0usize;
    while pos < b.len() {
        let end = match text::clean_event_end(text, pos) {
            Some(end) => end,
            None => {
                let rest = text.get(pos..).unwrap_or_default();
                let len = parse_and_validate(&mut sink, rest, path, index)
                    .map_err(|e| format!("events[{index}]: Invalid JSON input: {e}"))?;
                pos + len
            }
        };
        let next = text::skip_ws(b, end);
        if next == end && next < b.len() {
            // `{..}{..}` or `{..}x`: the next event must start after white space.
            let rest = text.get(end..).unwrap_or_default();
            let shown: String = rest.chars().take(16).collect();
            let mut quoted = String::new();
            super::val::write_json_str(&shown, &mut quoted);
            return Err(format!(
                "events[{}]: Invalid JSON input: expected white space before {quoted}",
                index + 1
            ));
        }
        pos = next;
        index += 1;
    }
    Ok(sink.issues)
}

// ---------------------------------------------------------------------------------------------
// Read models (§2.6)

/// Issues of a thread read model (`AgentRuntimeReadModel`).
pub fn collect_thread_read_model_issues(input: &Value, path: &str) -> Vec<Issue> {
    let mut sink = Sink::new();
    read_model(&mut sink, input, path);
    sink.issues
}

/// The projection lists of a read model, in the order of their checks; a [`SharedSource`]
/// names a list by its position here.
pub const READ_MODEL_PROJECTION_LISTS: [&str; 3] = ["events", "visibleEvents", "pendingActions"];

/// The read models a fixture may hold, in the order of their checks; a [`SharedSource`] names
/// a read model by its position here.
pub const FIXTURE_READ_MODELS: [&str; 2] = ["initialReadModel", "finalReadModel"];

/// The event a fixture's read-model projection holds as its `source`, when it is known to be
/// one of the fixture's own events (the same JSON value): `(read model, list, index)`, by
/// position in [`FIXTURE_READ_MODELS`] and [`READ_MODEL_PROJECTION_LISTS`]. Such a source is
/// validated as that event (at the source's path) and never read itself.
pub type SharedSource<'s, 'a> = &'s dyn Fn(usize, usize, usize) -> Option<&'a Value>;

fn read_model(sink: &mut Sink, input: &Value, path: &str) {
    read_model_sharing(sink, input, path, 0, &|_, _, _| None);
}

/// [`read_model`] of the fixture's read model `model`, the sources `shared` gives validated in
/// place of the projections' own.
fn read_model_sharing(
    sink: &mut Sink,
    input: &Value,
    path: &str,
    model: usize,
    shared: SharedSource<'_, '_>,
) {
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Thread read model must be an object.",
        );
        return;
    };
    for (list, field) in READ_MODEL_PROJECTION_LISTS.iter().enumerate() {
        sink.req_array(rec, field, path);
        if let Some(Value::Array(items)) = rec.get(*field) {
            for (i, item) in items.iter().enumerate() {
                let at = item_path(path, field, i);
                event_projection_of(sink, item, &at, shared(model, list, i));
            }
        }
    }
    sink.req_bool(rec, "inputSourceRecovery", path);
    sink.req_number(rec, "sourceCount", path);
    sink.req_string_array(rec, "artifactRefs", path);
    sink.req_string_array(rec, "evidenceRefs", path);
    sink.req_string_array(rec, "taskRefs", path);
}

/// One `AgentRuntimeEventProjection`, including the full validation of its source event.
fn event_projection(sink: &mut Sink, input: &Value, path: &str) {
    event_projection_of(sink, input, path, None);
}

/// [`event_projection`]; `shared`: the source event when it is known (then the projection's
/// own `source` is not read: it is that event, an object).
fn event_projection_of(sink: &mut Sink, input: &Value, path: &str, shared: Option<&Value>) {
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Runtime projection event must be an object.",
        );
        return;
    };
    sink.req_string(rec, "id", path);
    if shared.is_none() {
        sink.req_record(rec, "source", path);
    }
    for f in ["surface", "title", "status", "displayStatusKey"] {
        sink.req_string(rec, f, path);
    }
    sink.req_bool(rec, "resolved", path);
    sink.req_string(rec, "actionKind", path);
    sink.req_string(rec, "targetModule", path);
    sink.opt_string(rec, "detail", path);
    sink.opt_string(rec, "actionId", path);
    if let Some(source @ Value::Object(_)) = shared.or_else(|| rec.get("source")) {
        runtime_event(sink, source, &field_path(path, "source"));
    }
}

// ---------------------------------------------------------------------------------------------
// Projection states (§2.7)

/// Issues of an `AgentUiProjectionState` (`toolCalls` and `mcp` are not inspected).
pub fn collect_projection_state_issues(input: &Value, path: &str) -> Vec<Issue> {
    let mut sink = Sink::new();
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Projection state must be an object.",
        );
        return sink.issues;
    };
    sink.req_record(rec, "runtime", path);
    sink.req_array_of(rec, "messages", path, message_part);
    sink.req_array_of(rec, "timeline", path, timeline_entry);
    sink.req_array_of(rec, "graph", path, graph_node);
    sink.req_array_of(rec, "tools", path, event_projection);
    sink.req_array_of(rec, "actions", path, event_projection);
    sink.req_array_of(rec, "artifacts", path, ref_view);
    sink.req_array_of(rec, "evidence", path, ref_view);
    sink.req_array_of(rec, "diagnostics", path, diagnostic);
    sink.req_record(rec, "subagents", path);
    if let Some(Value::Object(sub)) = rec.get("subagents") {
        subagents_model(&mut sink, sub, &field_path(path, "subagents"));
    }
    sink.req_record(rec, "readModel", path);
    if let Some(rm @ Value::Object(_)) = rec.get("readModel") {
        read_model(&mut sink, rm, &field_path(path, "readModel"));
    }
    sink.req_record(rec, "hydration", path);
    if let Some(Value::Object(h)) = rec.get("hydration") {
        let hp = field_path(path, "hydration");
        sink.req_string(h, "status", &hp);
        sink.req_number(h, "eventCount", &hp);
    }
    sink.req_record(rec, "ephemeralUi", path);
    sink.issues
}

fn message_part(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Message part must be an object.") else {
        return;
    };
    for f in ["type", "partId", "sourceEventId"] {
        sink.req_string(rec, f, path);
    }
    for f in [
        "messageId",
        "role",
        "text",
        "state",
        "toolCallId",
        "artifactId",
        "evidenceId",
        "diagnosticId",
        "createdAt",
    ] {
        sink.opt_string(rec, f, path);
    }
    sink.req_string_array(rec, "refs", path);
}

fn timeline_entry(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Timeline entry must be an object.") else {
        return;
    };
    for f in [
        "entryId",
        "kind",
        "status",
        "title",
        "sourceEventId",
        "createdAt",
    ] {
        sink.req_string(rec, f, path);
    }
    for f in ["phase", "owner", "detail", "completedAt"] {
        sink.opt_string(rec, f, path);
    }
    sink.req_string_array(rec, "refs", path);
    sink.opt_number(rec, "sequence", path);
}

fn graph_node(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Graph node must be an object.") else {
        return;
    };
    for f in ["nodeId", "nodeType", "status", "title"] {
        sink.req_string(rec, f, path);
    }
    for f in ["parentId", "createdAt", "completedAt"] {
        sink.opt_string(rec, f, path);
    }
    sink.req_string_array(rec, "refs", path);
    sink.req_string_array(rec, "sourceEventIds", path);
}

fn ref_view(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Runtime ref must be an object.") else {
        return;
    };
    sink.req_string(rec, "id", path);
    sink.req_string(rec, "sourceEventId", path);
    for f in [
        "title",
        "status",
        "owner",
        "path",
        "contentRef",
        "mimeType",
        "preview",
    ] {
        sink.opt_string(rec, f, path);
    }
    if let Some(Value::String(preview)) = rec.get("preview") {
        if utf16_len(preview) > MAX_REF_PREVIEW_UNITS {
            sink.push(
                LARGE_PAYLOAD_INLINE,
                field_path(path, "preview"),
                "Runtime ref preview must stay small; store large content behind contentRef.",
            );
        }
    }
    metadata_checks(sink, rec, path);
}

/// Optional `metadata`: must be a record, and gets the payload checks either way.
fn metadata_checks(sink: &mut Sink, rec: &Rec, path: &str) {
    if let Some(meta) = rec.get("metadata") {
        sink.req_record(rec, "metadata", path);
        payload_checks(sink, meta, path, "metadata");
    }
}

fn diagnostic(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Diagnostic must be an object.") else {
        return;
    };
    for f in ["id", "sourceEventId", "title", "status"] {
        sink.req_string(rec, f, path);
    }
    sink.opt_string(rec, "detail", path);
}

fn subagents_model(sink: &mut Sink, rec: &Rec, path: &str) {
    sink.req_bool(rec, "hasSubagents", path);
    sink.req_array(rec, "threads", path);
    sink.req_array(rec, "delegationCalls", path);
    sink.req_array(rec, "activities", path);
    sink.req_string_array(rec, "activeThreadIds", path);
    sink.req_string_array(rec, "completedThreadIds", path);
    sink.req_string_array(rec, "failedThreadIds", path);
    sink.each_item(rec, "threads", path, subagent_thread);
    sink.each_item(rec, "delegationCalls", path, subagent_delegation);
    sink.each_item(rec, "activities", path, subagent_activity);
}

fn subagent_thread(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Subagent thread must be an object.") else {
        return;
    };
    for f in ["threadId", "subagentId", "status", "title"] {
        sink.req_string(rec, f, path);
    }
    for f in [
        "parentThreadId",
        "parentTaskId",
        "taskId",
        "taskPath",
        "role",
        "nickname",
        "summary",
        "promptPreview",
        "lastActivityAt",
        "createdAt",
        "completedAt",
    ] {
        sink.opt_string(rec, f, path);
    }
    for f in ["artifactRefs", "evidenceRefs", "sourceEventIds"] {
        sink.req_string_array(rec, f, path);
    }
    if rec.contains_key("isolation") {
        sink.req_record(rec, "isolation", path);
        if let Some(Value::Object(iso)) = rec.get("isolation") {
            let ip = field_path(path, "isolation");
            for f in [
                "runtimeProfileId",
                "modelProfileId",
                "isolationProfileId",
                "workspaceRef",
                "permissionProfile",
                "sandboxProfile",
                "forkPolicy",
            ] {
                sink.opt_string(iso, f, &ip);
            }
            sink.opt_number(iso, "depth", &ip);
            sink.opt_bool(iso, "canDelegate", &ip);
        }
    }
}

fn subagent_delegation(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Subagent delegation must be an object.")
    else {
        return;
    };
    for f in ["callId", "sourceEventId", "action", "status", "title"] {
        sink.req_string(rec, f, path);
    }
    for f in [
        "parentThreadId",
        "promptPreview",
        "createdAt",
        "completedAt",
    ] {
        sink.opt_string(rec, f, path);
    }
    sink.req_string_array(rec, "targetThreadIds", path);
}

fn subagent_activity(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Subagent activity must be an object.") else {
        return;
    };
    for f in [
        "activityId",
        "threadId",
        "sourceEventId",
        "kind",
        "status",
        "title",
    ] {
        sink.req_string(rec, f, path);
    }
    sink.opt_string(rec, "createdAt", path);
}

fn as_record_or<'a>(
    sink: &mut Sink,
    input: &'a Value,
    path: &str,
    message: &str,
) -> Option<&'a Rec> {
    match input.as_object() {
        Some(rec) => Some(rec),
        None => {
            sink.push(SCHEMA_MISMATCH, path.to_string(), message);
            None
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures (§2.8)

/// Issues of a conformance fixture: shape, expectation block, every event, sequence gaps,
/// sequence-verifier violations, then the initial and final read models.
pub fn collect_fixture_issues(input: &Value, path: &str) -> Vec<Issue> {
    collect_fixture_issues_sharing(input, path, &|_, _, _| None)
}

/// [`collect_fixture_issues`], the read models' sources `shared` names validated as the
/// fixture's events they are.
pub fn collect_fixture_issues_sharing<'a>(
    input: &'a Value,
    path: &str,
    shared: SharedSource<'_, 'a>,
) -> Vec<Issue> {
    let mut sink = Sink::new();
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Fixture must be an object.",
        );
        return sink.issues;
    };
    for f in ["id", "schemaVersion", "title"] {
        sink.req_string(rec, f, path);
    }
    sink.req_array(rec, "events", path);
    sink.req_record(rec, "expected", path);
    let expected = rec.get("expected").and_then(Value::as_object);
    if let Some(exp) = expected {
        expectation(&mut sink, exp, &field_path(path, "expected"));
    }
    if let Some(Value::Array(events)) = rec.get("events") {
        for (i, ev) in events.iter().enumerate() {
            runtime_event(&mut sink, ev, &item_path(path, "events", i));
        }
        let diagnostics: &[Value] = match expected.and_then(|e| e.get("diagnostics")) {
            Some(Value::Array(d)) => d,
            _ => &[],
        };
        let declared = |code: &str| diagnostics.iter().any(|d| d.as_str() == Some(code));
        if !declared(SEQUENCE_GAP) {
            sequence_gaps(&mut sink, events, path);
        }
        sequence_violations(&mut sink, events, path, &declared);
    }
    for (model, key) in FIXTURE_READ_MODELS.iter().enumerate() {
        if let Some(rm) = rec.get(*key) {
            read_model_sharing(&mut sink, rm, &field_path(path, key), model, shared);
        }
    }
    sink.issues
}

fn expectation(sink: &mut Sink, rec: &Rec, path: &str) {
    sink.req_string(rec, "status", path);
    if rec.contains_key("coding") {
        sink.req_record(rec, "coding", path);
        if let Some(Value::Object(coding)) = rec.get("coding") {
            let cp = field_path(path, "coding");
            for f in [
                "fileCount",
                "changeCount",
                "patchCount",
                "commandCount",
                "testCount",
                "blockedCount",
                "failedPatchCount",
                "failedTestCount",
            ] {
                sink.opt_number(coding, f, &cp);
            }
        }
    }
    if rec.contains_key("subagents") {
        sink.req_record(rec, "subagents", path);
        if let Some(Value::Object(sub)) = rec.get("subagents") {
            let sp = field_path(path, "subagents");
            sink.opt_bool(sub, "hasSubagents", &sp);
            for f in [
                "threadCount",
                "delegationCallCount",
                "activityCount",
                "activeThreadCount",
                "completedThreadCount",
                "failedThreadCount",
            ] {
                sink.opt_number(sub, f, &sp);
            }
        }
    }
}

/// Consecutive integer sequences must step by exactly one (non-records and non-integer
/// sequences are skipped without resetting the comparison).
fn sequence_gaps(sink: &mut Sink, events: &[Value], path: &str) {
    let mut previous: Option<f64> = None;
    for (i, ev) in events.iter().enumerate() {
        let seq = match ev.get("sequence") {
            Some(Value::Number(n)) if ev.is_object() => match n.as_f64() {
                Some(x) if is_integer(x) => x,
                _ => continue,
            },
            _ => continue,
        };
        if let Some(prev) = previous {
            if seq != prev + 1.0 {
                sink.push(
                    SEQUENCE_GAP,
                    format!("{path}.events[{i}].sequence"),
                    "Runtime event sequence must be contiguous unless the fixture declares sequence_gap diagnostics.",
                );
            }
        }
        previous = Some(seq);
    }
}

/// Sequence-verifier violations over the record events, minus the codes the fixture
/// declares, reported at the last index holding the violating event's id.
fn sequence_violations(
    sink: &mut Sink,
    events: &[Value],
    path: &str,
    declared: &dyn Fn(&str) -> bool,
) {
    let mut verifier = SequenceVerifier::new();
    for ev in events.iter().filter(|e| e.is_object()) {
        verifier.push(ev);
    }
    let violations = verifier.violations();
    if violations.is_empty() {
        return;
    }
    let mut last_index: super::fxhash::HashMap<&str, usize> = super::fxhash::HashMap::default();
    for (i, ev) in events.iter().enumerate() {
        if let Some(Value::String(id)) = ev.get("id") {
            last_index.insert(id.as_str(), i);
        }
    }
    for v in violations {
        if declared(v.code) {
            continue;
        }
        let at = v
            .event_id
            .as_str()
            .and_then(|id| last_index.get(id).copied());
        let p = match at {
            Some(i) => format!("{path}.events[{i}]"),
            None => format!("{path}.events"),
        };
        sink.push(SEQUENCE_VIOLATION, p, v.message.clone());
    }
}

// ---------------------------------------------------------------------------------------------
// Capability manifests (§2.9)

/// Issues of an `AgentRuntimeCapabilityManifest`.
pub fn collect_capability_manifest_issues(input: &Value, path: &str) -> Vec<Issue> {
    let mut sink = Sink::new();
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Capability manifest must be an object.",
        );
        return sink.issues;
    };
    for f in ["schemaVersion", "runtimeId", "generatedAt"] {
        sink.req_string(rec, f, path);
    }
    sink.opt_string(rec, "providerId", path);
    sink.opt_string(rec, "sessionId", path);
    sink.req_array_of(rec, "capabilities", path, capability_entry);
    sink.issues
}

fn capability_entry(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = as_record_or(sink, input, path, "Capability entry must be an object.") else {
        return;
    };
    for f in ["id", "status", "scope", "title"] {
        sink.req_string(rec, f, path);
    }
    sink.opt_string(rec, "detail", path);
    sink.opt_string(rec, "version", path);
    metadata_checks(sink, rec, path);
}

#[cfg(test)]
mod stream_tests {
    use super::*;
    use crate::generator::{generate, options::GenOptions};
    use serde_json::json;

    /// The stream validator against the per-event one, element by element.
    fn assert_same(events_text: &[String]) {
        let text = format!("[{}]", events_text.join(","));
        let stream = collect_runtime_events_issues(&text, "$").expect("stream validates");
        let mut each = Vec::new();
        for (i, t) in events_text.iter().enumerate() {
            let v: Value = serde_json::from_str(t).expect("event parses");
            let issues = collect_runtime_event_issues(&v, &format!("$[{i}]"));
            assert_eq!(
                collect_runtime_event_text_issues(t, &format!("$[{i}]")).as_ref(),
                Ok(&issues)
            );
            each.extend(issues);
        }
        assert_eq!(stream, each);
        // The careful path agrees with the single pass.
        assert_eq!(array_issues_parsed(&text, "$").as_ref(), Ok(&each));
        // NDJSON, and an array with white space everywhere it may be.
        let ndjson = format!("\n{}\r\n", events_text.join("\r\n\n"));
        assert_eq!(
            collect_runtime_events_ndjson_issues(&ndjson, "$"),
            Ok(each.clone())
        );
        let spaced = format!(" [ {} ] \n", events_text.join(" ,\n\t"));
        assert_eq!(collect_runtime_events_issues(&spaced, "$"), Ok(each));
    }

    fn generated(n: usize, seed: u32, options: Value) -> Vec<Value> {
        let opts = GenOptions::from_json(&options).expect("options");
        generate(n, seed, &opts)
    }

    #[test]
    fn generated_streams_match_the_per_event_validator() {
        for (seed, options) in [
            (42, json!({})),
            (
                7,
                json!({"toolFailureRate": 0.5, "actionRate": 0.5, "subagentRate": 0.5, "turnFailureRate": 0.3, "stateDeltaRate": 0.5}),
            ),
        ] {
            let events = generated(3000, seed, options);
            let texts: Vec<String> = events.iter().map(Value::to_string).collect();
            assert_same(&texts);
            // Generated events are clean, and the fast pass says so for every one.
            assert!(texts
                .iter()
                .all(|t| text::clean_event_end(t, 0) == Some(t.len())));
        }
    }

    /// Every rule broken, one mutation per generated event, and the cases the fast pass must
    /// hand over (duplicate members, escaped names, a payload around the size limit).
    #[test]
    fn mutated_events_match_the_per_event_validator() {
        let base = generated(600, 3, json!({"actionRate": 0.5, "subagentRate": 0.5}));
        let classes = [
            "tool.started",
            "action.required",
            "artifact.changed",
            "file.read",
            "file.changed",
            "patch.applied",
            "patch.failed",
            "command.started",
            "command.output",
            "command.exited",
            "test.started",
            "test.completed",
            "sandbox.blocked",
            "evidence.changed",
            "review.verdict",
            "turn.done",
            "final_done",
            "model.delta",
        ];
        let mut texts = Vec::new();
        for (i, e) in base.iter().enumerate() {
            let mut e = e.clone();
            let Some(obj) = e.as_object_mut() else {
                continue;
            };
            let class = classes[i % classes.len()];
            match i % 24 {
                0 => {
                    obj.remove("id");
                }
                1 => {
                    obj.insert("title".into(), json!(""));
                }
                2 => {
                    obj.insert("sequence".into(), json!(1.5));
                }
                3 => {
                    obj.insert("sequence".into(), json!("1"));
                }
                4 => {
                    obj.insert("payload".into(), json!({"nested": [{"apiKey": "x"}]}));
                }
                5 => {
                    obj.insert("payload".into(), json!({"text": "y".repeat(32_000)}));
                }
                6 => {
                    obj.insert("payload".into(), json!({"text": "y".repeat(31_990)}));
                }
                7 => {
                    obj.insert("payload".into(), json!({"text": "\u{1}".repeat(5_330)}));
                }
                8 => {
                    obj.insert("eventClass".into(), json!(class));
                    obj.remove("toolCallId");
                    obj.remove("actionId");
                    obj.remove("artifactId");
                    obj.remove("artifactRefs");
                    obj.remove("evidenceId");
                    obj.remove("evidenceRefs");
                    obj.remove("refIds");
                }
                9 => {
                    obj.insert("eventClass".into(), json!(class));
                    obj.insert("toolCallId".into(), json!("call"));
                    obj.insert(
                        "payload".into(),
                        json!({"path": " ", "exitCode": 1.0, "status": 3}),
                    );
                }
                10 => {
                    obj.insert("eventClass".into(), json!(class));
                    obj.insert(
                        "payload".into(),
                        json!({"path": "a", "patchId": "p", "failureCategory": "f",
                               "commandId": "c", "outputRef": "o", "testRunId": "t",
                               "result": "r", "reasonCode": "x", "exitCode": 0}),
                    );
                    obj.insert("refIds".into(), json!(["", "r"]));
                    obj.insert("evidenceRefs".into(), json!([1, ""]));
                    obj.insert("artifactRefs".into(), json!([""]));
                    obj.insert("actionId".into(), json!("a"));
                }
                11 => {
                    obj.insert("eventClass".into(), json!(7));
                }
                12 => {
                    obj.insert("payload".into(), json!([{"token": 1}, 2, null, true]));
                }
                13 => {
                    obj.insert("payload".into(), json!(null));
                }
                14 => {
                    obj.insert("payload".into(), json!("text"));
                }
                15 => {
                    obj.insert(
                        "payload".into(),
                        json!({"n": [1e21, 1.5e-7, -0.0, 123456789012345678u64]}),
                    );
                }
                _ => {}
            }
            let mut t = e.to_string();
            match i % 24 {
                // A repeated member: the last one wins.
                16 => t = t.replacen("{\"id\":", "{\"kind\":\"\",\"id\":", 1),
                17 => t = t.replacen("{\"id\":", "{\"payload\":{\"apiKey\":1},\"id\":", 1),
                // Escaped member names and values.
                18 => t = t.replacen("\"id\":", "\"i\\u0064\":", 1),
                19 => t = t.replacen("\"payload\":{", "\"payload\":{\"\\u0074oken\":1,", 1),
                20 => t = t.replacen("\"eventClass\":\"", "\"eventClass\":\"\\u0074urn.done", 1),
                21 => {
                    t = t.replacen(
                        "\"payload\":{",
                        "\"payload\":{\"path\":\"a\",\"path\":2,",
                        1,
                    )
                }
                22 => t = "[1,2]".to_string(),
                23 => t = "\"event\"".to_string(),
                _ => {}
            }
            texts.push(t);
        }
        assert_same(&texts);
        let text = format!("[{}]", texts.join(","));
        let issues = collect_runtime_events_issues(&text, "$").expect("issues");
        assert!(
            issues.len() > 300,
            "the mutations break rules: {}",
            issues.len()
        );
        for code in [
            SCHEMA_MISMATCH,
            MISSING_SCOPE_ID,
            SECRET_LEAK_RISK,
            LARGE_PAYLOAD_INLINE,
        ] {
            assert!(issues.iter().any(|i| i.code == code), "{code} is exercised");
        }
    }

    #[test]
    fn stream_errors() {
        assert_eq!(
            collect_runtime_events_issues("{}", "$"),
            Err("Runtime events must be an array.".to_string())
        );
        assert!(collect_runtime_events_issues("[1,", "$").is_err());
        // An element deeper than the parser's limit fails like the per-event call.
        let deep = format!(
            "[{{\"id\":\"x\",\"payload\":{}1{}}}]",
            "[".repeat(200),
            "]".repeat(200)
        );
        let err = collect_runtime_events_issues(&deep, "$").expect_err("too deep");
        assert!(
            err.starts_with("events[0]: Invalid JSON input: recursion limit exceeded"),
            "{err}"
        );
        assert_eq!(collect_runtime_events_issues("[]", "$"), Ok(Vec::new()));
        assert_eq!(collect_runtime_events_issues(" [ ] ", "$"), Ok(Vec::new()));
        assert!(collect_runtime_events_issues("[] x", "$").is_err());
        assert!(collect_runtime_events_issues("[{},]", "$").is_err());
        assert!(collect_runtime_events_issues("[{} {}]", "$").is_err());
        assert!(collect_runtime_event_text_issues("{} x", "$").is_err());
        assert_eq!(
            collect_runtime_events_ndjson_issues(" \n\n ", "$"),
            Ok(Vec::new())
        );
        let err = collect_runtime_events_ndjson_issues("null\n{\"id\":", "$").expect_err("cut");
        assert!(err.starts_with("events[1]: Invalid JSON input: "), "{err}");
        let err = collect_runtime_events_ndjson_issues("{}{}", "$").expect_err("no space");
        assert!(err.starts_with("events[1]: Invalid JSON input: "), "{err}");
        let err = collect_runtime_events_ndjson_issues(&deep[1..deep.len() - 1], "$")
            .expect_err("too deep");
        assert!(
            err.starts_with("events[0]: Invalid JSON input: recursion limit exceeded"),
            "{err}"
        );
        let issues = collect_runtime_events_issues("[null,{}]", "root").expect("issues");
        assert_eq!(issues[0].path, "root[0]");
        assert_eq!(issues[1].path, "root[1].id");
    }
}

#[cfg(test)]
mod legacy_class_tests {
    use super::*;

    #[test]
    fn legacy_class_shortcut_matches_the_exact_function() {
        for class in [
            "done",
            "DONE",
            "Turn.Final_Done",
            "turn.cancelled",
            " turn.done",
            "turn.done\n",
            "\u{3000}done",
            "turn.\u{212a}",
            "turn.done.",
            "",
            " ",
            "model.delta",
            "İ",
            "final_done",
            "cancelled",
            "canceled",
        ] {
            assert_eq!(
                is_legacy_class(class),
                is_legacy_runtime_turn_terminal_event_class(Some(class)),
                "{class:?}"
            );
        }
    }
}

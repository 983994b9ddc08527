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

use super::js::{has_content, is_integer, js_own_entries, json_stringify_len, utf16_len};
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
    for f in [
        "id",
        "schemaVersion",
        "runtimeId",
        "kind",
        "status",
        "title",
        "createdAt",
    ] {
        sink.req_string(rec, f, path);
    }
    let integral = match rec.get("sequence") {
        Some(Value::Number(n)) => n.as_f64().map(is_integer).unwrap_or(false),
        _ => false,
    };
    if !integral {
        sink.push(
            SCHEMA_MISMATCH,
            field_path(path, "sequence"),
            "Runtime event sequence must be an integer.",
        );
    }
    if let Some(Value::String(class)) = rec.get("eventClass") {
        if is_legacy_runtime_turn_terminal_event_class(Some(class)) {
            sink.push(
                SCHEMA_MISMATCH,
                field_path(path, "eventClass"),
                "Legacy turn terminal event is not allowed; use turn.completed, turn.failed, or turn.canceled.",
            );
        }
        scope_rules(sink, rec, class, path);
    }
    payload_checks(sink, rec.get("payload"), &field_path(path, "payload"));
}

/// A payload string with non-blank content.
fn payload_has(payload: Option<&Rec>, key: &str) -> bool {
    matches!(payload.and_then(|p| p.get(key)), Some(Value::String(s)) if has_content(s))
}

fn payload_is_string(payload: Option<&Rec>, key: &str) -> bool {
    matches!(payload.and_then(|p| p.get(key)), Some(Value::String(_)))
}

fn is_string_field(rec: &Rec, key: &str) -> bool {
    matches!(rec.get(key), Some(Value::String(_)))
}

/// An array with at least one non-empty string element.
fn has_refs(rec: &Rec, key: &str) -> bool {
    match rec.get(key) {
        Some(Value::Array(items)) => items
            .iter()
            .any(|x| matches!(x, Value::String(s) if !s.is_empty())),
        _ => false,
    }
}

/// The per-family scope-id rules, in the contract's order (all `missing_scope_id`).
fn scope_rules(sink: &mut Sink, rec: &Rec, class: &str, path: &str) {
    let payload = rec.get("payload").and_then(Value::as_object);
    let mut miss = |field: &str, message: &str| {
        sink.push(MISSING_SCOPE_ID, field_path(path, field), message);
    };
    let has_tool_call = is_string_field(rec, "toolCallId");
    let has_artifact = is_string_field(rec, "artifactId") || has_refs(rec, "artifactRefs");

    if class.starts_with("tool.") && !has_tool_call {
        miss("toolCallId", "Tool events must include toolCallId.");
    }
    if class.starts_with("action.") && !is_string_field(rec, "actionId") {
        miss("actionId", "Action events must include actionId.");
    }
    if class.starts_with("artifact.") && !has_artifact {
        miss(
            "artifactId",
            "Artifact events must include artifactId or artifactRefs.",
        );
    }
    if class == "file.read" && !payload_has(payload, "path") {
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
        if !payload_has(payload, "path") {
            miss(
                "payload.path",
                "file.changed events must include payload.path.",
            );
        }
    }
    if class.starts_with("patch.") && !payload_has(payload, "patchId") && !has_tool_call {
        miss(
            "payload.patchId",
            "Patch events must include payload.patchId or toolCallId.",
        );
    }
    if class == "patch.failed" && !payload_has(payload, "failureCategory") {
        miss(
            "payload.failureCategory",
            "patch.failed events must include payload.failureCategory.",
        );
    }
    if class.starts_with("command.") && !payload_has(payload, "commandId") && !has_tool_call {
        miss(
            "payload.commandId",
            "Command events must include payload.commandId or toolCallId.",
        );
    }
    if class == "command.output" {
        let has_output = has_refs(rec, "refIds")
            || has_refs(rec, "artifactRefs")
            || has_refs(rec, "evidenceRefs")
            || payload_has(payload, "outputRef")
            || payload_has(payload, "contentRef")
            || payload_has(payload, "diffRef");
        if !has_output {
            miss(
                "refIds",
                "command.output events must include an output ref.",
            );
        }
    }
    if class == "command.exited" {
        let exit_code_ok = match payload.and_then(|p| p.get("exitCode")) {
            Some(Value::Number(n)) => n.as_f64().map(is_integer).unwrap_or(false),
            _ => false,
        };
        if !exit_code_ok && !payload_is_string(payload, "status") {
            miss(
                "payload.exitCode",
                "command.exited events must include payload.exitCode or payload.status.",
            );
        }
    }
    if class.starts_with("test.") && !payload_has(payload, "testRunId") && !has_tool_call {
        miss(
            "payload.testRunId",
            "Test events must include payload.testRunId or toolCallId.",
        );
    }
    if class == "test.completed"
        && !payload_has(payload, "result")
        && !payload_is_string(payload, "status")
    {
        miss(
            "payload.result",
            "test.completed events must include payload.result or payload.status.",
        );
    }
    if class == "sandbox.blocked" && !payload_has(payload, "reasonCode") {
        miss(
            "payload.reasonCode",
            "sandbox.blocked events must include payload.reasonCode.",
        );
    }
    if (class.starts_with("evidence.") || class.starts_with("review."))
        && !is_string_field(rec, "evidenceId")
        && !has_refs(rec, "evidenceRefs")
    {
        miss(
            "evidenceId",
            "Evidence and review events must include evidenceId or evidenceRefs.",
        );
    }
}

/// True when an object key names a secret-bearing field: case-insensitive substring match of
/// `api[-_]?key`, `authorization`, `password`, `secret`, `token` (ASCII folding only, as the
/// non-Unicode JS regex does).
pub fn is_secret_key(key: &str) -> bool {
    const NEEDLES: [&[u8]; 7] = [
        b"apikey",
        b"api-key",
        b"api_key",
        b"authorization",
        b"password",
        b"secret",
        b"token",
    ];
    // Byte-wise ASCII case folding (no allocation); non-ASCII bytes never equal a needle byte.
    let k = key.as_bytes();
    NEEDLES.iter().any(|needle| {
        k.windows(needle.len()).any(|w| {
            w.iter()
                .zip(needle.iter())
                .all(|(a, b)| a.to_ascii_lowercase() == *b)
        })
    })
}

/// Large-inline check then secret-key scan of a payload or metadata value (`None` = absent).
fn payload_checks(sink: &mut Sink, value: Option<&Value>, path: &str) {
    let Some(value) = value else { return };
    if json_stringify_len(value) > MAX_INLINE_PAYLOAD_UNITS {
        sink.push(
            LARGE_PAYLOAD_INLINE,
            path.to_string(),
            "Large runtime payloads must be stored as refs instead of inline event payloads.",
        );
    }
    scan_secret_keys(sink, value, path);
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
// Runtime event streams: every event of a JSON array at once, with a fast path

/// Issues of every element of a JSON array of runtime events: the issues
/// [`collect_runtime_event_issues`] gives for element `i` at path `{path}[i]`, concatenated in
/// index order. `text` is the array's JSON text (as `JSON.stringify` writes it).
///
/// Each element is first checked by a single borrowing pass over its text that allocates
/// nothing for a clean event (the common case) and gives up at the first doubt; only then is
/// the element parsed into a `Value` and validated in full, so the result is exactly the
/// per-event validator's. Errors: `text` is not a JSON array (`Runtime events must be an
/// array.` or the parse error), or element `i` is not parseable on its own (`events[i]: ...`,
/// e.g. nesting deeper than serde_json's limit), as the per-event call would fail.
pub fn collect_runtime_events_issues(text: &str, path: &str) -> Result<Vec<Issue>, String> {
    let items: Vec<&serde_json::value::RawValue> = match serde_json::from_str(text) {
        Ok(items) => items,
        Err(e) if e.is_data() => return Err("Runtime events must be an array.".to_string()),
        Err(e) => return Err(format!("Invalid JSON input: {e}")),
    };
    let mut sink = Sink::new();
    for (i, raw) in items.iter().enumerate() {
        let raw = raw.get();
        if fast::is_clean_runtime_event(raw) {
            continue;
        }
        let event: Value = serde_json::from_str(raw)
            .map_err(|e| format!("events[{i}]: Invalid JSON input: {e}"))?;
        runtime_event(&mut sink, &event, &format!("{path}[{i}]"));
    }
    Ok(sink.issues)
}

/// The no-allocation check behind [`collect_runtime_events_issues`]: `true` only when the
/// event's JSON text parses (under the same rules and depth limit as `serde_json::Value`) to an
/// event with no issue at all. Anything unusual (a duplicate member that matters, a secret
/// key, a payload near the size limit, any failed rule) answers `false`, and the caller
/// validates that event in full.
mod fast {
    use std::borrow::Cow;
    use std::fmt;

    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

    use super::{is_secret_key, MAX_INLINE_PAYLOAD_UNITS};
    use crate::contract::js::{
        has_content, is_integer, js_number_to_string, json_string_literal_len,
    };
    use crate::contract::terminal::is_legacy_runtime_turn_terminal_event_class;

    pub(super) fn is_clean_runtime_event(text: &str) -> bool {
        let mut de = serde_json::Deserializer::from_str(text);
        match de.deserialize_any(EventProbe) {
            Ok(clean) => clean && de.end().is_ok(),
            Err(_) => false,
        }
    }

    /// Stop the pass: the event needs the full validator (or does not parse).
    fn doubt<E: de::Error>() -> E {
        E::custom("needs the full validator")
    }

    // Top-level members the rules read.
    const ID: usize = 0; // ..=6: the required non-empty strings, in the validator's order
    const REQUIRED: [&str; 7] = [
        "id",
        "schemaVersion",
        "runtimeId",
        "kind",
        "status",
        "title",
        "createdAt",
    ];
    const SEQUENCE: usize = 7;
    const EVENT_CLASS: usize = 8;
    const TOOL_CALL_ID: usize = 9;
    const ACTION_ID: usize = 10;
    const ARTIFACT_ID: usize = 11;
    const EVIDENCE_ID: usize = 12;
    const ARTIFACT_REFS: usize = 13;
    const REF_IDS: usize = 14;
    const EVIDENCE_REFS: usize = 15;
    const PAYLOAD: usize = 16;
    const TOP_FIELDS: usize = 17;

    fn top_field(key: &str) -> Option<usize> {
        if let Some(i) = REQUIRED.iter().position(|f| *f == key) {
            return Some(ID + i);
        }
        Some(match key {
            "sequence" => SEQUENCE,
            "eventClass" => EVENT_CLASS,
            "toolCallId" => TOOL_CALL_ID,
            "actionId" => ACTION_ID,
            "artifactId" => ARTIFACT_ID,
            "evidenceId" => EVIDENCE_ID,
            "artifactRefs" => ARTIFACT_REFS,
            "refIds" => REF_IDS,
            "evidenceRefs" => EVIDENCE_REFS,
            "payload" => PAYLOAD,
            _ => return None,
        })
    }

    // Payload members the scope rules read.
    const PAYLOAD_FIELDS: [&str; 12] = [
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
    const P_PATH: usize = 0;
    const P_PATCH_ID: usize = 1;
    const P_FAILURE_CATEGORY: usize = 2;
    const P_COMMAND_ID: usize = 3;
    const P_OUTPUT_REF: usize = 4;
    const P_CONTENT_REF: usize = 5;
    const P_DIFF_REF: usize = 6;
    const P_TEST_RUN_ID: usize = 7;
    const P_RESULT: usize = 8;
    const P_REASON_CODE: usize = 9;
    const P_STATUS: usize = 10;
    const P_EXIT_CODE: usize = 11;

    /// What the pass learned about one value.
    #[derive(Default)]
    struct Seen<'de> {
        kind: Kind,
        num: f64,
        /// The string itself (only for `eventClass`).
        text: Option<Cow<'de, str>>,
        non_empty: bool,
        content: bool,
        /// An array with at least one non-empty string item.
        refs: bool,
    }

    #[derive(Default, Clone, Copy, PartialEq, Eq)]
    enum Kind {
        #[default]
        Null,
        Bool,
        Num,
        Str,
        Arr,
        Obj,
    }

    impl Seen<'_> {
        fn integral(&self) -> bool {
            self.kind == Kind::Num && is_integer(self.num)
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Mode {
        /// Only parse (so errors match a full parse).
        Walk,
        /// Keep the string's text.
        Text,
        /// An id list: note a non-empty string item.
        Refs,
        /// Inside the payload: add up its `JSON.stringify` length, refuse secret keys.
        Measure,
        /// The payload itself: as `Measure`, and note its rule-relevant members.
        PayloadRoot,
    }

    /// Facts about the payload.
    #[derive(Default)]
    struct Acc {
        /// UTF-16 length of `JSON.stringify(payload)` (over-counted if a key repeats).
        len: usize,
        /// Bit `i`: `PAYLOAD_FIELDS[i]` seen; `good` bit `i`: it satisfies its rule.
        seen: u16,
        good: u16,
    }

    /// `Number::toString(x).length`, without allocating for integers.
    fn js_number_len(x: f64) -> usize {
        if x == 0.0 {
            return 1;
        }
        let a = x.abs();
        if a < 1e21 && a.trunc() == a {
            let mut n = a as u128;
            let mut digits = usize::from(x < 0.0);
            while n > 0 {
                digits += 1;
                n /= 10;
            }
            return digits;
        }
        js_number_to_string(x).len()
    }

    struct ValueProbe<'a> {
        mode: Mode,
        acc: &'a mut Acc,
    }

    impl<'de> DeserializeSeed<'de> for ValueProbe<'_> {
        type Value = Seen<'de>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Seen<'de>, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl ValueProbe<'_> {
        fn measuring(&self) -> bool {
            matches!(self.mode, Mode::Measure | Mode::PayloadRoot)
        }
        fn add(&mut self, n: usize) {
            if self.measuring() {
                self.acc.len = self.acc.len.saturating_add(n);
            }
        }
        fn number<'de>(mut self, x: f64) -> Seen<'de> {
            if self.measuring() {
                self.add(js_number_len(x));
            }
            Seen {
                kind: Kind::Num,
                num: x,
                ..Seen::default()
            }
        }
        fn string<'de>(mut self, s: &str, keep: impl FnOnce() -> Cow<'de, str>) -> Seen<'de> {
            if self.measuring() {
                self.add(json_string_literal_len(s));
            }
            Seen {
                kind: Kind::Str,
                non_empty: !s.is_empty(),
                content: has_content(s),
                text: (self.mode == Mode::Text).then(keep),
                ..Seen::default()
            }
        }
    }

    impl<'de> Visitor<'de> for ValueProbe<'_> {
        type Value = Seen<'de>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_unit<E: de::Error>(mut self) -> Result<Seen<'de>, E> {
            self.add(4);
            Ok(Seen::default())
        }

        fn visit_bool<E: de::Error>(mut self, b: bool) -> Result<Seen<'de>, E> {
            self.add(if b { 4 } else { 5 });
            Ok(Seen {
                kind: Kind::Bool,
                ..Seen::default()
            })
        }

        fn visit_i64<E: de::Error>(self, x: i64) -> Result<Seen<'de>, E> {
            Ok(self.number(x as f64))
        }

        fn visit_u64<E: de::Error>(self, x: u64) -> Result<Seen<'de>, E> {
            Ok(self.number(x as f64))
        }

        fn visit_f64<E: de::Error>(self, x: f64) -> Result<Seen<'de>, E> {
            Ok(self.number(x))
        }

        fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Seen<'de>, E> {
            Ok(self.string(s, || Cow::Borrowed(s)))
        }

        fn visit_str<E: de::Error>(self, s: &str) -> Result<Seen<'de>, E> {
            Ok(self.string(s, || Cow::Owned(s.to_owned())))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Seen<'de>, A::Error> {
            let child = match self.mode {
                Mode::Measure | Mode::PayloadRoot => Mode::Measure,
                _ => Mode::Walk,
            };
            let mut n = 0usize;
            let mut refs = false;
            while let Some(item) = seq.next_element_seed(ValueProbe {
                mode: child,
                acc: &mut *self.acc,
            })? {
                n += 1;
                refs |= item.kind == Kind::Str && item.non_empty;
            }
            let mut this = self;
            this.add(2 + n.saturating_sub(1));
            Ok(Seen {
                kind: Kind::Arr,
                refs: refs && this.mode == Mode::Refs,
                ..Seen::default()
            })
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Seen<'de>, A::Error> {
            let measuring = self.measuring();
            let child = if measuring { Mode::Measure } else { Mode::Walk };
            let mut n = 0usize;
            while let Some(key) = map.next_key_seed(KeyProbe)? {
                n += 1;
                if measuring {
                    if key.secret {
                        return Err(doubt());
                    }
                    self.acc.len = self.acc.len.saturating_add(key.literal_len + 1);
                }
                let field = if self.mode == Mode::PayloadRoot {
                    key.payload_field
                } else {
                    None
                };
                let seen = map.next_value_seed(ValueProbe {
                    mode: child,
                    acc: &mut *self.acc,
                })?;
                if let Some(f) = field {
                    let bit = 1u16 << f;
                    if self.acc.seen & bit != 0 {
                        return Err(doubt());
                    }
                    self.acc.seen |= bit;
                    let good = match f {
                        P_STATUS => seen.kind == Kind::Str,
                        P_EXIT_CODE => seen.integral(),
                        _ => seen.content,
                    };
                    if good {
                        self.acc.good |= bit;
                    }
                }
            }
            let mut this = self;
            this.add(2 + n.saturating_sub(1));
            Ok(Seen {
                kind: Kind::Obj,
                ..Seen::default()
            })
        }
    }

    /// A member name: its literal length, whether it is secret-bearing, which payload rule
    /// member it is.
    struct KeyProbe;

    struct Key {
        literal_len: usize,
        secret: bool,
        payload_field: Option<usize>,
    }

    impl<'de> DeserializeSeed<'de> for KeyProbe {
        type Value = Key;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
            d.deserialize_str(self)
        }
    }

    impl<'de> Visitor<'de> for KeyProbe {
        type Value = Key;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a member name")
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
            Ok(Key {
                literal_len: json_string_literal_len(s),
                secret: is_secret_key(s),
                payload_field: PAYLOAD_FIELDS.iter().position(|f| *f == s),
            })
        }
    }

    /// The event object: collects the top-level facts, then applies every rule.
    struct EventProbe;

    struct TopKey(Option<usize>);

    struct TopKeyProbe;

    impl<'de> DeserializeSeed<'de> for TopKeyProbe {
        type Value = TopKey;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<TopKey, D::Error> {
            d.deserialize_str(self)
        }
    }

    impl<'de> Visitor<'de> for TopKeyProbe {
        type Value = TopKey;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a member name")
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<TopKey, E> {
            Ok(TopKey(top_field(s)))
        }
    }

    impl<'de> Visitor<'de> for EventProbe {
        type Value = bool;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a runtime event object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
            let mut acc = Acc::default();
            let mut seen: [Option<Seen<'de>>; TOP_FIELDS] = Default::default();
            while let Some(TopKey(field)) = map.next_key_seed(TopKeyProbe)? {
                let mode = match field {
                    Some(EVENT_CLASS) => Mode::Text,
                    Some(ARTIFACT_REFS | REF_IDS | EVIDENCE_REFS) => Mode::Refs,
                    Some(PAYLOAD) => Mode::PayloadRoot,
                    _ => Mode::Walk,
                };
                let value = map.next_value_seed(ValueProbe {
                    mode,
                    acc: &mut acc,
                })?;
                if let Some(f) = field {
                    let slot = seen.get_mut(f).ok_or_else(doubt)?;
                    if slot.is_some() {
                        // A repeated member: the last one wins in a parse; let the full
                        // validator see it.
                        return Err(doubt());
                    }
                    *slot = Some(value);
                }
            }
            Ok(Facts { seen, acc }.clean())
        }

        // Anything but an object is an issue.
        fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<bool, A::Error> {
            Ok(false)
        }
    }

    struct Facts<'de> {
        seen: [Option<Seen<'de>>; TOP_FIELDS],
        acc: Acc,
    }

    impl Facts<'_> {
        fn get(&self, f: usize) -> Option<&Seen<'_>> {
            self.seen.get(f).and_then(Option::as_ref)
        }
        fn is_string(&self, f: usize) -> bool {
            self.get(f).is_some_and(|s| s.kind == Kind::Str)
        }
        fn has_refs(&self, f: usize) -> bool {
            self.get(f).is_some_and(|s| s.refs)
        }
        /// A payload rule member that satisfies its rule (the payload is an object).
        fn payload_good(&self, f: usize) -> bool {
            self.acc.good & (1 << f) != 0
        }

        /// Mirrors `runtime_event` and `scope_rules`: true when none of them reports.
        fn clean(&self) -> bool {
            for f in ID..ID + REQUIRED.len() {
                if !self
                    .get(f)
                    .is_some_and(|s| s.kind == Kind::Str && s.non_empty)
                {
                    return false;
                }
            }
            if !self.get(SEQUENCE).is_some_and(Seen::integral) {
                return false;
            }
            // Only the payload is measured (0 when it is absent).
            if self.acc.len > MAX_INLINE_PAYLOAD_UNITS {
                return false;
            }
            let Some(class) = self.get(EVENT_CLASS).and_then(|s| s.text.as_deref()) else {
                // No string eventClass: no class rules.
                return true;
            };
            if is_legacy_runtime_turn_terminal_event_class(Some(class)) {
                return false;
            }
            self.scope_clean(class)
        }

        fn scope_clean(&self, class: &str) -> bool {
            let has_tool_call = self.is_string(TOOL_CALL_ID);
            let has_artifact = self.is_string(ARTIFACT_ID) || self.has_refs(ARTIFACT_REFS);
            let p = |f| self.payload_good(f);
            let fails = (class.starts_with("tool.") && !has_tool_call)
                || (class.starts_with("action.") && !self.is_string(ACTION_ID))
                || (class.starts_with("artifact.") && !has_artifact)
                || (class == "file.read" && !p(P_PATH))
                || (class == "file.changed" && (!has_artifact || !p(P_PATH)))
                || (class.starts_with("patch.") && !p(P_PATCH_ID) && !has_tool_call)
                || (class == "patch.failed" && !p(P_FAILURE_CATEGORY))
                || (class.starts_with("command.") && !p(P_COMMAND_ID) && !has_tool_call)
                || (class == "command.output"
                    && !(self.has_refs(REF_IDS)
                        || self.has_refs(ARTIFACT_REFS)
                        || self.has_refs(EVIDENCE_REFS)
                        || p(P_OUTPUT_REF)
                        || p(P_CONTENT_REF)
                        || p(P_DIFF_REF)))
                || (class == "command.exited" && !p(P_EXIT_CODE) && !p(P_STATUS))
                || (class.starts_with("test.") && !p(P_TEST_RUN_ID) && !has_tool_call)
                || (class == "test.completed" && !p(P_RESULT) && !p(P_STATUS))
                || (class == "sandbox.blocked" && !p(P_REASON_CODE))
                || ((class.starts_with("evidence.") || class.starts_with("review."))
                    && !self.is_string(EVIDENCE_ID)
                    && !self.has_refs(EVIDENCE_REFS));
            !fails
        }
    }

    #[cfg(test)]
    mod tests {
        use super::js_number_len;
        use crate::contract::js::js_number_to_string;

        #[test]
        fn number_lengths_match_number_to_string() {
            for x in [
                0.0,
                -0.0,
                1.0,
                -1.0,
                9.0,
                10.0,
                99.0,
                100.0,
                123456789.0,
                -42.5,
                0.1,
                1e20,
                1e21,
                123e19,
                -1e21,
                1.5e-7,
                5e-324,
                1.7976931348623157e308,
                4294967296.0,
                9007199254740993.0,
            ] {
                assert_eq!(js_number_len(x), js_number_to_string(x).len(), "{x}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Read models (§2.6)

/// Issues of a thread read model (`AgentRuntimeReadModel`).
pub fn collect_thread_read_model_issues(input: &Value, path: &str) -> Vec<Issue> {
    let mut sink = Sink::new();
    read_model(&mut sink, input, path);
    sink.issues
}

fn read_model(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Thread read model must be an object.",
        );
        return;
    };
    sink.req_array_of(rec, "events", path, event_projection);
    sink.req_array_of(rec, "visibleEvents", path, event_projection);
    sink.req_array_of(rec, "pendingActions", path, event_projection);
    sink.req_bool(rec, "inputSourceRecovery", path);
    sink.req_number(rec, "sourceCount", path);
    sink.req_string_array(rec, "artifactRefs", path);
    sink.req_string_array(rec, "evidenceRefs", path);
    sink.req_string_array(rec, "taskRefs", path);
}

/// One `AgentRuntimeEventProjection`, including the full validation of its source event.
fn event_projection(sink: &mut Sink, input: &Value, path: &str) {
    let Some(rec) = input.as_object() else {
        sink.push(
            SCHEMA_MISMATCH,
            path.to_string(),
            "Runtime projection event must be an object.",
        );
        return;
    };
    sink.req_string(rec, "id", path);
    sink.req_record(rec, "source", path);
    for f in ["surface", "title", "status", "displayStatusKey"] {
        sink.req_string(rec, f, path);
    }
    sink.req_bool(rec, "resolved", path);
    sink.req_string(rec, "actionKind", path);
    sink.req_string(rec, "targetModule", path);
    sink.opt_string(rec, "detail", path);
    sink.opt_string(rec, "actionId", path);
    if let Some(source @ Value::Object(_)) = rec.get("source") {
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
        payload_checks(sink, Some(meta), &field_path(path, "metadata"));
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
    if let Some(rm) = rec.get("initialReadModel") {
        read_model(&mut sink, rm, &field_path(path, "initialReadModel"));
    }
    if let Some(rm) = rec.get("finalReadModel") {
        read_model(&mut sink, rm, &field_path(path, "finalReadModel"));
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
    let mut last_index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
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
            each.extend(collect_runtime_event_issues(&v, &format!("$[{i}]")));
        }
        assert_eq!(stream, each);
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
            assert!(texts.iter().all(|t| fast::is_clean_runtime_event(t)));
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
        let issues = collect_runtime_events_issues("[null,{}]", "root").expect("issues");
        assert_eq!(issues[0].path, "root[0]");
        assert_eq!(issues[1].path, "root[1].id");
    }
}

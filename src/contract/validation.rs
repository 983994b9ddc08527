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
    let k = key.to_ascii_lowercase();
    [
        "apikey",
        "api-key",
        "api_key",
        "authorization",
        "password",
        "secret",
        "token",
    ]
    .iter()
    .any(|needle| k.contains(needle))
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

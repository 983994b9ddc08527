//! The runtime event model: `AgentRuntimeExecutionEvent` (contracts.md §1.1).
//!
//! Events are kept as parsed JSON objects (`serde_json::Map`, key order preserved) so that every
//! field, known or unknown, survives untouched; `Ev` gives typed, JS-faithful read access.
//! `parse_event` is the boundary check used by the projection entry points: it rejects what is
//! malformed (not an object, no non-empty string `id`, a known field of the wrong JSON type),
//! while contract-rule breaches (missing scope ids, secret keys) are left to validation.

use serde_json::{Map, Value};

use super::js::{has_content, js_trim};

/// Every field of `AgentRuntimeExecutionEvent`, in declaration order.
pub const EVENT_FIELDS: [&str; 35] = [
    "id",
    "kind",
    "status",
    "eventClass",
    "owner",
    "schemaVersion",
    "sequence",
    "runtimeId",
    "threadId",
    "turnId",
    "taskId",
    "subagentId",
    "runId",
    "stepId",
    "toolCallId",
    "actionId",
    "workerId",
    "channelId",
    "handoffId",
    "reviewId",
    "traceId",
    "spanId",
    "attemptId",
    "artifactId",
    "evidenceId",
    "phase",
    "title",
    "detail",
    "refIds",
    "artifactRefs",
    "evidenceRefs",
    "payload",
    "model",
    "createdAt",
    "completedAt",
];

/// Fields whose value must be a string when present (null is tolerated as "no value").
pub const STRING_FIELDS: [&str; 30] = [
    "id",
    "kind",
    "status",
    "eventClass",
    "owner",
    "schemaVersion",
    "runtimeId",
    "threadId",
    "turnId",
    "taskId",
    "subagentId",
    "runId",
    "stepId",
    "toolCallId",
    "actionId",
    "workerId",
    "channelId",
    "handoffId",
    "reviewId",
    "traceId",
    "spanId",
    "attemptId",
    "artifactId",
    "evidenceId",
    "phase",
    "title",
    "detail",
    "model",
    "createdAt",
    "completedAt",
];

/// The three reference arrays of an event.
pub const REF_FIELDS: [&str; 3] = ["refIds", "artifactRefs", "evidenceRefs"];

/// Maximum nesting depth of an event accepted by the projection (objects and arrays).
pub const MAX_EVENT_DEPTH: usize = 64;

/// Why an input could not be taken as an event.
#[derive(Debug, Clone, PartialEq)]
pub struct EventError {
    pub message: String,
}

impl std::fmt::Display for EventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EventError {}

fn err(msg: impl Into<String>) -> EventError {
    EventError {
        message: msg.into(),
    }
}

/// Nesting depth of a JSON value, computed without recursion.
pub fn json_depth(v: &Value) -> usize {
    let mut max = 0usize;
    let mut stack: Vec<(&Value, usize)> = vec![(v, 1)];
    while let Some((x, d)) = stack.pop() {
        match x {
            Value::Array(a) => {
                max = max.max(d);
                stack.extend(a.iter().map(|c| (c, d + 1)));
            }
            Value::Object(m) => {
                max = max.max(d);
                stack.extend(m.values().map(|c| (c, d + 1)));
            }
            _ => {}
        }
    }
    max
}

/// Check that a parsed JSON value is a well-formed event for projection.
pub fn check_event(v: &Value) -> Result<(), EventError> {
    let m = v
        .as_object()
        .ok_or_else(|| err("Runtime event must be an object."))?;
    match m.get("id") {
        Some(Value::String(s)) if !s.is_empty() => {}
        _ => return Err(err("Runtime event id must be a non-empty string.")),
    }
    for f in STRING_FIELDS {
        match m.get(f) {
            None | Some(Value::Null) | Some(Value::String(_)) => {}
            Some(_) => return Err(err(format!("Runtime event field '{f}' must be a string."))),
        }
    }
    match m.get("sequence") {
        None | Some(Value::Null) | Some(Value::Number(_)) => {}
        Some(_) => return Err(err("Runtime event field 'sequence' must be a number.")),
    }
    for f in REF_FIELDS {
        match m.get(f) {
            None | Some(Value::Null) => {}
            Some(Value::Array(a)) if a.iter().all(Value::is_string) => {}
            Some(_) => {
                return Err(err(format!(
                    "Runtime event field '{f}' must be an array of strings."
                )))
            }
        }
    }
    if json_depth(v) > MAX_EVENT_DEPTH {
        return Err(err(format!(
            "Runtime event nesting exceeds the limit of {MAX_EVENT_DEPTH} levels."
        )));
    }
    Ok(())
}

/// Parse JSON text (one event) and check it (`check_event`).
pub fn parse_event(text: &str) -> Result<Value, EventError> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| err(format!("Invalid event JSON: {e}")))?;
    check_event(&v)?;
    Ok(v)
}

/// Typed read access to an event object, with the reference's JS semantics.
#[derive(Clone, Copy, Debug)]
pub struct Ev<'a> {
    pub map: &'a Map<String, Value>,
}

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

impl<'a> Ev<'a> {
    pub fn new(map: &'a Map<String, Value>) -> Ev<'a> {
        Ev { map }
    }

    /// An `Ev` over a JSON value; non-objects read as an empty event.
    pub fn of(v: &'a Value) -> Ev<'a> {
        match v.as_object() {
            Some(m) => Ev { map: m },
            None => Ev {
                map: EMPTY.get_or_init(Map::new),
            },
        }
    }

    /// Raw field value (`None` when absent).
    pub fn get(&self, k: &str) -> Option<&'a Value> {
        self.map.get(k)
    }

    /// Field if it is a string (`typeof === "string"`).
    pub fn str(&self, k: &str) -> Option<&'a str> {
        self.map.get(k).and_then(Value::as_str)
    }

    /// Field if it is a non-empty string (JS truthy string).
    pub fn truthy_str(&self, k: &str) -> Option<&'a str> {
        self.str(k).filter(|s| !s.is_empty())
    }

    /// Field is present and not null (`ev.k != null`).
    pub fn present(&self, k: &str) -> bool {
        !matches!(self.map.get(k), None | Some(Value::Null))
    }

    /// JS truthiness of a field.
    pub fn truthy(&self, k: &str) -> bool {
        match self.map.get(k) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(Value::Number(n)) => n.as_f64().map(|x| x != 0.0 && !x.is_nan()).unwrap_or(false),
            Some(Value::String(s)) => !s.is_empty(),
            Some(_) => true,
        }
    }

    pub fn id(&self) -> Option<&'a str> {
        self.str("id")
    }

    /// `ev.eventClass ?? ""` for string classes (non-strings read as "").
    pub fn cls(&self) -> &'a str {
        self.str("eventClass").unwrap_or("")
    }

    pub fn kind(&self) -> Option<&'a str> {
        self.str("kind")
    }

    pub fn status(&self) -> Option<&'a str> {
        self.str("status")
    }

    /// `ev.payload` if it is a record.
    pub fn payload(&self) -> Option<&'a Map<String, Value>> {
        self.map.get("payload").and_then(Value::as_object)
    }

    /// A payload field (payload must be a record).
    pub fn payload_get(&self, k: &str) -> Option<&'a Value> {
        self.payload().and_then(|p| p.get(k))
    }

    /// `rawStr(ev, k1, k2, ...)`: first payload string with non-blank content, untrimmed.
    pub fn raw_str(&self, keys: &[&str]) -> Option<&'a str> {
        let p = self.payload()?;
        raw_str_in(p, keys)
    }

    /// A string array field (`ev.artifactRefs ?? []`); non-string items are skipped.
    pub fn str_list(&self, k: &str) -> Vec<&'a str> {
        match self.map.get(k) {
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// `eventRefs(ev)`: refIds ++ artifactRefs ++ evidenceRefs.
    pub fn event_refs(&self) -> Vec<&'a str> {
        let mut out = self.str_list("refIds");
        out.extend(self.str_list("artifactRefs"));
        out.extend(self.str_list("evidenceRefs"));
        out
    }
}

/// First key of a record whose value is a string with non-blank content, untrimmed.
pub fn raw_str_in<'a>(rec: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .filter_map(|k| rec.get(*k).and_then(Value::as_str))
        .find(|s| has_content(s))
}

/// `readStringField(rec, keys)`: first non-blank string, trimmed.
pub fn trim_str_in<'a>(rec: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .filter_map(|k| rec.get(*k).and_then(Value::as_str))
        .map(js_trim)
        .find(|s| !s.is_empty())
}

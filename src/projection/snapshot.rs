//! Projection from a stored session snapshot (projection spec §2.3, the reference's
//! `projectAgentUiStateFromSessionSnapshot`).
//!
//! A snapshot carries execution events, or a saved read model whose entries hold the events as
//! `source`, and optionally the transcript messages. The state is the batch projection of the
//! events; transcript messages, when there are any, replace the event-derived `messages`.

use serde_json::Value;

use crate::contract::js::{has_content, js_number_to_string};
use crate::contract::val::{Obj, Val};

/// Which list `Val::Event(i)` in the projected state refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotEventList {
    /// `input.executionEvents[i]`.
    ExecutionEvents,
    /// `input.readModel.events[i].source`.
    ReadModelSources,
}

/// The events to project: `executionEvents` unless nullish (an explicit `[]` wins), else the
/// read model's `events[*].source`, else none.
pub fn snapshot_events(input: &Value) -> (Vec<Value>, SnapshotEventList) {
    match input.get("executionEvents") {
        Some(v) if !v.is_null() => (
            v.as_array().cloned().unwrap_or_default(),
            SnapshotEventList::ExecutionEvents,
        ),
        _ => {
            let list = input
                .get("readModel")
                .and_then(|r| r.get("events"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|p| p.get("source").cloned().unwrap_or(Value::Null))
                        .collect()
                })
                .unwrap_or_default();
            (list, SnapshotEventList::ReadModelSources)
        }
    }
}

/// `input.sourceCount ?? input.readModel?.sourceCount`, numbers only.
pub fn snapshot_source_count(input: &Value) -> Option<f64> {
    match input.get("sourceCount") {
        Some(v) if !v.is_null() => v.as_f64(),
        _ => input
            .get("readModel")
            .and_then(|r| r.get("sourceCount"))
            .and_then(Value::as_f64),
    }
}

/// JS `String(v)` for the values a message id can hold.
fn js_string(v: Option<&Value>) -> String {
    match v {
        None => "undefined".into(),
        Some(Value::Null) => "null".into(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => js_number_to_string(n.as_f64().unwrap_or(f64::NAN)),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| match x {
                Value::Null => String::new(),
                Value::Array(_) => "[nested]".into(),
                other => js_string(Some(other)),
            })
            .collect::<Vec<_>>()
            .join(","),
        Some(Value::Object(_)) => "[object Object]".into(),
    }
}

fn val(v: Option<&Value>) -> Val {
    v.map(Val::from_json).unwrap_or(Val::Undef)
}

/// One transcript message as a final text part (all 9 keys present).
pub fn snapshot_message_part(m: &Value) -> Val {
    let id = js_string(m.get("id"));
    let role = match m.get("role").and_then(Value::as_str) {
        Some(r) if has_content(r) => Val::str(r),
        _ => Val::str("assistant"),
    };
    let text = match m.get("content") {
        Some(c) if !c.is_null() => Val::from_json(c),
        _ => match m.get("text") {
            Some(t) if !t.is_null() => Val::from_json(t),
            _ => Val::str(""),
        },
    };
    Obj::new()
        .k("type", Val::str("text"))
        .k("partId", Val::string(format!("message:{id}")))
        .k("messageId", val(m.get("id")))
        .k("role", role)
        .k("text", text)
        .k("state", Val::str("final"))
        .k("sourceEventId", Val::string(format!("message:{id}")))
        .k("createdAt", val(m.get("createdAt")))
        .k("refs", val(m.get("refs")))
        .into_val()
}

/// The snapshot state given a batch projection `project(events, sourceCount)`.
pub fn project_from_session_snapshot_with(
    input: &Value,
    project: &dyn Fn(&[Value], Option<f64>) -> Val,
) -> Val {
    let (events, _) = snapshot_events(input);
    let state = project(&events, snapshot_source_count(input));
    let parts: Vec<Val> = input
        .get("messages")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(snapshot_message_part).collect())
        .unwrap_or_default();
    if parts.is_empty() {
        return state;
    }
    match state.as_obj() {
        Some(o) => {
            let mut o = o.clone();
            o.set("messages", Val::arr(parts));
            o.into_val()
        }
        None => state,
    }
}

//! Projection from a stored session snapshot (projection spec §2.3, the reference's
//! `projectAgentUiStateFromSessionSnapshot`).
//!
//! A snapshot carries execution events, or a saved read model whose entries hold the events as
//! `source`, and optionally the transcript messages. The state is the batch projection of the
//! events; transcript messages, when there are any, replace the event-derived `messages`.

use serde_json::Value;

use crate::contract::event::EventError;
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

/// `input.sourceCount ?? input.readModel?.sourceCount` (then `?? 0`), as the read model keeps
/// it (see [`crate::projection::read_model::source_count_of`]).
pub fn snapshot_source_count(input: &Value) -> Val {
    let given = match input.get("sourceCount") {
        Some(v) if !v.is_null() => Some(v),
        _ => input.get("readModel").and_then(|r| r.get("sourceCount")),
    };
    crate::projection::read_model::source_count_of(given)
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

/// A batch projection `project(events, sourceCount)`.
pub type BatchProjection<'a> = &'a dyn Fn(&[Value], Val) -> Result<Val, EventError>;

/// The snapshot state given a batch projection `project(events, sourceCount)`.
pub fn project_from_session_snapshot_with(
    input: &Value,
    project: BatchProjection<'_>,
) -> Result<Val, EventError> {
    let (events, _) = snapshot_events(input);
    let state = project(&events, snapshot_source_count(input))?;
    let parts: Vec<Val> = input
        .get("messages")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(snapshot_message_part).collect())
        .unwrap_or_default();
    if parts.is_empty() {
        return Ok(state);
    }
    Ok(match state.as_obj() {
        Some(o) => {
            let mut o = o.clone();
            o.set("messages", Val::arr(parts));
            o.into_val()
        }
        None => state,
    })
}

/// `projectAgentUiStateFromSessionSnapshot(input)` with the crate's batch projection, compact
/// (`Val::Event(i)` and the templates' objects stand for the i-th event of the list
/// `snapshot_events` selects, which the receiver has).
pub fn project_from_session_snapshot(input: &Value) -> Result<Val, EventError> {
    project_from_session_snapshot_with(input, &crate::projection::projector::project_compact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::val::deep_equal;
    use serde_json::json;

    fn fake_project(events: &[Value], sc: Val) -> Result<Val, EventError> {
        Ok(Obj::new()
            .k("runtime", Val::Num(events.len() as f64))
            .k("messages", Val::arr(vec![]))
            .k("sourceCount", sc)
            .into_val())
    }

    #[test]
    fn events_from_read_model_and_messages_replace_parts() {
        let input = json!({
            "readModel": {"sourceCount": 2, "events": [{"source": {"id": "a"}}, {"source": {"id": "b"}}]},
            "messages": [{"id": "m1", "role": "  ", "text": "hi", "refs": ["r"]}, {"id": 7, "content": null}]
        });
        let (events, list) = snapshot_events(&input);
        assert_eq!(events.len(), 2);
        assert_eq!(list, SnapshotEventList::ReadModelSources);
        let s = project_from_session_snapshot_with(&input, &fake_project).unwrap_or_default();
        assert_eq!(s.get("runtime").and_then(Val::as_f64), Some(2.0));
        assert_eq!(s.get("sourceCount").and_then(Val::as_f64), Some(2.0));
        let keys: Vec<&str> = s.as_obj().map(|o| o.keys().collect()).unwrap_or_default();
        assert_eq!(keys, vec!["runtime", "messages", "sourceCount"]);
        let want = Val::from_json(&json!([
            {"type": "text", "partId": "message:m1", "messageId": "m1", "role": "assistant",
             "text": "hi", "state": "final", "sourceEventId": "message:m1", "refs": ["r"]},
            {"type": "text", "partId": "message:7", "messageId": 7, "role": "assistant",
             "text": "", "state": "final", "sourceEventId": "message:7"}
        ]));
        // createdAt (both) and refs (second) are present and undefined.
        let mut want_parts: Vec<Val> = want.as_arr().unwrap_or(&[]).to_vec();
        for (i, p) in want_parts.iter_mut().enumerate() {
            let mut o = p.as_obj().cloned().unwrap_or_default();
            o.set("createdAt", Val::Undef);
            if i == 1 {
                o.set("refs", Val::Undef);
            }
            *p = o.into_val();
        }
        let got = s.get("messages").cloned().unwrap_or(Val::Undef);
        assert!(deep_equal(&got, &Val::arr(want_parts)), "{}", got.to_json());
    }

    #[test]
    fn explicit_empty_execution_events_win() {
        let input =
            json!({"executionEvents": [], "readModel": {"events": [{"source": {"id": "a"}}]}});
        let (events, list) = snapshot_events(&input);
        assert!(events.is_empty());
        assert_eq!(list, SnapshotEventList::ExecutionEvents);
        let s = project_from_session_snapshot_with(&input, &fake_project).unwrap_or_default();
        assert_eq!(s.get("runtime").and_then(Val::as_f64), Some(0.0));
    }
}

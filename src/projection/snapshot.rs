//! Projection from a stored session snapshot (projection spec §2.3, the reference's
//! `projectAgentUiStateFromSessionSnapshot`).
//!
//! A snapshot carries execution events, or a saved read model whose entries hold the events as
//! `source`, and optionally the transcript messages. Which events and which source count it
//! holds (`executionEvents ?? readModel.events[*].source`, `sourceCount ??
//! readModel.sourceCount`) is read from the caller's own object by the JS wrapper, as the
//! reference reads it (its property reads and their TypeErrors). The state is the batch
//! projection of the events (the binding projects them as any batch); this module holds what the
//! snapshot adds: transcript messages, when there are any, replace the event-derived `messages`
//! ([`with_transcript`]).

use serde_json::Value;

use crate::contract::js::{has_content, js_number_to_string};
use crate::contract::val::{Obj, Val};

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

/// The snapshot state of a batch's `state` and the transcript `messages` (any value; only an
/// array has parts): its parts are the state's `messages` when there are any.
pub fn with_transcript(state: Val, messages: Option<&Value>) -> Val {
    let parts: Vec<Val> = messages
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::event::EventError;
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
    fn messages_replace_the_parts() {
        let events = vec![json!({"id": "a"}), json!({"id": "b"})];
        let messages = json!([{"id": "m1", "role": "  ", "text": "hi", "refs": ["r"]}, {"id": 7, "content": null}]);
        let state = fake_project(&events, Val::Num(2.0)).unwrap_or_default();
        let s = with_transcript(state, Some(&messages));
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
    fn no_messages_keep_the_projection() {
        for messages in [
            None,
            Some(json!([])),
            Some(json!("x")),
            Some(json!({"0": {"id": 1}})),
        ] {
            let state = fake_project(&[], Val::Num(0.0)).unwrap_or_default();
            let s = with_transcript(state, messages.as_ref());
            let got = s.get("messages").cloned().unwrap_or(Val::Undef);
            assert!(deep_equal(&got, &Val::arr(vec![])), "{messages:?}");
        }
    }
}

//! `agentSession/read` results: the session becomes a snapshot event, each turn a lifecycle
//! event (`turn.submitted` / `turn.started` / `action.required` / a turn terminal).

use serde_json::Value;

use crate::contract::js::utf16_len;

use super::access::{coalesce, defined_string, get, member, normalize_status, to_js_string, Js};
use super::classes::{
    class_of_turn, phase_of_class, status_of_session, status_of_turn, terminal_status,
    title_of_turn,
};
use super::out::{object, Out};
use super::{
    id_of, Builder, Built, ExecutionEvents, FactsError, Stamp, DEFAULT_TIMESTAMP, RUNTIME_ID,
    SCHEMA_VERSION,
};

/// `projectAppServerSessionReadToExecutionEvents(readModel)`: the session snapshot, then one
/// event per turn, deduplicated by id.
pub fn project_app_server_session_read_to_execution_events(
    read_model: Js<'_>,
) -> Result<ExecutionEvents<'_>, FactsError> {
    let mut b = Builder::default();
    project_session_read(read_model, &mut b)?;
    Ok(b.into_events())
}

/// Build the events of a session read (`{session, turns}`) into `b`.
pub fn project_session_read<'a>(read_model: Js<'a>, b: &mut Builder<'a>) -> Result<(), FactsError> {
    let session = get(read_model, "session")?;
    project_session(session, member(read_model, "turns"), b)
}

/// Build the events of a session and its turns into `b`.
pub fn project_session<'a>(
    session: Js<'a>,
    turns: Js<'a>,
    b: &mut Builder<'a>,
) -> Result<(), FactsError> {
    // `turns ?? []`
    let turns = coalesce(turns, None);
    let session_id = get(session, "sessionId")?;
    let id = id_of("appserver:session:", &to_js_string(session_id), ":snapshot");
    let status_value = member(session, "status");
    let status = status_of_session(
        status_value.and_then(Value::as_str),
        normalize_status(status_value)?.as_deref(),
    );
    let turn_count = match turns {
        None | Some(Value::Null) => Out::Num(0.0),
        Some(Value::Array(a)) => Out::Num(a.len() as f64),
        Some(Value::String(s)) => Out::Num(utf16_len(s) as f64),
        Some(Value::Object(_)) => Out::fact(member(turns, "length")),
        Some(_) => Out::Absent,
    };
    let payload = object(vec![
        ("sessionId", Out::fact(session_id)),
        ("appId", Out::fact(member(session, "appId"))),
        ("workspaceId", Out::fact(member(session, "workspaceId"))),
        ("status", Out::fact(status_value)),
        ("turnCount", turn_count),
    ]);
    let created = first_defined(&[member(session, "updatedAt"), member(session, "createdAt")])?;
    let event = object(vec![
        ("id", Out::Shared(id.clone())),
        ("schemaVersion", Out::Lit(SCHEMA_VERSION)),
        ("kind", Out::Lit("state")),
        ("status", Out::Lit(status)),
        ("eventClass", Out::Lit("snapshot.updated")),
        ("runtimeId", Out::Lit(RUNTIME_ID)),
        ("threadId", Out::fact(member(session, "threadId"))),
        ("title", Out::Lit("Session snapshot updated")),
        ("detail", Out::fact(status_value)),
        ("payload", payload),
        ("createdAt", Out::Text(created)),
    ]);
    b.push(Built {
        id,
        event,
        sequence: None,
        created: Stamp::Text(created),
    });

    let list = match turns {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(FactsError("turns.forEach is not a function".to_owned())),
    };
    for (index, turn) in list.iter().enumerate() {
        b.push(turn_event(Some(turn), session, index)?);
    }
    Ok(())
}

/// The first of `values` that is a non-blank string (trimmed), else the default time. Values
/// are examined in order and the first that is neither nullish nor a string throws.
fn first_defined<'a>(values: &[Js<'a>]) -> Result<&'a str, FactsError> {
    for v in values {
        if let Some(s) = defined_string(*v)? {
            return Ok(s);
        }
    }
    Ok(DEFAULT_TIMESTAMP)
}

/// The lifecycle event of turn `index` of a session.
fn turn_event<'a>(turn: Js<'a>, session: Js<'a>, index: usize) -> Result<Built<'a>, FactsError> {
    let status_value = get(turn, "status")?;
    let raw = status_value.and_then(Value::as_str);
    let normalized = normalize_status(status_value)?;
    let normalized = normalized.as_deref();
    let class = class_of_turn(raw, normalized);
    let terminal = terminal_status(normalized);
    let status_text = match status_value {
        None | Some(Value::Null) => "unknown".to_owned(),
        v => to_js_string(v),
    };
    let id = id_of(
        "appserver:turn:",
        &to_js_string(member(turn, "turnId")),
        &format!(":status:{status_text}"),
    );
    let sequence = (index + 1) as f64;
    let created = first_defined(&[
        member(turn, "completedAt"),
        member(turn, "startedAt"),
        member(session, "updatedAt"),
    ])?;
    let payload = object(vec![
        (
            "sessionId",
            Out::fact(coalesce(
                member(turn, "sessionId"),
                member(session, "sessionId"),
            )),
        ),
        ("nativeStatus", Out::fact(status_value)),
    ]);
    let event = object(vec![
        ("id", Out::Shared(id.clone())),
        ("schemaVersion", Out::Lit(SCHEMA_VERSION)),
        ("kind", Out::Lit("state")),
        (
            "status",
            Out::Lit(terminal.unwrap_or_else(|| status_of_turn(raw, normalized))),
        ),
        ("eventClass", Out::Lit(class)),
        ("runtimeId", Out::Lit(RUNTIME_ID)),
        (
            "threadId",
            Out::fact(coalesce(
                member(turn, "threadId"),
                member(session, "threadId"),
            )),
        ),
        ("turnId", Out::fact(member(turn, "turnId"))),
        ("sequence", Out::Num(sequence)),
        (
            "phase",
            Out::Lit(terminal.unwrap_or_else(|| phase_of_class(class))),
        ),
        ("title", Out::Lit(title_of_turn(raw))),
        ("detail", Out::fact(status_value)),
        ("payload", payload),
        ("createdAt", Out::Text(created)),
        ("completedAt", Out::fact(member(turn, "completedAt"))),
    ]);
    Ok(Built {
        id,
        event,
        sequence: Some(sequence),
        created: Stamp::Text(created),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn events(v: Value) -> Result<Vec<Value>, String> {
        project_app_server_session_read_to_execution_events(Some(&v))
            .map(|e| e.to_json())
            .map_err(|e| e.0)
    }

    #[test]
    fn snapshot_and_turns() {
        let got = events(json!({
            "session": {"sessionId": "s", "threadId": "t", "appId": "app", "status": "waitingAction",
                        "createdAt": "C", "updatedAt": "  "},
            "turns": [
                {"turnId": "u1", "status": " Completed ", "startedAt": "S1", "completedAt": "D1"},
                {"turnId": "u2", "threadId": "t2", "status": "accepted"},
                {"turnId": "u3"}
            ]
        }))
        .unwrap();
        assert_eq!(
            got[0],
            json!({"id": "appserver:session:s:snapshot", "schemaVersion": "lime-runtime-event/v0.1",
                "kind": "state", "status": "blocked", "eventClass": "snapshot.updated",
                "runtimeId": "app-server", "threadId": "t", "title": "Session snapshot updated",
                "detail": "waitingAction",
                "payload": {"sessionId": "s", "appId": "app", "status": "waitingAction", "turnCount": 3},
                "createdAt": "C"})
        );
        assert_eq!(
            got[1],
            json!({"id": "appserver:turn:u1:status: Completed ", "schemaVersion": "lime-runtime-event/v0.1",
                "kind": "state", "status": "completed", "eventClass": "turn.completed",
                "runtimeId": "app-server", "threadId": "t", "turnId": "u1", "sequence": 1,
                "phase": "completed", "title": "Turn started", "detail": " Completed ",
                "payload": {"sessionId": "s", "nativeStatus": " Completed "},
                "createdAt": "D1", "completedAt": "D1"})
        );
        assert_eq!(got[2]["eventClass"], json!("turn.started"));
        assert_eq!(got[2]["status"], json!("running"));
        assert_eq!(got[2]["phase"], json!("preparing"));
        assert_eq!(got[2]["threadId"], json!("t2"));
        assert_eq!(got[2]["createdAt"], json!("1970-01-01T00:00:00.000Z"));
        assert_eq!(got[3]["id"], json!("appserver:turn:u3:status:unknown"));
        assert_eq!(got[3]["eventClass"], json!("turn.submitted"));
        assert_eq!(got[3]["status"], json!("pending"));
        assert_eq!(got[3]["title"], json!("Turn started"));
    }

    #[test]
    fn odd_sessions() {
        // A string session has no fields; a string `turns` counts its length but is no list.
        assert_eq!(
            events(json!({"session": "x", "turns": "ab"})),
            Err("turns.forEach is not a function".into())
        );
        let got = events(json!({"session": {"sessionId": 7}, "turns": null})).unwrap();
        assert_eq!(got[0]["id"], json!("appserver:session:7:snapshot"));
        assert_eq!(got[0]["status"], json!("pending"));
        assert_eq!(got[0]["payload"], json!({"sessionId": 7, "turnCount": 0}));
        assert_eq!(
            events(json!({})),
            Err("Cannot read properties of undefined (reading 'sessionId')".into())
        );
        assert_eq!(
            events(json!({"session": {"updatedAt": 5}})),
            Err("value?.trim is not a function".into())
        );
        assert_eq!(
            events(json!({"session": {}, "turns": [null]})),
            Err("Cannot read properties of null (reading 'status')".into())
        );
        assert_eq!(
            project_app_server_session_read_to_execution_events(None)
                .err()
                .map(|e| e.0),
            Some("Cannot read properties of undefined (reading 'session')".into())
        );
    }
}

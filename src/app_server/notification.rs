//! `agentSession/event` notifications: each event fact (a notification's `params.event`)
//! becomes one execution event. Only these facts enter the event router; the retired raw
//! subagent status types are dropped.

use serde_json::{Map, Value};

use crate::contract::js::js_lower;
use crate::contract::terminal::is_legacy_runtime_turn_terminal_event_class;
use crate::contract::val::Val;
use crate::projection::collaboration::{build_collaboration_payload_metadata, CollabInput};
use crate::projection::tool_lifecycle::{is_lifecycle_key, LIFECYCLE_RECORDS, LIFECYCLE_STRINGS};

use super::access::{
    cannot_read, coalesce, distinct, field, get, is_nullish, member, no_trim, number_like, record,
    string_array_field, string_field as rsf, to_js_string, Js,
};
use super::classes::*;
use super::out::{object, set, Out};
use super::{
    id_of, Builder, Built, ExecutionEvents, FactsError, Stamp, DEFAULT_TIMESTAMP, RUNTIME_ID,
    SCHEMA_VERSION,
};

type Rec<'a> = Option<&'a Map<String, Value>>;

/// `projectAppServerEventsToExecutionEvents(events)`: one execution event per event fact, in
/// order, deduplicated by id (`undefined`/`null` is no events).
pub fn project_app_server_events_to_execution_events(
    events: Js<'_>,
) -> Result<ExecutionEvents<'_>, FactsError> {
    let mut b = Builder::default();
    project_events(events, &mut b)?;
    Ok(b.into_events())
}

/// Build the execution events of a list of event facts into `b`.
pub fn project_events<'a>(events: Js<'a>, b: &mut Builder<'a>) -> Result<(), FactsError> {
    let list = match events {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(items)) => items,
        Some(_) => {
            return Err(FactsError(
                "(events ?? []).filter is not a function".to_owned(),
            ))
        }
    };
    // Every fact's type is read before any is projected (a filter, then a map).
    let mut kept = Vec::with_capacity(list.len());
    for event in list {
        let ty = get(Some(event), "type")?;
        let retired = ty
            .and_then(Value::as_str)
            .is_some_and(|t| RETIRED_EVENT_TYPES.contains(&t));
        if !retired {
            kept.push(event);
        }
    }
    for event in kept {
        b.push(event_of_fact(event)?);
    }
    Ok(())
}

/// The execution event of one event fact (not nullish).
fn event_of_fact(fact: &Value) -> Result<Built<'_>, FactsError> {
    let e = Some(fact);
    let payload_value = member(e, "payload").filter(|v| v.is_object());
    let payload = record(payload_value);
    let payload_status = rsf(payload, &["status", "runtime_status", "state"]);
    let ty = member(e, "type");
    // A nullish type has no class: the reference fails later, on the first string method.
    let ty = match ty {
        Some(Value::String(s)) => Ok(s.as_str()),
        None | Some(Value::Null) => Err(ty),
        Some(_) => return Err(no_trim("eventClass")),
    };
    let class = ty.map(event_class_of_type);
    let text = read_text(payload);
    let artifact_id = rsf(payload, &["artifactId", "artifact_id"]);
    let artifact_refs = refs(
        payload,
        &["artifactRefs", "artifact_refs"],
        &["artifactRef", "artifact_ref"],
        artifact_id,
    );
    let evidence_id = rsf(payload, &["evidenceId", "evidence_id"]);
    let evidence_refs = refs(
        payload,
        &["evidenceRefs", "evidence_refs"],
        &["evidenceRef", "evidence_ref"],
        evidence_id,
    );
    let normalized_status = payload_status.map(js_lower);
    let legacy = ty.is_ok_and(|t| is_legacy_runtime_turn_terminal_event_class(Some(t)));
    let named = if legacy {
        None
    } else {
        terminal_status(payload_status)
            .or_else(|| status_of_payload_status(normalized_status.as_deref()))
    };
    let status = match (named, class) {
        (Some(s), _) => s,
        (None, Ok(c)) => status_of_class(c),
        (None, Err(nullish)) => return Err(cannot_read(nullish, "endsWith")),
    };
    let class = class.map_err(|nullish| cannot_read(nullish, "startsWith"))?;
    let ty = ty.unwrap_or(class);
    let task_id = rsf(payload, &["taskId", "task_id"]);
    let subagent_id = rsf(payload, &["subagentId", "subagent_id"]);
    let collaboration = is_collaboration_class(class).then(|| {
        let (kind, surface, entity) = collaboration_of_class(class);
        build_collaboration_payload_metadata(&CollabInput {
            source_type: Some(ty),
            collaboration_kind: Some(kind),
            surface: Some(surface),
            phase: Some(collaboration_phase(class, normalized_status.as_deref())),
            status: Some(payload_status.unwrap_or(status)),
            runtime_entity: Some(entity),
            runtime_status: Some(status),
            task_id,
            agent_id: subagent_id,
            parent_thread_id: rsf(payload, &["parentThreadId", "parent_thread_id"]),
            transcript_ref: rsf(payload, &["transcriptRef", "transcript_ref"]),
            handoff_id: rsf(payload, &["handoffId", "handoff_id"]),
            payload: payload_value,
            ..Default::default()
        })
    });

    let id = id_of("appserver:", &to_js_string(member(e, "eventId")), "");
    let detail = if class.starts_with("model.") || class.starts_with("reasoning.") {
        Out::Owned(text.clone())
    } else {
        Out::text(rsf(payload, &["detail", "message", "error", "reason"]))
    };
    let sequence = member(e, "sequence");
    let timestamp = member(e, "timestamp");
    let ref_ids = distinct(
        string_array_field(payload, &["refIds", "ref_ids"])
            .into_iter()
            .map(Some),
    );
    // Only tool events carry a tool call id, only action events an action id.
    let tool_call_id = class.starts_with("tool.").then(|| {
        rsf(
            payload,
            &["toolCallId", "tool_call_id", "toolId", "tool_id", "id"],
        )
    });
    let action_id = class.starts_with("action.").then(|| {
        rsf(
            payload,
            &["request_id", "requestId", "action_id", "actionId", "id"],
        )
    });
    let event = object(vec![
        ("id", Out::Shared(id.clone())),
        ("schemaVersion", Out::Lit(SCHEMA_VERSION)),
        ("kind", Out::Lit(kind_of_class(class))),
        ("status", Out::Lit(status)),
        ("eventClass", Out::Text(class)),
        ("runtimeId", Out::Lit(RUNTIME_ID)),
        (
            "threadId",
            Out::fact(coalesce(member(e, "threadId"), member(e, "sessionId"))),
        ),
        ("turnId", Out::fact(member(e, "turnId"))),
        ("taskId", Out::text(task_id)),
        ("subagentId", Out::text(subagent_id)),
        ("runId", Out::text(rsf(payload, &["runId", "run_id"]))),
        ("stepId", Out::text(rsf(payload, &["stepId", "step_id"]))),
        ("toolCallId", Out::text(tool_call_id.flatten())),
        ("actionId", Out::text(action_id.flatten())),
        (
            "artifactId",
            Out::text(artifact_id.or(artifact_refs.first().copied())),
        ),
        (
            "evidenceId",
            Out::text(evidence_id.or(evidence_refs.first().copied())),
        ),
        ("sequence", Out::fact(sequence)),
        ("phase", Out::Lit(phase_of_class(class))),
        ("owner", Out::Lit(owner_of_class(class))),
        (
            "title",
            Out::Text(rsf(payload, &["title", "name", "toolName", "tool_name"]).unwrap_or(class)),
        ),
        ("detail", detail),
        ("refIds", Out::texts(&ref_ids)),
        ("artifactRefs", Out::texts(&artifact_refs)),
        ("evidenceRefs", Out::texts(&evidence_refs)),
        (
            "payload",
            event_payload(fact, payload, ty, text, collaboration),
        ),
        (
            "createdAt",
            if is_nullish(timestamp) {
                Out::Lit(DEFAULT_TIMESTAMP)
            } else {
                Out::fact(timestamp)
            },
        ),
        (
            "completedAt",
            if class_completes(class) {
                Out::fact(timestamp)
            } else {
                Out::Absent
            },
        ),
    ]);
    Ok(Built {
        id,
        event,
        sequence: number_like(sequence),
        created: Stamp::of(timestamp),
    })
}

/// The refs of a kind: the listed ones, then the single ref, then the id; trimmed, distinct.
fn refs<'a>(payload: Rec<'a>, list: &[&str], single: &[&str], id: Option<&'a str>) -> Vec<&'a str> {
    distinct(
        string_array_field(payload, list)
            .into_iter()
            .map(Some)
            .chain([rsf(payload, single), id]),
    )
}

/// The names of the collaboration view's members (the view is built by shared code).
const COLLABORATION_KEYS: [&str; 8] = [
    "collaborationFacts",
    "collaborationSurface",
    "collaborationPhase",
    "styleLevel",
    "riskLevel",
    "toneVariant",
    "profileId",
    "packId",
];

/// The event's payload: the fact's payload members, then what the projection reads from them
/// (source type, session, text, message id, action kind and controls), the tool lifecycle
/// metadata and the collaboration view; members without a value are left out.
fn event_payload<'a>(
    fact: &'a Value,
    payload: Rec<'a>,
    ty: &'a str,
    text: String,
    collaboration: Option<Val>,
) -> Out<'a> {
    let mut p: Vec<(&'a str, Out<'a>)> = Vec::with_capacity(payload.map_or(0, Map::len) + 8);
    for (k, v) in payload.into_iter().flatten() {
        p.push((k.as_str(), Out::Fact(v)));
    }
    set(&mut p, "sourceType", Out::Text(ty));
    set(
        &mut p,
        "sessionId",
        Out::fact(member(Some(fact), "sessionId")),
    );
    set(&mut p, "text", Out::Owned(text));
    set(&mut p, "messageId", Out::text(read_message_id(payload)));
    set(
        &mut p,
        "actionKind",
        Out::text(rsf(payload, &["action_type", "actionType"])),
    );
    set(&mut p, "controls", Out::texts(&controls(payload)));
    for (k, v) in tool_lifecycle_metadata(payload) {
        set(&mut p, k, v);
    }
    if let Some(Val::Obj(c)) = collaboration {
        for (k, v) in c.iter() {
            if let Some(key) = COLLABORATION_KEYS.iter().find(|n| **n == k) {
                set(&mut p, key, Out::Val(v.clone()));
            }
        }
    }
    object(p)
}

/// The text an event carries: the payload's `text`/`delta`/`message`, else its message's,
/// else its content parts' texts joined (the message's content first, then the payload's).
fn read_text(payload: Rec<'_>) -> String {
    const KEYS: &[&str] = &["text", "delta", "message"];
    if let Some(t) = rsf(payload, KEYS) {
        return t.to_owned();
    }
    let message = record(field(payload, "message"));
    if let Some(t) = rsf(message, KEYS) {
        return t.to_owned();
    }
    let parts = field(message, "content")
        .and_then(Value::as_array)
        .or_else(|| field(payload, "content").and_then(Value::as_array));
    parts
        .into_iter()
        .flatten()
        .filter_map(|part| rsf(record(Some(part)), &["text", "content"]))
        .collect()
}

fn read_message_id(payload: Rec<'_>) -> Option<&str> {
    rsf(payload, &["messageId", "message_id"]).or_else(|| {
        rsf(
            record(field(payload, "message")),
            &["id", "messageId", "message_id"],
        )
    })
}

/// The controls of an action: as listed, else from its action type.
fn controls(payload: Rec<'_>) -> Vec<&str> {
    let listed = string_array_field(payload, &["controls"]);
    if !listed.is_empty() {
        return listed;
    }
    match rsf(payload, &["action_type", "actionType"]) {
        Some("ask_user" | "elicitation") => vec!["answer"],
        Some("tool_confirmation") => vec!["approve", "reject"],
        _ => Vec::new(),
    }
}

/// The tool lifecycle metadata of a payload (the reference's
/// `extractAgentUiToolLifecyclePayloadMetadata`, its rule in `projection::tool_lifecycle`): the
/// records found in the payload, its `metadata` or its `result.metadata`, and the strings they
/// name. Only the members with a value, in the rule's order.
pub fn tool_lifecycle_metadata(payload: Rec<'_>) -> Vec<(&'static str, Out<'_>)> {
    let Some(p) = payload else {
        return Vec::new();
    };
    let layers: Vec<&Map<String, Value>> = [
        Some(p),
        record(field(Some(p), "metadata")),
        record(field(record(field(Some(p), "result")), "metadata")),
    ]
    .into_iter()
    .flatten()
    .collect();
    // Every member is read from one of the rule's keys of a layer (or from the records they
    // name): most payloads have none, and one pass over their keys settles it.
    if !layers.iter().any(|r| r.keys().any(|k| is_lifecycle_key(k))) {
        return Vec::new();
    }
    let first_str = |keys: &[&str]| layers.iter().find_map(|r| rsf(Some(r), keys));
    let found: Vec<Js<'_>> = LIFECYCLE_RECORDS
        .iter()
        .map(|(_, keys)| {
            layers.iter().find_map(|r| {
                keys.iter()
                    .find_map(|k| field(Some(r), k).filter(|v| v.is_object()))
            })
        })
        .collect();
    let mut members: Vec<(&'static str, Out<'_>)> = LIFECYCLE_RECORDS
        .iter()
        .zip(&found)
        .map(|((name, _), v)| (*name, Out::fact(*v)))
        .collect();
    for (name, keys, fallbacks) in LIFECYCLE_STRINGS {
        let value = first_str(keys).or_else(|| {
            fallbacks
                .iter()
                .find_map(|(at, keys)| rsf(record(found.get(*at).copied().flatten()), keys))
        });
        members.push((name, Out::text(value)));
    }
    members.retain(|(_, v)| !v.is_absent());
    members
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(fact: Value) -> Value {
        let list = Value::Array(vec![fact]);
        let out = project_app_server_events_to_execution_events(Some(&list)).unwrap();
        out.to_json().into_iter().next().unwrap_or(Value::Null)
    }

    fn fact(ty: &str, payload: Value) -> Value {
        json!({"eventId": "e1", "sequence": 4, "sessionId": "s", "threadId": "t", "turnId": "u",
               "type": ty, "timestamp": "T", "payload": payload})
    }

    #[test]
    fn a_message_delta() {
        let got = one(fact(
            "message.delta",
            json!({"delta": " hi ", "message_id": "m"}),
        ));
        assert_eq!(
            got,
            json!({"id": "appserver:e1", "schemaVersion": "lime-runtime-event/v0.1",
                "kind": "model", "status": "running", "eventClass": "model.delta",
                "runtimeId": "app-server", "threadId": "t", "turnId": "u", "sequence": 4,
                "phase": "streaming", "owner": "runtime", "title": "model.delta",
                "detail": "hi", "refIds": [], "artifactRefs": [], "evidenceRefs": [],
                "payload": {"delta": " hi ", "message_id": "m", "sourceType": "message.delta",
                    "sessionId": "s", "text": "hi", "messageId": "m", "controls": []},
                "createdAt": "T"})
        );
    }

    #[test]
    fn an_action_with_refs_and_controls() {
        let got = one(fact(
            "action.required",
            json!({"request_id": "r", "action_type": "ask_user", "artifactRefs": [" a ", "b"],
                   "artifact_ref": "a", "evidenceId": "ev", "sessionId": "kept-then-overwritten"}),
        ));
        assert_eq!(got["actionId"], json!("r"));
        assert_eq!(got["status"], json!("pending"));
        assert_eq!(got["phase"], json!("action_required"));
        assert_eq!(got["artifactRefs"], json!(["a", "b"]));
        assert_eq!(got["artifactId"], json!("a"));
        assert_eq!(got["evidenceRefs"], json!(["ev"]));
        assert_eq!(got["evidenceId"], json!("ev"));
        assert_eq!(got["payload"]["controls"], json!(["answer"]));
        assert_eq!(got["payload"]["actionKind"], json!("ask_user"));
        assert_eq!(got["payload"]["sessionId"], json!("s"));
        assert_eq!(got["payload"]["text"], json!(""));
        assert!(got.get("completedAt").is_none());
        assert!(got.get("toolCallId").is_none());
    }

    #[test]
    fn payload_status_and_legacy_terminals() {
        let got = one(fact(
            "task.updated",
            json!({"status": "Queued", "taskId": "k"}),
        ));
        assert_eq!(got["status"], json!("running"));
        assert_eq!(got["kind"], json!("handoff"));
        assert_eq!(got["payload"]["collaborationPhase"], json!("waiting"));
        assert_eq!(
            got["payload"]["collaborationFacts"]["runtimeStatus"],
            json!("running")
        );
        assert_eq!(
            got["payload"]["collaborationFacts"]["status"],
            json!("Queued")
        );
        // A legacy terminal ignores its payload status and never completes.
        let got = one(fact("turn.cancelled", json!({"status": "cancelled"})));
        assert_eq!(got["status"], json!("running"));
        assert!(got.get("completedAt").is_none());
        let got = one(fact("turn.completed", json!({"status": "failed"})));
        assert_eq!(got["status"], json!("failed"));
        assert_eq!(got["completedAt"], json!("T"));
    }

    #[test]
    fn tool_lifecycle_records_and_levels() {
        let payload = json!({"toolCallId": "c", "metadata": {
            "soul_lifecycle": {"surface": "s1", "riskLevel": "high"},
            "tool_process_facts": {"styleLevel": "L2"}}, "profile_id": " p "});
        let got = one(fact("tool.progress", payload.clone()));
        let p = &got["payload"];
        assert_eq!(got["toolCallId"], json!("c"));
        assert_eq!(p["soulLifecycle"], payload["metadata"]["soul_lifecycle"]);
        assert_eq!(
            p["toolProcessFacts"],
            payload["metadata"]["tool_process_facts"]
        );
        assert_eq!(p["soulSurface"], json!("s1"));
        assert_eq!(p["styleLevel"], json!("L2"));
        assert_eq!(p["riskLevel"], json!("high"));
        assert_eq!(p["profileId"], json!("p"));
        assert!(p.get("soulPhase").is_none());
    }

    #[test]
    fn nested_payload_objects_are_embedded() {
        let list = json!([{"eventId": 1, "type": "tool.result", "payload": {"output": {"a": 1}}}]);
        let out = project_app_server_events_to_execution_events(Some(&list)).unwrap();
        let mut tape = crate::contract::tape::Tape::default();
        out.write_tape(Some(&list), &mut tape).unwrap();
        let values = tape.read_all(&|_, _| Val::Undef).unwrap();
        let [refs, events] = values.as_slice() else {
            panic!("{} values", values.len());
        };
        let wire = format!(
            "\"events\":{},\"refs\":{}",
            events.to_json(),
            refs.to_json()
        );
        assert!(wire.starts_with(r#""events":[{"id":"appserver:1","#));
        assert!(wire.contains(r#""payload":{"output":"\u0000e0","sourceType":"tool.result""#));
        assert!(wire.ends_with(r#""refs":[[0,"payload","output"]]"#));
        assert_eq!(out.to_json()[0]["payload"]["output"], json!({"a": 1}));
        assert_eq!(
            out.to_json()[0]["createdAt"],
            json!("1970-01-01T00:00:00.000Z")
        );
    }

    #[test]
    fn retired_types_are_dropped_and_duplicates_keep_the_first_place() {
        let list = json!([
            {"eventId": "a", "type": "subagent.status_changed"},
            {"eventId": "b", "type": "x.one"},
            {"eventId": "c", "type": "x.two"},
            {"eventId": "b", "type": "x.three"}
        ]);
        let out = project_app_server_events_to_execution_events(Some(&list)).unwrap();
        let classes: Vec<Value> = out
            .to_json()
            .iter()
            .map(|e| e["eventClass"].clone())
            .collect();
        assert_eq!(classes, vec![json!("x.three"), json!("x.two")]);
    }

    #[test]
    fn malformed_facts_fail_like_the_reference() {
        let err = |v: Value| {
            project_app_server_events_to_execution_events(Some(&v))
                .err()
                .map(|e| e.0)
        };
        assert_eq!(
            err(json!({})),
            Some("(events ?? []).filter is not a function".into())
        );
        assert_eq!(
            err(json!([{"type": "x"}, null])),
            Some("Cannot read properties of null (reading 'type')".into())
        );
        assert_eq!(
            err(json!([5])),
            Some("Cannot read properties of undefined (reading 'endsWith')".into())
        );
        assert_eq!(
            err(json!([{"payload": {"status": "done"}}])),
            Some("Cannot read properties of undefined (reading 'startsWith')".into())
        );
        assert_eq!(
            err(json!([{"type": null}])),
            Some("Cannot read properties of null (reading 'endsWith')".into())
        );
        assert_eq!(
            err(json!([{"type": 5}])),
            Some("eventClass?.trim is not a function".into())
        );
        assert!(project_app_server_events_to_execution_events(None)
            .unwrap()
            .events
            .is_empty());
    }
}

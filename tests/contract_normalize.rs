//! `normalize_runtime_event`: canonical envelopes become execution events.

use agent_runtime_projection::contract::normalize::{
    kind_for_class, normalize_runtime_event, status_for_class,
};
use agent_runtime_projection::contract::validation::collect_runtime_event_issues;
use serde_json::{json, Value};

/// The contract's canonical `tool.started` envelope example (seed 000).
fn tool_started_envelope() -> Value {
    json!({
        "schemaVersion": "0.1",
        "runtimeId": "lime_runtime_local",
        "sessionId": "sess_123",
        "eventId": "evt_123",
        "timestamp": "2026-06-10T00:00:00.000Z",
        "sequence": 12,
        "type": "tool.started",
        "threadId": "thread_1",
        "turnId": "turn_1",
        "stepId": "step_1",
        "toolCallId": "tool_1",
        "payload": {"toolName": "search", "title": "Search the web"}
    })
}

#[test]
fn canonical_envelope_normalizes_to_a_valid_event() {
    let raw = tool_started_envelope();
    // The raw envelope is not an execution event: five required fields are missing.
    let raw_paths: Vec<String> = collect_runtime_event_issues(&raw, "$")
        .into_iter()
        .map(|i| i.path)
        .collect();
    assert_eq!(
        raw_paths,
        ["$.id", "$.kind", "$.status", "$.title", "$.createdAt"]
    );

    let ev = normalize_runtime_event(&raw);
    assert_eq!(
        ev,
        json!({
            "schemaVersion": "0.1",
            "runtimeId": "lime_runtime_local",
            "sessionId": "sess_123",
            "id": "evt_123",
            "eventClass": "tool.started",
            "kind": "tool",
            "status": "running",
            "sequence": 12,
            "threadId": "thread_1",
            "turnId": "turn_1",
            "stepId": "step_1",
            "toolCallId": "tool_1",
            "title": "Search the web",
            "payload": {"toolName": "search", "title": "Search the web"},
            "createdAt": "2026-06-10T00:00:00.000Z"
        })
    );
    assert_eq!(collect_runtime_event_issues(&ev, "$"), vec![]);
}

#[test]
fn tool_envelope_without_tool_call_id_misses_its_scope_in_both_shapes() {
    let mut raw = tool_started_envelope();
    raw.as_object_mut().unwrap().remove("toolCallId");
    let ev = normalize_runtime_event(&raw);
    let codes: Vec<(&str, String)> = collect_runtime_event_issues(&ev, "$")
        .into_iter()
        .map(|i| (i.code, i.path))
        .collect();
    assert_eq!(
        codes,
        vec![("missing_scope_id", "$.toolCallId".to_string())]
    );

    // The same fact as a hand-written execution event.
    let direct = json!({
        "id": "evt_123", "schemaVersion": "lime-runtime-event/v0.1",
        "runtimeId": "lime_runtime_local", "kind": "tool", "status": "running",
        "sequence": 12, "title": "Search the web", "createdAt": "2026-06-10T00:00:00.000Z",
        "eventClass": "tool.started", "threadId": "thread_1", "turnId": "turn_1"
    });
    let codes: Vec<&str> = collect_runtime_event_issues(&direct, "$")
        .iter()
        .map(|i| i.code)
        .collect();
    assert_eq!(codes, vec!["missing_scope_id"]);
}

#[test]
fn execution_events_and_non_envelopes_pass_through() {
    let direct = json!({"id": "e", "eventClass": "x", "eventId": "ignored"});
    assert_eq!(normalize_runtime_event(&direct), direct);
    for v in [
        json!(null),
        json!([1]),
        json!("s"),
        json!({"type": "tool.started"}),
    ] {
        assert_eq!(normalize_runtime_event(&v), v);
    }
}

#[test]
fn refs_title_and_defaults_map_as_documented() {
    let env = json!({
        "eventId": "e1", "runtimeId": "r", "sessionId": "s", "timestamp": "t", "sequence": 1,
        "type": "artifact.changed", "artifactId": "a1",
        "refs": {"artifactIds": ["a1"], "artifactRefs": ["a2", 3], "evidenceIds": ["v1"],
                 "outputRefs": ["o1"], "rawRefs": ["raw1"], "refIds": []},
        "payload": {"toolName": "writer"}
    });
    let ev = normalize_runtime_event(&env);
    assert_eq!(ev["schemaVersion"], "lime-runtime-event/v0.1");
    assert_eq!(ev["artifactRefs"], json!(["a1", "a2"]));
    assert_eq!(ev["evidenceRefs"], json!(["v1"]));
    assert_eq!(ev["refIds"], json!(["o1", "raw1"]));
    assert_eq!(ev["title"], "writer");
    assert_eq!(
        (ev["kind"].as_str(), ev["status"].as_str()),
        (Some("draft"), Some("completed"))
    );
    assert!(collect_runtime_event_issues(&ev, "$").is_empty());

    let env = json!({"eventId": "e2", "type": "command.output", "refs": ["out_1", 5]});
    let ev = normalize_runtime_event(&env);
    assert_eq!(ev["refIds"], json!(["out_1"]));
    assert_eq!(ev["title"], "command.output");
}

#[test]
fn kind_and_status_tables() {
    let cases = [
        ("tool.result", "tool", "completed"),
        ("tool.failed", "tool", "failed"),
        ("model.delta", "model", "running"),
        ("reasoning.summary", "note", "running"),
        ("action.required", "action", "pending"),
        ("action.resolved", "action", "completed"),
        ("patch.applied", "draft", "completed"),
        ("file.changed", "draft", "completed"),
        ("review.verdict", "evidence", "running"),
        ("permission.requested", "permission", "running"),
        ("sandbox.violation", "sandbox", "blocked"),
        ("sandbox.blocked", "sandbox", "blocked"),
        ("context.resolved", "context", "completed"),
        ("turn.canceled", "state", "canceled"),
        ("command.exited", "tool", "completed"),
        ("runtime.error", "note", "failed"),
        ("subagent.started", "handoff", "running"),
        ("mystery", "note", "running"),
    ];
    for (class, kind, status) in cases {
        assert_eq!(
            (kind_for_class(class), status_for_class(class)),
            (kind, status),
            "{class}"
        );
    }
}

//! Robustness: arbitrary JSON (nesting up to 64) through every validator and the sequence
//! verifier never panics; deep values built in code do not overflow the
//! stack; the stringify-length helper agrees with a real serializer.

use agent_runtime_projection::contract::js::json_stringify_len;
use agent_runtime_projection::contract::sequence::{
    verify_runtime_event_sequence, SequenceVerifier,
};
use agent_runtime_projection::contract::validation::*;
use proptest::prelude::*;
use serde_json::{json, Map, Number, Value};

/// Keys that steer values into the validators' interesting branches.
const KEYS: [&str; 32] = [
    "id",
    "eventClass",
    "kind",
    "status",
    "sequence",
    "title",
    "createdAt",
    "schemaVersion",
    "runtimeId",
    "turnId",
    "toolCallId",
    "actionId",
    "artifactId",
    "evidenceId",
    "artifactRefs",
    "evidenceRefs",
    "refIds",
    "payload",
    "patchId",
    "commandId",
    "testRunId",
    "exitCode",
    "events",
    "expected",
    "diagnostics",
    "metadata",
    "apiKey",
    "10",
    "0",
    "source",
    "subagents",
    "preview",
];

const STRINGS: [&str; 16] = [
    "tool.started",
    "tool.result",
    "patch.started",
    "patch.failed",
    "command.started",
    "command.output",
    "command.exited",
    "test.started",
    "test.completed",
    "action.required",
    "action.expired",
    "turn.completed",
    " Turn.Failed ",
    "done",
    "",
    "sequence_gap",
];

/// Leaves; `floats` adds non-integral numbers.
fn leaf(floats: bool) -> impl Strategy<Value = Value> {
    let float_weight = if floats { 1 } else { 0 };
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => any::<i64>().prop_map(|n| json!(n)),
        float_weight => any::<f64>()
            .prop_map(|x| Number::from_f64(x).map(Value::Number).unwrap_or(Value::Null)),
        1 => prop::sample::select(STRINGS.to_vec()).prop_map(|s| json!(s)),
        1 => "\\PC{0,12}".prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_tree(true)
}

/// Arbitrary JSON up to 64 levels deep.
fn json_tree(floats: bool) -> impl Strategy<Value = Value> {
    leaf(floats).prop_recursive(64, 192, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS.to_vec()), inner), 0..8).prop_map(
                |entries| {
                    let mut m = Map::new();
                    for (k, v) in entries {
                        m.insert(k.to_string(), v);
                    }
                    Value::Object(m)
                }
            ),
        ]
    })
}

fn run_everything(v: &Value) {
    for collect in [
        collect_runtime_event_issues,
        collect_thread_read_model_issues,
        collect_projection_state_issues,
        collect_fixture_issues,
        collect_capability_manifest_issues,
    ] {
        let issues = collect(v, "$");
        let _ = issues_message(&issues);
        for i in &issues {
            let _ = i.to_val();
        }
    }
    let events: Vec<Value> = match v {
        Value::Array(a) => a.clone(),
        other => vec![other.clone()],
    };
    let all = verify_runtime_event_sequence(&events);
    let mut verifier = SequenceVerifier::new();
    let mut pushed = 0;
    for e in &events {
        pushed += verifier.push(e).len();
    }
    assert_eq!(pushed, all.len());
    assert_eq!(verifier.violations().len(), all.len());
    for x in &all {
        let _ = x.to_val().to_json();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_never_panics(v in json_value()) {
        run_everything(&v);
        // Also as events of a fixture and as a payload.
        let fixture = json!({"id": "f", "schemaVersion": "s", "title": "t",
            "expected": {"status": "s", "diagnostics": ["sequence_gap"]}, "events": [v.clone(), v.clone()]});
        run_everything(&fixture);
        let event = json!({"id": "e", "eventClass": "tool.started", "payload": v.clone(), "turnId": v});
        run_everything(&event);
    }

    #[test]
    fn stringify_length_matches_a_serializer(v in json_tree(false)) {
        // Without non-integral floats, serde_json writes the same text as JSON.stringify.
        let text = serde_json::to_string(&v).unwrap();
        prop_assert_eq!(json_stringify_len(&v), text.encode_utf16().count());
    }
}

/// A value nested far deeper than any parser allows, built in code.
fn deep(levels: usize, leaf: Value) -> Value {
    let mut v = leaf;
    for i in 0..levels {
        v = if i % 2 == 0 {
            Value::Array(vec![v])
        } else {
            let mut m = Map::new();
            m.insert("k".to_string(), v);
            Value::Object(m)
        };
    }
    v
}

/// An event object built without `json!` (which would copy the deep members recursively).
fn event(members: Vec<(&str, Value)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

#[test]
fn deep_values_do_not_overflow_the_stack() {
    let payload = deep(50_000, json!({"token": 1}));
    let ev = event(vec![
        ("id", json!("e")),
        ("eventClass", json!("tool.started")),
        ("toolCallId", json!("t")),
        ("payload", payload),
        ("turnId", deep(50_000, json!("x"))),
    ]);
    let issues = collect_runtime_event_issues(&ev, "$");
    let codes: Vec<&str> = issues.iter().map(|i| i.code).collect();
    assert!(codes.contains(&"secret_leak_risk"));
    let violations = verify_runtime_event_sequence(std::slice::from_ref(&ev));
    assert!(violations.is_empty());
    // A deep scope id held open by the verifier, closed by a turn terminal, and one that
    // stays open when the verifier is dropped.
    let open = event(vec![
        ("id", json!("p")),
        ("eventClass", json!("patch.started")),
        ("toolCallId", deep(50_000, json!(1))),
    ]);
    let open2 = event(vec![
        ("id", json!("q")),
        ("eventClass", json!("command.started")),
        ("toolCallId", deep(50_000, json!(2))),
    ]);
    let end = json!({"id": "z", "eventClass": "turn.completed"});
    let mut verifier = SequenceVerifier::new();
    verifier.push(&open);
    let v = verifier.push(&end);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].code, "patch_unclosed_at_turn_end");
    assert!(v[0]
        .message
        .starts_with("patch.started '[object Object]' (event 'p') was not closed"));
    drop(v);
    drop(verifier);
    let mut verifier = SequenceVerifier::new();
    verifier.push(&open2);
    drop(verifier);
    std::mem::forget(open);
    std::mem::forget(open2);
    // serde_json drops nested values recursively; leak them instead of overflowing on drop.
    std::mem::forget(ev);
    std::mem::forget(issues);
}

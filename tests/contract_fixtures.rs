//! Conformance fixtures: ours validate clean; the reference's standard fixtures give the
//! reference's results, including the mutations its test-suite pins (contracts.md §6, tests
//! 11, 15 and 29). Each mutation is applied to our fixtures as well.

mod common;

use agent_runtime_projection::contract::constants::AGENT_UI_FIXTURE_SCHEMA_VERSION;
use agent_runtime_projection::contract::fixtures::{
    conformance_fixtures, conformance_fixtures_json, get_fixture, unknown_fixture_message,
    FIXTURE_FILES,
};
use agent_runtime_projection::contract::sequence::verify_runtime_event_sequence;
use agent_runtime_projection::contract::validation::{
    collect_fixture_issues, collect_thread_read_model_issues,
};
use serde_json::{json, Value};

const STANDARD_IDS: [&str; 13] = [
    "text-basic",
    "tool-success",
    "tool-failure",
    "hitl-action",
    "artifact-evidence",
    "stream-repair",
    "subagent-handoff",
    "coding-file-change",
    "coding-command-approval",
    "coding-sandbox-blocked",
    "coding-patch-failure",
    "coding-test-failure-fix",
    "coding-hydration-repair",
];

fn reference_fixtures() -> Option<Vec<Value>> {
    let path = common::reference("fixtures.json")?;
    let text = std::fs::read_to_string(&path).expect("read fixtures.json");
    Some(serde_json::from_str::<Vec<Value>>(&text).expect("parse fixtures.json"))
}

fn find<'a>(set: &'a [Value], id: &str) -> &'a Value {
    set.iter().find(|f| f["id"] == id).expect("fixture id")
}

fn events(f: &Value) -> Vec<Value> {
    f["events"].as_array().cloned().unwrap_or_default()
}

fn codes_and_paths(f: &Value) -> Vec<(String, String)> {
    collect_fixture_issues(f, "$")
        .into_iter()
        .map(|i| (i.code.to_string(), i.path))
        .collect()
}

fn violation_codes(evs: &[Value]) -> Vec<&'static str> {
    verify_runtime_event_sequence(evs)
        .into_iter()
        .map(|v| v.code)
        .collect()
}

fn index_of_class(f: &Value, class: &str) -> usize {
    f["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["eventClass"] == class)
        .unwrap_or_else(|| panic!("no {class} event"))
}

/// Applies the pinned mutations to one fixture set and checks the pinned outcomes.
fn check_pinned_mutations(set: &[Value]) {
    // Test 11a: patch failure without its patch.started, nothing waived.
    let mut f = find(set, "coding-patch-failure").clone();
    let start = index_of_class(&f, "patch.started");
    f["events"].as_array_mut().unwrap().remove(start);
    f["expected"]["diagnostics"] = json!([]);
    assert_eq!(
        codes_and_paths(&f),
        vec![("sequence_violation".to_string(), "$.events[0]".to_string())]
    );
    assert_eq!(
        violation_codes(&events(&f)),
        vec!["patch_terminal_without_start"]
    );

    // Test 11b: command approval never resolved.
    let mut f = find(set, "coding-command-approval").clone();
    let resolved = index_of_class(&f, "action.resolved");
    f["events"].as_array_mut().unwrap().remove(resolved);
    assert_eq!(
        violation_codes(&events(&f)),
        vec!["action_unresolved_at_turn_end"]
    );

    // Test 11c: the failed test run's completion turned into another start.
    let mut f = find(set, "coding-test-failure-fix").clone();
    let first_completion = index_of_class(&f, "test.completed");
    f["events"][first_completion]["eventClass"] = json!("test.started");
    assert_eq!(
        violation_codes(&events(&f)),
        vec!["test_started_already_active", "test_started_already_active"]
    );

    // Test 15: a sequence jump in text-basic gives two gaps; stream-repair declares its gap.
    let mut f = find(set, "text-basic").clone();
    f["events"][2]["sequence"] = json!(8);
    let issues = collect_fixture_issues(&f, "$");
    let codes: Vec<&str> = issues.iter().map(|i| i.code).collect();
    assert_eq!(codes, vec!["sequence_gap", "sequence_gap"]);
    assert_eq!(issues[0].path, "$.events[2].sequence");
    assert_eq!(issues[1].path, "$.events[3].sequence");
    assert!(collect_fixture_issues(find(set, "stream-repair"), "$").is_empty());

    // Test 29: tool-success with its start turned into a result.
    let mut f = find(set, "tool-success").clone();
    let start = index_of_class(&f, "tool.started");
    f["events"][start]["eventClass"] = json!("tool.result");
    f["events"][start]["id"] = json!("broken_result_event");
    let issues = codes_and_paths(&f);
    let violations: Vec<&str> = issues
        .iter()
        .filter(|(c, _)| c == "sequence_violation")
        .map(|(_, p)| p.as_str())
        .collect();
    assert_eq!(violations, vec!["$.events[0]", "$.events[1]"]);
}

#[test]
fn our_fixtures_are_the_standard_set_and_validate_clean() {
    let ours = conformance_fixtures();
    assert_eq!(ours.len(), 13);
    let ids: Vec<&str> = ours.iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(ids, STANDARD_IDS);
    let file_ids: Vec<&str> = FIXTURE_FILES.iter().map(|(id, _)| *id).collect();
    assert_eq!(file_ids, STANDARD_IDS);
    let total_events: usize = ours.iter().map(|f| events(f).len()).sum();
    assert_eq!(total_events, 68);
    for f in ours {
        let id = f["id"].as_str().unwrap();
        let keys: Vec<&str> = f.as_object().unwrap().keys().map(String::as_str).collect();
        let expected_keys: Vec<&str> = if f.get("initialReadModel").is_some() {
            vec![
                "id",
                "schemaVersion",
                "title",
                "events",
                "initialReadModel",
                "finalReadModel",
                "expected",
            ]
        } else {
            vec![
                "id",
                "schemaVersion",
                "title",
                "events",
                "finalReadModel",
                "expected",
            ]
        };
        assert_eq!(keys, expected_keys, "{id}: key order");
        assert_eq!(f["schemaVersion"], AGENT_UI_FIXTURE_SCHEMA_VERSION);
        let issues = collect_fixture_issues(f, "$");
        assert!(issues.is_empty(), "{id}: {issues:?}");
        let violations = verify_runtime_event_sequence(&events(f));
        assert!(violations.is_empty(), "{id}: {violations:?}");
        // The final read model projects every event, in order, with the event as its source.
        let rm = &f["finalReadModel"];
        assert!(collect_thread_read_model_issues(rm, "$").is_empty());
        let evs = events(f);
        for list in ["events", "visibleEvents"] {
            let projected = rm[list].as_array().unwrap();
            assert_eq!(projected.len(), evs.len(), "{id}: {list}");
            for (p, e) in projected.iter().zip(&evs) {
                assert_eq!(&p["source"], e);
                assert_eq!(p["id"], format!("projection_{}", e["id"].as_str().unwrap()));
                assert_eq!(p["status"], e["status"]);
            }
        }
        let pending = rm["pendingActions"].as_array().unwrap().len();
        if let Some(n) = f["expected"].get("pendingActionCount") {
            assert_eq!(n.as_u64(), Some(pending as u64), "{id}: pending actions");
        }
        assert!(get_fixture(id).is_some_and(|g| std::ptr::eq(g, f)));
    }
    assert!(get_fixture("missing").is_none());
    assert_eq!(
        unknown_fixture_message("nope"),
        "Unknown Agent UI fixture: nope"
    );
    let parsed: Vec<Value> = serde_json::from_str(conformance_fixtures_json()).unwrap();
    assert_eq!(parsed.as_slice(), ours);
}

#[test]
fn our_fixtures_use_their_own_identifiers() {
    // The reference fixtures' shared identifiers (runtime, thread, turn, task, timestamp) are read
    // from the recorded data, so none of them is written into the project.
    let Some(reference) = reference_fixtures() else {
        return;
    };
    let text = conformance_fixtures_json();
    let mut borrowed: Vec<String> = Vec::new();
    for f in &reference {
        for e in f["events"].as_array().into_iter().flatten() {
            for k in ["runtimeId", "threadId", "turnId", "taskId", "createdAt"] {
                if let Some(v) = e[k].as_str() {
                    if !borrowed.iter().any(|b| b == v) {
                        borrowed.push(v.to_string());
                    }
                }
            }
        }
    }
    assert!(borrowed.len() >= 4, "reference identifiers not found");
    for b in &borrowed {
        assert!(!text.contains(b.as_str()), "fixture text contains {b}");
    }
}

#[test]
fn our_fixtures_fail_closed_on_pinned_mutations() {
    check_pinned_mutations(conformance_fixtures());
}

#[test]
fn reference_fixtures_give_reference_results() {
    let Some(reference) = reference_fixtures() else {
        return;
    };
    let ids: Vec<&str> = reference
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, STANDARD_IDS);
    for f in &reference {
        assert!(collect_fixture_issues(f, "$").is_empty(), "{}", f["id"]);
        assert!(verify_runtime_event_sequence(&events(f)).is_empty());
        for rm in ["initialReadModel", "finalReadModel"] {
            if let Some(m) = f.get(rm) {
                assert!(collect_thread_read_model_issues(m, "$").is_empty());
            }
        }
    }
    check_pinned_mutations(&reference);
}

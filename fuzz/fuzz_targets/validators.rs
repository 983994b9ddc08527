//! Arbitrary bytes -> JSON -> every contract validator, the sequence verifier (batch and
//! push-by-push) and the subagents model. Nothing may panic, and
//! the verifier's batch result must equal its incremental one.
//!
//! The same bytes as text go through the text fast path of the list validators (a JSON array
//! and NDJSON), which must give exactly the full validator's issues for every event, and refuse
//! exactly the texts the parser refuses.
#![no_main]

use agent_runtime_projection::contract::json::{parse_value, Parsed};
use agent_runtime_projection::contract::redact::redact_secrets;
use agent_runtime_projection::contract::sequence::{
    verify_runtime_event_sequence, violations_to_val, SequenceVerifier,
};
use agent_runtime_projection::contract::val::deep_equal;
use agent_runtime_projection::contract::val::Val;
use agent_runtime_projection::contract::validation::{
    collect_capability_manifest_issues, collect_fixture_issues, collect_projection_state_issues,
    collect_runtime_event_issues, collect_runtime_events_issues,
    collect_runtime_events_ndjson_issues, collect_thread_read_model_issues, issues_message, Issue,
};
use agent_runtime_projection::projection::subagents::build_agent_ui_subagents_model;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn as_val(issues: &[Issue]) -> Val {
    Val::arr(issues.iter().map(Issue::to_val).collect())
}

/// The full validator over each event, with the list paths `$[i]`.
fn full_issues(events: &[Value]) -> Val {
    let issues: Vec<Issue> = events
        .iter()
        .enumerate()
        .flat_map(|(i, e)| collect_runtime_event_issues(e, &format!("$[{i}]")))
        .collect();
    as_val(&issues)
}

/// The text fast paths against the full validator.
fn check_text_paths(text: &str) {
    let fast = collect_runtime_events_issues(text, "$");
    match parse_value(text) {
        Ok(Value::Array(events)) => {
            let fast = fast.expect("a JSON array is validated");
            assert!(
                deep_equal(&as_val(&fast), &full_issues(&events)),
                "array text path"
            );
        }
        Ok(_) | Err(_) => assert!(fast.is_err(), "array text path accepted a non-array"),
    }
    // NDJSON: JSON values separated by white space (at least one between two values).
    let ndjson = collect_runtime_events_ndjson_issues(text, "$");
    let mut values = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Parsed>();
    let mut parsed_all = true;
    let mut last_end = 0usize;
    while let Some(item) = stream.next() {
        match item {
            Ok(Parsed(v)) => {
                let start = text[last_end..].len() - text[last_end..].trim_start().len() + last_end;
                if !values.is_empty() && start == last_end {
                    parsed_all = false; // `{..}{..}`: NDJSON needs white space between events.
                    break;
                }
                last_end = stream.byte_offset();
                values.push(v);
            }
            Err(_) => {
                parsed_all = false;
                break;
            }
        }
    }
    match ndjson {
        Ok(issues) => {
            assert!(parsed_all, "NDJSON path accepted unparsable text");
            assert!(
                deep_equal(&as_val(&issues), &full_issues(&values)),
                "NDJSON text path"
            );
        }
        Err(_) => assert!(!parsed_all, "NDJSON path refused parsable text"),
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text_paths(text);
    }
    let Ok(mut v) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for path in ["$", "$.x"] {
        for issues in [
            collect_runtime_event_issues(&v, path),
            collect_thread_read_model_issues(&v, path),
            collect_projection_state_issues(&v, path),
            collect_fixture_issues(&v, path),
            collect_capability_manifest_issues(&v, path),
        ] {
            let _ = issues_message(&issues);
            assert!(issues.iter().all(|i| i.path.starts_with(path)));
        }
    }
    if let Value::Array(events) = &v {
        let batch = verify_runtime_event_sequence(events);
        let mut verifier = SequenceVerifier::new();
        let mut pushed = Vec::new();
        for e in events {
            pushed.extend(verifier.push(e));
        }
        let all = violations_to_val(verifier.violations());
        assert!(deep_equal(&all, &violations_to_val(&batch)));
        assert!(deep_equal(&all, &violations_to_val(&pushed)));
        let _ = build_agent_ui_subagents_model(events).map(|m| m.to_json());
    }
    if redact_secrets(&mut v) {
        // Redaction only rewrites values: the validators still run on the result.
        let _ = collect_runtime_event_issues(&v, "$");
    }
});

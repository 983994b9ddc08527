//! Arbitrary bytes -> JSON -> every contract validator, the sequence verifier (batch and
//! push-by-push), `normalizeRuntimeEvent` and the subagents model. Nothing may panic, and
//! the verifier's batch result must equal its incremental one.
#![no_main]

use agent_runtime_projection::contract::normalize::normalize_runtime_event;
use agent_runtime_projection::contract::redact::redact_secrets;
use agent_runtime_projection::contract::sequence::{
    verify_runtime_event_sequence, violations_to_val, SequenceVerifier,
};
use agent_runtime_projection::contract::val::deep_equal;
use agent_runtime_projection::contract::validation::{
    collect_capability_manifest_issues, collect_fixture_issues, collect_projection_state_issues,
    collect_runtime_event_issues, collect_thread_read_model_issues, issues_message,
};
use agent_runtime_projection::projection::subagents::build_agent_ui_subagents_model;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
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
    let _ = normalize_runtime_event(&v);
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
        let _ = build_agent_ui_subagents_model(events).to_json();
    }
    if redact_secrets(&mut v) {
        // Redaction only rewrites values: the validators still run on the result.
        let _ = collect_runtime_event_issues(&v, "$");
    }
});

//! Generated streams satisfy the contract: every event validates with no issues and every
//! stream passes the sequence verifier.

use agent_runtime_projection::contract::sequence::verify_runtime_event_sequence;
use agent_runtime_projection::contract::validation::collect_runtime_event_issues;
use agent_runtime_projection::generator::{generate, GenOptions};
use serde_json::json;

#[test]
fn generated_events_validate_and_verify() {
    let cases = [
        (3_000usize, 1u32, json!({})),
        (2_000, 9, json!({"subagentRate": 1, "stateDeltaRate": 1})),
        (
            2_000,
            23,
            json!({"toolFailureRate": 0.5, "actionRate": 1, "turnFailureRate": 0.3}),
        ),
    ];
    for (n, seed, opts) in cases {
        let events = generate(n, seed, &GenOptions::from_json(&opts).unwrap());
        for (i, e) in events.iter().enumerate() {
            let issues = collect_runtime_event_issues(e, "event");
            assert!(issues.is_empty(), "seed {seed} event {i}: {issues:?}");
        }
        let violations = verify_runtime_event_sequence(&events);
        assert!(violations.is_empty(), "seed {seed}: {violations:?}");
    }
}

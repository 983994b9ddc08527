//! Our 13 conformance fixtures, one per standard fixture id, embedded from `fixtures/*.json`.
//!
//! They follow the standard scenarios (event classes, scope ids, statuses, expectations) with
//! this project's own ids and texts. Each one validates with no issues and no sequence
//! violations (see `tests/contract_fixtures.rs`).
//!
//! This embedding serves the native crate. The wasm module does not export them, so they are
//! not linked into it: the npm package ships the same files as JSON text (`glue/fixtures.js`,
//! written by `scripts/assemble-pkg.mjs`, which reads the ids and their order from
//! [`FIXTURE_FILES`]).

use std::sync::OnceLock;

use serde_json::Value;

/// The standard fixture ids, in the standard order, with their embedded JSON text. Each entry
/// reads `fixtures/<id>.json` (`scripts/assemble-pkg.mjs` relies on that shape).
pub const FIXTURE_FILES: [(&str, &str); 13] = [
    ("text-basic", include_str!("../../fixtures/text-basic.json")),
    (
        "tool-success",
        include_str!("../../fixtures/tool-success.json"),
    ),
    (
        "tool-failure",
        include_str!("../../fixtures/tool-failure.json"),
    ),
    (
        "hitl-action",
        include_str!("../../fixtures/hitl-action.json"),
    ),
    (
        "artifact-evidence",
        include_str!("../../fixtures/artifact-evidence.json"),
    ),
    (
        "stream-repair",
        include_str!("../../fixtures/stream-repair.json"),
    ),
    (
        "subagent-handoff",
        include_str!("../../fixtures/subagent-handoff.json"),
    ),
    (
        "coding-file-change",
        include_str!("../../fixtures/coding-file-change.json"),
    ),
    (
        "coding-command-approval",
        include_str!("../../fixtures/coding-command-approval.json"),
    ),
    (
        "coding-sandbox-blocked",
        include_str!("../../fixtures/coding-sandbox-blocked.json"),
    ),
    (
        "coding-patch-failure",
        include_str!("../../fixtures/coding-patch-failure.json"),
    ),
    (
        "coding-test-failure-fix",
        include_str!("../../fixtures/coding-test-failure-fix.json"),
    ),
    (
        "coding-hydration-repair",
        include_str!("../../fixtures/coding-hydration-repair.json"),
    ),
];

/// The fixtures as one JSON array text, in the standard order.
pub fn conformance_fixtures_json() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut s = String::from("[");
        for (i, (_, text)) in FIXTURE_FILES.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(text.trim());
        }
        s.push(']');
        s
    })
}

/// The parsed fixtures, in the standard order. A file that failed to parse (a build defect
/// the tests catch) is left out rather than panicking.
pub fn conformance_fixtures() -> &'static [Value] {
    static PARSED: OnceLock<Vec<Value>> = OnceLock::new();
    PARSED.get_or_init(|| {
        FIXTURE_FILES
            .iter()
            .filter_map(|(_, text)| super::json::parse_value(text).ok())
            .collect()
    })
}

/// `getAgentUiFixture`: the fixture with this id.
pub fn get_fixture(id: &str) -> Option<&'static Value> {
    conformance_fixtures()
        .iter()
        .find(|f| f.get("id").and_then(Value::as_str) == Some(id))
}

/// The error text of `getAgentUiFixture` for an unknown id.
pub fn unknown_fixture_message(id: &str) -> String {
    format!("Unknown Agent UI fixture: {id}")
}

//! Bounded property tests for hostile input (a few seconds): the in-suite cousin of the
//! `fuzz/` targets. Arbitrary JSON goes through every validator, the sequence verifier,
//! redaction and the projector; nothing may panic, and batch projection must equal the
//! incremental projector on the accepted events.
//!
//! `write_fuzz_seeds` (ignored) regenerates the committed seed corpus in `fuzz/corpus/`:
//! `cargo test --test hostile_props -- --ignored write_fuzz_seeds`.

use agent_runtime_projection::contract::redact::{redact_secrets, REDACTED};
use agent_runtime_projection::contract::sequence::verify_runtime_event_sequence;
use agent_runtime_projection::contract::validation::{
    collect_capability_manifest_issues, collect_fixture_issues, collect_projection_state_issues,
    collect_runtime_event_issues, collect_thread_read_model_issues, is_secret_key,
};
use agent_runtime_projection::generator::{generate, GenOptions};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Keys that exercise the projection's known fields, the secret pattern and JS specials.
const KEYS: &[&str] = &[
    "id",
    "kind",
    "status",
    "eventClass",
    "sequence",
    "turnId",
    "threadId",
    "taskId",
    "toolCallId",
    "actionId",
    "subagentId",
    "artifactId",
    "evidenceId",
    "payload",
    "metadata",
    "text",
    "delta",
    "ops",
    "op",
    "path",
    "value",
    "refIds",
    "createdAt",
    "title",
    "apiKey",
    "accessToken",
    "__proto__",
    "constructor",
    "prototype",
    "0",
    "10",
    "",
];

const STRINGS: &[&str] = &[
    "",
    " ",
    "e1",
    "e2",
    "turn-1",
    "tool.started",
    "tool.result",
    "tool.failed",
    "turn.completed",
    "turn.failed",
    "model.delta",
    "message.delta",
    "state.delta",
    "action.required",
    "action.resolved",
    "subagent.started",
    "artifact.changed",
    "running",
    "completed",
    "failed",
    "/ephemeralUi/x",
    "/ephemeralUi/__proto__/polluted",
    "replace",
    "add",
    "remove",
    "\u{0}u",
    "\u{0}e0",
    "\u{d7ff}\u{10ffff}",
    "2026-06-10T00:00:00.000Z",
];

fn arb_scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..1000).prop_map(Value::from),
        prop_oneof![
            Just(-0.0f64),
            Just(1e300),
            Just(0.5),
            Just(f64::MIN_POSITIVE)
        ]
        .prop_map(Value::from),
        prop::sample::select(STRINGS).prop_map(|s| Value::String(s.to_string())),
        "[a-z.]{0,12}".prop_map(Value::String),
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    arb_scalar().prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..8).prop_map(|kv| {
                let mut m = Map::new();
                for (k, v) in kv {
                    m.insert(k.to_string(), v);
                }
                Value::Object(m)
            }),
        ]
    })
}

/// An event-shaped object: a string id from a small set (so duplicates happen), a class,
/// and arbitrary extra members.
fn arb_event() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(&["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"][..]),
        prop::sample::select(STRINGS),
        prop::collection::vec((prop::sample::select(KEYS), arb_json()), 0..6),
    )
        .prop_map(|(id, class, extra)| {
            let mut m = Map::new();
            for (k, v) in extra {
                m.insert(k.to_string(), v);
            }
            m.insert("id".into(), Value::String(id.into()));
            m.insert("eventClass".into(), Value::String(class.into()));
            Value::Object(m)
        })
}

/// Every value under a secret-bearing key (at any depth) of `v`.
fn secret_values(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        match x {
            Value::Object(m) => {
                for (k, c) in m {
                    if is_secret_key(k) {
                        out.push(c.clone());
                    } else {
                        stack.push(c);
                    }
                }
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn validators_never_panic(v in arb_json()) {
        for path in ["$", "$.p"] {
            let _ = collect_runtime_event_issues(&v, path);
            let _ = collect_thread_read_model_issues(&v, path);
            let _ = collect_projection_state_issues(&v, path);
            let _ = collect_fixture_issues(&v, path);
            let _ = collect_capability_manifest_issues(&v, path);
        }
        if let Value::Array(a) = &v {
            let _ = verify_runtime_event_sequence(a);
        }
    }

    #[test]
    fn redaction_leaves_no_secret_value(v in arb_json()) {
        let mut r = v.clone();
        let changed = redact_secrets(&mut r);
        let left = secret_values(&r);
        prop_assert!(left.iter().all(|x| x.as_str() == Some(REDACTED)));
        prop_assert_eq!(changed, secret_values(&v).iter().any(|x| x.as_str() != Some(REDACTED)));
        // Idempotent.
        let mut again = r.clone();
        prop_assert!(!redact_secrets(&mut again));
        prop_assert_eq!(again, r);
    }

    #[test]
    fn event_sequences_validate_without_panic(events in prop::collection::vec(arb_event(), 0..24)) {
        let _ = verify_runtime_event_sequence(&events);
        for e in &events {
            let _ = collect_runtime_event_issues(e, "$");
        }
    }
}

/// Regenerates `fuzz/corpus/<target>/` seeds from the project's own fixtures (when they hold
/// events) and from the deterministic generator. Small files only.
#[test]
#[ignore = "writes files; run by hand to refresh the fuzz seeds"]
fn write_fuzz_seeds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("fuzz/corpus");
    let mut streams: Vec<(String, Vec<Value>)> = Vec::new();
    if let Ok(dir) = std::fs::read_dir(root.join("fixtures")) {
        let mut paths: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let Ok(v) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let name = p.file_stem().map(|s| s.to_string_lossy().into_owned());
            if text.len() <= 48 * 1024 {
                let dir = corpus.join("validators");
                std::fs::create_dir_all(&dir).expect("create corpus dir");
                let file = format!("whole-fixture-{}.json", name.clone().unwrap_or_default());
                std::fs::write(dir.join(file), text.trim()).expect("write seed");
            }
            if let Some(events) = v.get("events").and_then(Value::as_array) {
                streams.push((
                    format!("fixture-{}", name.unwrap_or_default()),
                    events.clone(),
                ));
            }
        }
    }
    for seed in 1..=6u32 {
        let n = [12, 24, 40][(seed % 3) as usize];
        streams.push((
            format!("gen-{seed}-{n}"),
            generate(n, seed, &GenOptions::default()),
        ));
    }
    for target in ["validators", "projector", "event_boundary"] {
        std::fs::create_dir_all(corpus.join(target)).expect("create corpus dir");
    }
    for (name, events) in &streams {
        let text = serde_json::to_string(events).expect("serializable");
        if text.len() > 48 * 1024 {
            continue;
        }
        std::fs::write(corpus.join("projector").join(format!("{name}.json")), &text)
            .expect("write seed");
        std::fs::write(
            corpus.join("validators").join(format!("{name}.json")),
            &text,
        )
        .expect("write seed");
        for (i, e) in events.iter().enumerate().step_by(5).take(4) {
            let one = serde_json::to_string(e).expect("serializable");
            std::fs::write(
                corpus
                    .join("event_boundary")
                    .join(format!("{name}-{i}.json")),
                &one,
            )
            .expect("write seed");
            std::fs::write(
                corpus.join("validators").join(format!("{name}-{i}.json")),
                &one,
            )
            .expect("write seed");
        }
    }
}

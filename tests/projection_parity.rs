//! Parity with the recorded reference states (`../shared/reference/parity`): batch, incremental
//! and patch replay all deep-equal the reference's `projectAgentUiState` output.

use std::path::{Path, PathBuf};

use agent_runtime_projection::contract::val::{deep_equal, Val};
use agent_runtime_projection::projection::{project, Projector};
use serde_json::Value;

mod common;
use common::{apply_patch, decode, diff};

fn reference_dir() -> Option<PathBuf> {
    common::reference("parity")
}

struct Case {
    name: String,
    events: Vec<Value>,
    source_count: Option<f64>,
    batch: Val,
}

fn load_cases(dir: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for sub in ["fixtures", "streams"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("read case");
            let v: Value = serde_json::from_str(&text).expect("parse case");
            let input = &v["input"];
            let (events, sc) = if sub == "fixtures" {
                (
                    input["events"].as_array().cloned().unwrap_or_default(),
                    None,
                )
            } else {
                (
                    input["executionEvents"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default(),
                    input["sourceCount"].as_f64(),
                )
            };
            cases.push(Case {
                name: format!(
                    "{sub}/{}",
                    f.file_stem().and_then(|s| s.to_str()).unwrap_or("?")
                ),
                events,
                source_count: sc,
                batch: decode(&v["batchState"]),
            });
        }
    }
    cases
}

#[test]
fn parity_with_reference_states() {
    let Some(dir) = reference_dir() else {
        return;
    };
    let cases = load_cases(&dir);
    let (mut passed, mut failed) = (0, 0);
    for c in &cases {
        let mut problems: Vec<String> = Vec::new();
        // Batch.
        let batch = project(&c.events, c.source_count).expect("projected");
        if let Some(d) = diff(&batch, &c.batch, &c.events, "") {
            problems.push(format!("batch {d}"));
        }
        // Incremental with patch replay.
        let mut p = Projector::new(c.source_count);
        let mut replay = Val::Undef;
        apply_patch(&mut replay, &p.take_patch().expect("readable state"));
        for (i, e) in c.events.iter().enumerate() {
            p.apply(e.clone(), i as u32).expect("well-formed event");
            let patch = p.take_patch().expect("readable state");
            apply_patch(&mut replay, &patch);
            let again = p.take_patch().expect("readable state");
            if problems.len() < 3 && !again.is_empty() {
                problems.push(format!(
                    "second take_patch after event {i} not empty: {}",
                    again.to_json()
                ));
            }
            if problems.len() < 3
                && !deep_equal(&p.expand(&replay), &p.state().expect("readable state"))
            {
                let d = diff(
                    &p.expand(&replay),
                    &p.state().expect("readable state"),
                    &c.events,
                    "",
                )
                .unwrap_or_default();
                problems.push(format!("patch replay after event {i}: {d}"));
            }
        }
        if let Some(d) = diff(&p.state().expect("readable state"), &c.batch, &c.events, "") {
            problems.push(format!("incremental {d}"));
        }
        if problems.is_empty() {
            passed += 1;
        } else {
            failed += 1;
            println!("FAIL {}:", c.name);
            for pr in &problems {
                println!("  {}", &pr[..pr.len().min(600)]);
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

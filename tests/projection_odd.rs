//! Odd events (`../shared/reference/parity/odd`): a standard fixture or a generated stream with
//! two events edited one way (a field of the wrong type, an unknown class, a missing, empty or
//! numeric id). By default both paths project every such stream as the reference's batch does
//! (decided semantics: incremental == batch), and where the reference's batch throws, so do
//! they, naming an event. Strict mode refuses every stream with an event outside today's
//! boundary (`check_event`) and projects the others as the default does.

use std::path::PathBuf;

use agent_runtime_projection::contract::event::check_event;
use agent_runtime_projection::contract::val::{deep_equal, Val};
use agent_runtime_projection::projection::projector::{project_with, ProjectorCore};
use agent_runtime_projection::projection::{project, Projector};
use serde_json::Value;

mod common;
use common::{apply_patch, decode, diff};

struct Case {
    name: String,
    events: Vec<Value>,
    source_count: Option<f64>,
    /// The reference's batch state, `None` where its batch threw.
    batch: Option<Val>,
}

fn cases() -> Option<Vec<Case>> {
    let dir = common::reference("parity/odd")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read parity/odd")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Some(
        files
            .iter()
            .map(|f| {
                let v: Value =
                    serde_json::from_str(&std::fs::read_to_string(f).expect("read case"))
                        .expect("parse case");
                let input = &v["input"];
                Case {
                    name: v["name"].as_str().unwrap_or("?").to_string(),
                    events: input["executionEvents"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default(),
                    source_count: input["sourceCount"].as_f64(),
                    batch: v.get("batchState").map(decode),
                }
            })
            .collect(),
    )
}

/// The problems of one case in the default mode (empty: as the reference's batch).
fn check_default(c: &Case) -> Vec<String> {
    let mut problems = Vec::new();
    let batch = project(&c.events, c.source_count);
    // The batch of the array text, read one event at a time: the same state, or nothing where
    // the batch throws (its caller then reads the parsed list for the error).
    let text = serde_json::to_string(&c.events).expect("events as JSON text");
    let mut streamed = ProjectorCore::new(c.source_count);
    match (streamed.project_array_text(&text), &batch) {
        (Some(compact), Ok(whole)) => {
            let mut listed = Projector::new(c.source_count);
            let mut a = String::new();
            let mut b = String::new();
            streamed.write_wire(&compact, &mut a);
            if let Ok(compact) = listed.project_list_compact(c.events.clone()) {
                listed.write_wire(&compact, &mut b);
            }
            if a != b {
                problems.push("array-text batch wire != parsed-list batch wire".into());
            }
            if !streamed.state().is_ok_and(|s| deep_equal(&s, whole)) {
                problems.push("array-text batch state != batch".into());
            }
        }
        (None, Err(_)) => {}
        (Some(_), Err(_)) => problems.push("array-text batch did not stop".into()),
        (None, Ok(_)) => problems.push("array-text batch stopped".into()),
    }
    match (&c.batch, &batch) {
        (Some(gold), Ok(ours)) => {
            if let Some(d) = diff(ours, gold, &c.events, "") {
                problems.push(format!("batch {d}"));
            }
        }
        (Some(_), Err(e)) => problems.push(format!("batch threw: {}", e.message)),
        (None, Ok(_)) => problems.push("batch did not throw".into()),
        (None, Err(e)) => {
            if !e.message.starts_with("events[") {
                problems.push(format!(
                    "batch error does not name the event: {}",
                    e.message
                ));
            }
        }
    }
    // Incremental, one event at a time (the JS wrapper's ext: the accepted count), with patch
    // replay while the state is readable.
    let mut p = Projector::new(c.source_count);
    let mut replay = Val::Undef;
    let mut threw: Option<String> = None;
    let mut ext = 0u32;
    if let Ok(patch) = p.take_patch() {
        apply_patch(&mut replay, &patch);
    }
    for e in &c.events {
        match p.apply(e.clone(), ext) {
            Ok(true) => ext += 1,
            Ok(false) => {}
            Err(err) => {
                threw.get_or_insert(err.message);
                continue;
            }
        }
        if let Ok(patch) = p.take_patch() {
            apply_patch(&mut replay, &patch);
        }
    }
    let state = p.state();
    match (&c.batch, threw, state) {
        (Some(gold), None, Ok(state)) => {
            // Event `ext` of the projector is the input's event `ext` (every event accepted).
            if let Some(d) = diff(&state, gold, &c.events, "") {
                problems.push(format!("incremental {d}"));
            }
            if !deep_equal(&p.expand(&replay), &state) {
                problems.push("patch replay != state".into());
            }
        }
        (Some(_), Some(m), _) => problems.push(format!("incremental refused an event: {m}")),
        (Some(_), None, Err(e)) => problems.push(format!("incremental state: {}", e.message)),
        (None, None, Ok(_)) => problems.push("incremental did not throw".into()),
        (None, _, _) => {}
    }
    problems
}

/// The problems of one case in strict mode.
fn check_strict(c: &Case) -> Vec<String> {
    let outside = c.events.iter().position(|e| check_event(e).is_err());
    match (outside, project_with(&c.events, c.source_count, true)) {
        (Some(i), Err(e)) => {
            if e.message.starts_with(&format!("events[{i}]: ")) {
                Vec::new()
            } else {
                vec![format!(
                    "strict error does not name events[{i}]: {}",
                    e.message
                )]
            }
        }
        (Some(i), Ok(_)) => vec![format!("strict accepted events[{i}]")],
        (None, strict) => match (strict, project(&c.events, c.source_count)) {
            (Ok(a), Ok(b)) if deep_equal(&a, &b) => Vec::new(),
            (Ok(_), Ok(_)) => vec!["strict != default".into()],
            (Err(a), Err(b)) if a == b => Vec::new(),
            (a, b) => vec![format!("strict {:?} != default {:?}", a.err(), b.err())],
        },
    }
}

#[test]
fn odd_streams_project_as_the_reference_batch() {
    let Some(cases) = cases() else { return };
    assert_eq!(cases.len(), 196, "odd streams");
    let mut failed = 0;
    let threw = cases.iter().filter(|c| c.batch.is_none()).count();
    for c in &cases {
        let problems = check_default(c);
        if !problems.is_empty() {
            failed += 1;
            println!("FAIL {}:", c.name);
            for p in problems.iter().take(3) {
                println!("  {}", &p[..p.len().min(400)]);
            }
        }
    }
    println!(
        "{} streams ({threw} where the reference's batch throws): {} passed, {failed} failed",
        cases.len(),
        cases.len() - failed
    );
    assert_eq!(failed, 0);
}

#[test]
fn strict_mode_refuses_what_check_event_refuses() {
    let Some(cases) = cases() else { return };
    let mut failed = 0;
    let mut refused = 0;
    for c in &cases {
        refused += usize::from(c.events.iter().any(|e| check_event(e).is_err()));
        let problems = check_strict(c);
        if !problems.is_empty() {
            failed += 1;
            println!("FAIL {}: {}", c.name, problems.join("; "));
        }
    }
    println!(
        "strict: {refused} of {} streams refused, the others as the default; {failed} failed",
        cases.len()
    );
    assert_eq!(failed, 0);
}

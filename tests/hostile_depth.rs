//! Output depth built by state.delta: a `copy` op can nest a value inside itself, one level per
//! op, so a stream of small events can build a state deeper than any input event.

use agent_runtime_projection::projection::{project, Projector};
use serde_json::{json, Value};

fn delta_event(id: &str, seq: u64, ops: Vec<Value>) -> Value {
    json!({
        "id": id, "schemaVersion": "lime-runtime-event/v0.1", "runtimeId": "r",
        "threadId": "t", "turnId": "u", "sequence": seq, "kind": "state",
        "eventClass": "state.delta", "status": "completed", "title": "T",
        "createdAt": "2026-06-10T00:00:00.000Z",
        "payload": {"target": "projection", "patch": ops}
    })
}

/// Events that nest `/ephemeralUi/x` inside itself `levels` times.
pub fn self_nesting_events(levels: usize, ops_per_event: usize) -> Vec<Value> {
    let mut events = vec![delta_event(
        "d0",
        1,
        vec![json!({"op": "add", "path": "/ephemeralUi/x", "value": {"leaf": 1}})],
    )];
    let mut left = levels;
    let mut seq = 2;
    while left > 0 {
        let n = left.min(ops_per_event);
        let ops = (0..n)
            .map(|_| json!({"op": "copy", "from": "/ephemeralUi/x", "path": "/ephemeralUi/x/a"}))
            .collect();
        events.push(delta_event(&format!("d{seq}"), seq, ops));
        left -= n;
        seq += 1;
    }
    events
}

/// Project the self-nesting stream on a 1 MiB stack (the wasm default) and encode the state.
fn project_self_nesting(levels: usize) -> usize {
    let events = self_nesting_events(levels, 1000);
    let h = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let mut p = Projector::new(None);
            for (i, e) in events.iter().enumerate() {
                let _ = p.apply(e.clone(), i as u32);
            }
            let patch = p.take_patch().expect("readable state").to_json();
            let state = p.state().expect("readable state").to_json();
            let batch = project(&events, None).expect("projected").to_json();
            patch.len() + state.len() + batch.len()
        })
        .expect("spawn");
    h.join().expect("no panic")
}

#[test]
fn three_hundred_self_nesting_levels_project_on_a_small_stack() {
    assert!(project_self_nesting(300) > 0);
}

/// Child side of the regression test below (runs only when the parent asks for it).
#[test]
#[ignore = "child process of self_nesting_state_delta_never_overflows_the_stack"]
fn child_self_nesting_100k() {
    if std::env::var("HOSTILE_DEPTH_CHILD").is_ok() {
        project_self_nesting(100_000);
    }
}

/// Regression for open finding F1 (docs/limits.md): 100 state.delta events of 1,000 `copy`
/// ops each nest `/ephemeralUi/x` 100,000 levels deep; encoding the state recursed once per
/// level (`val::write_val`) and overflowed the stack (a trap in wasm). A stack overflow aborts
/// the whole process, so the scenario runs in a child process.
#[test]
fn self_nesting_state_delta_never_overflows_the_stack() {
    let exe = std::env::current_exe().expect("test binary path");
    let status = std::process::Command::new(exe)
        .args([
            "--exact",
            "child_self_nesting_100k",
            "--ignored",
            "--test-threads=1",
        ])
        .env("HOSTILE_DEPTH_CHILD", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run child");
    assert!(
        status.success(),
        "projecting the self-nesting stream crashed: {status}"
    );
}

/// A delta whose result would nest deeper than 128 levels fails as a whole, with a diagnostic.
#[test]
fn too_deep_delta_is_refused_with_a_diagnostic() {
    let state = project(&self_nesting_events(200, 1000), None).expect("projected");
    let diags = state
        .get("diagnostics")
        .and_then(|d| d.as_arr())
        .unwrap_or(&[]);
    let details: Vec<&str> = diags
        .iter()
        .filter_map(|d| d.get("detail").and_then(|x| x.as_str()))
        .collect();
    assert_eq!(
        details,
        vec!["state.delta value nesting exceeds 128 levels at /ephemeralUi/x/a"]
    );
    // The refused event left `x` as the first delta made it.
    assert_eq!(
        state.get("ephemeralUi").map(|v| v.to_json()).as_deref(),
        Some(r#"{"x":{"leaf":1}}"#)
    );
}

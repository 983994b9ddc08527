//! The subagents model against the reference goldens, and the incremental accumulator's patches
//! against its own full model after every event.

use std::path::PathBuf;

use agent_runtime_projection::contract::event::Ev;
use agent_runtime_projection::contract::val::{deep_equal, Obj, Val};
use agent_runtime_projection::projection::patch::{Patch, PatchOp, Seg};
use agent_runtime_projection::projection::subagents::{
    build_agent_ui_subagents_model, SubagentsAcc,
};
use serde_json::Value;

mod common;
use common::decode;

fn reference_dir() -> Option<PathBuf> {
    common::reference("parity")
}

/// Golden files: (name, events, golden document).
fn goldens() -> Vec<(String, Vec<Value>, Value)> {
    let Some(dir) = reference_dir() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in ["fixtures", "streams"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("read golden");
            let doc: Value = serde_json::from_str(&text).expect("parse golden");
            let input = &doc["input"];
            let events = input
                .get("events")
                .or_else(|| input.get("executionEvents"))
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            out.push((format!("{sub}/{name}"), events, doc));
        }
    }
    out
}

/// Keys of `threads[i]` that a `state.delta` on `projection.subagents` replaces in the batch
/// golden (the batch applies deltas after the accumulator). `None` when a delta does something
/// this test cannot mask.
fn delta_masks(events: &[Value]) -> Option<Vec<(usize, String)>> {
    let mut masks = Vec::new();
    for e in events {
        if e.get("eventClass").and_then(Value::as_str) != Some("state.delta") {
            continue;
        }
        let p = e.get("payload")?;
        let p = p.get("stateDelta").unwrap_or(p);
        let target = p.get("target").and_then(Value::as_str).unwrap_or("");
        if !target.contains("subagents") {
            continue;
        }
        for op in p.get("patch")?.as_array()? {
            let path = op.get("path")?.as_str()?;
            let parts: Vec<&str> = path.split('/').collect();
            match parts.as_slice() {
                ["", "threads", i, key] => masks.push((i.parse().ok()?, key.to_string())),
                _ => return None,
            }
        }
    }
    Some(masks)
}

fn without_masked(model: &Val, masks: &[(usize, String)]) -> Val {
    let Some(o) = model.as_obj() else {
        return model.clone();
    };
    let mut out = o.clone();
    if let Some(Val::Arr(threads)) = o.get("threads") {
        let mut ts: Vec<Val> = threads.as_ref().clone();
        for (i, key) in masks {
            if let Some(Val::Obj(t)) = ts.get(*i) {
                let mut t2: Obj = t.as_ref().clone();
                t2.remove(key);
                ts[*i] = t2.into_val();
            }
        }
        out.set("threads", Val::arr(ts));
    }
    out.into_val()
}

#[test]
fn batch_model_matches_reference_goldens() {
    let mut passed = 0;
    let mut failed = Vec::new();
    let mut masked = 0;
    for (name, events, doc) in goldens() {
        let expected = decode(&doc["batchState"]["subagents"]);
        let actual = build_agent_ui_subagents_model(&events).expect("projected");
        let Some(masks) = delta_masks(&events) else {
            panic!("{name}: unexpected state.delta shape on subagents");
        };
        if !masks.is_empty() {
            masked += 1;
        }
        if deep_equal(
            &without_masked(&actual, &masks),
            &without_masked(&expected, &masks),
        ) {
            passed += 1;
        } else {
            failed.push(name.clone());
            eprintln!(
                "{name}: mismatch\n actual:   {}\n expected: {}",
                actual.to_json(),
                expected.to_json()
            );
        }
    }
    println!(
        "{passed} passed, {} failed ({masked} with delta-patched thread keys masked)",
        failed.len()
    );
    assert!(failed.is_empty(), "mismatches: {failed:?}");
}

/// The patch applied the way the JS wrapper applies it (`Patch::apply_to`).
fn apply_patch(state: &Val, ops: &[PatchOp]) -> Val {
    let mut s = state.clone();
    let patch = Patch {
        full: false,
        ops: ops.to_vec(),
    };
    if let Err(e) = patch.apply_to(&mut s) {
        panic!("patch does not fit the state: {e}");
    }
    s
}

#[test]
fn incremental_patches_rebuild_the_model() {
    let mut checked = 0usize;
    let mut ops_total = 0usize;
    for (name, events, _) in goldens() {
        let base = [Seg::Key("subagents")];
        let mut acc = SubagentsAcc::new();
        let mut copy = Obj::new().k("subagents", acc.model()).into_val();
        acc.sync();
        for (n, e) in events.iter().enumerate() {
            acc.apply(Ev::of(e));
            let mut ops = Vec::new();
            acc.patch_ops(&base, &mut ops);
            ops_total += ops.len();
            copy = apply_patch(&copy, &ops);
            let want = acc.model();
            let got = copy.get("subagents").cloned().unwrap_or(Val::Undef);
            assert_eq!(
                got.to_json(),
                want.to_json(),
                "{name}: after event {n} the patched copy differs from the model"
            );
            // A resync in the middle must also work.
            if n % 97 == 50 {
                copy = Obj::new().k("subagents", acc.model()).into_val();
                acc.sync();
            }
            checked += 1;
        }
        let mut ops = Vec::new();
        acc.patch_ops(&base, &mut ops);
        assert!(ops.is_empty(), "{name}: a second patch_ops is not empty");
    }
    println!("{checked} events checked, {ops_total} ops");
}

#[test]
fn thread_status_follows_lifecycle_facts() {
    // §9.2: after the first 6 events of subagent-handoff the thread is running, after 8 it is
    // blocked (handoff.requested with status blocked).
    for (name, events, _) in goldens() {
        if !name.ends_with("subagent-handoff.json") {
            continue;
        }
        let status = |n: usize| {
            let m = build_agent_ui_subagents_model(&events[..n]).expect("projected");
            m.get("threads")
                .and_then(|t| t.as_arr().and_then(|a| a.first().cloned()))
                .and_then(|t| t.get("status").and_then(|s| s.as_str().map(str::to_owned)))
        };
        assert_eq!(status(6).as_deref(), Some("running"));
        assert_eq!(status(8).as_deref(), Some("blocked"));
    }
}

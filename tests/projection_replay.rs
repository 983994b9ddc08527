//! Fixture replay and the coding workbench view against the reference goldens
//! (`parity/fixtures/*.json`: `replay` = `replayAgentUiFixture(input)`).

use std::collections::HashSet;
use std::path::PathBuf;

use agent_runtime_projection::contract::event::EventError;
use agent_runtime_projection::contract::val::{deep_equal, Val};
use agent_runtime_projection::projection::coding::project_coding_workbench_view;
use agent_runtime_projection::projection::coding::project_coding_workbench_view_with;
use agent_runtime_projection::projection::replay::{replay_agent_ui_fixture, replay_with};
use serde_json::Value;

mod common;
use common::decode;

fn fixtures() -> Vec<(String, Value)> {
    let Some(dir) = common::reference("parity/fixtures") else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&p).expect("read")).expect("json");
            let mut doc = doc;
            doc["input"] = as_sent(&doc["input"]);
            (p.file_stem().unwrap().to_string_lossy().to_string(), doc)
        })
        .collect()
}

fn is_undef_marker(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.len() == 1 && m.get("$undefined") == Some(&Value::Bool(true)))
}

/// A golden input as the JS side would send it (`JSON.stringify`): members holding the
/// `undefined` marker vanish, array slots holding it become `null`.
fn as_sent(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !is_undef_marker(x))
                .map(|(k, x)| (k.clone(), as_sent(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(
            a.iter()
                .map(|x| {
                    if is_undef_marker(x) {
                        Value::Null
                    } else {
                        as_sent(x)
                    }
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Deep equality where `Val::Event(i)` stands for the i-th input event.
fn eq_events(a: &Val, b: &Val, events: &[Value]) -> bool {
    match (a, b) {
        (Val::Event(i), other) | (other, Val::Event(i)) if !matches!(other, Val::Event(_)) => {
            events
                .get(*i as usize)
                .is_some_and(|e| deep_equal(&Val::from_json(e), other))
        }
        (Val::Arr(x), Val::Arr(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| eq_events(p, q, events))
        }
        (Val::Obj(x), Val::Obj(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| eq_events(v, w, events)))
        }
        _ => deep_equal(a, b),
    }
}

/// Where two values first differ (for failure messages).
fn first_diff(a: &Val, b: &Val, events: &[Value], path: &str) -> Option<String> {
    if eq_events(a, b, events) {
        return None;
    }
    match (a, b) {
        (Val::Obj(x), Val::Obj(y)) => {
            for (k, v) in x.iter() {
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_diff(v, w, events, &format!("{path}.{k}")) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{path}.{k}: missing on the right")),
                }
            }
            for k in y.keys() {
                if x.get(k).is_none() {
                    return Some(format!("{path}.{k}: missing on the left"));
                }
            }
            Some(format!("{path}: differs"))
        }
        (Val::Arr(x), Val::Arr(y)) if x.len() == y.len() => x
            .iter()
            .zip(y.iter())
            .enumerate()
            .find_map(|(i, (p, q))| first_diff(p, q, events, &format!("{path}[{i}]"))),
        _ => Some(format!("{path}: {} vs {}", a.to_json(), b.to_json())),
    }
}

/// Put `Val::Event(i)` back where a recorded state holds the i-th input event object.
fn with_event_refs(state: &Val, events: &[Value]) -> Val {
    let Some(o) = state.as_obj() else {
        return state.clone();
    };
    let mut o = o.clone();
    let fix_list = |list: &Val| -> Val {
        let Some(items) = list.as_arr() else {
            return list.clone();
        };
        Val::arr(
            items
                .iter()
                .map(|p| {
                    let Some(po) = p.as_obj() else {
                        return p.clone();
                    };
                    let Some(src) = po.get("source") else {
                        return p.clone();
                    };
                    match events
                        .iter()
                        .position(|e| deep_equal(&Val::from_json(e), src))
                    {
                        Some(i) => {
                            let mut po = po.clone();
                            po.set("source", Val::Event(i as u32));
                            po.into_val()
                        }
                        None => p.clone(),
                    }
                })
                .collect(),
        )
    };
    if let Some(rm) = o.get("readModel").and_then(Val::as_obj) {
        let mut rm = rm.clone();
        if let Some(evs) = rm.get("events").cloned() {
            rm.set("events", fix_list(&evs));
        }
        o.set("readModel", rm.into_val());
    }
    for k in ["actions", "tools"] {
        if let Some(list) = o.get(k).cloned() {
            o.set(k, fix_list(&list));
        }
    }
    o.into_val()
}

fn no_actions(_: &Value) -> Vec<Val> {
    Vec::new()
}

/// The recorded batch state of a golden standing in for the projection of its events (the
/// real projector lives in the `projection` layer; see `replay_matches_goldens_with_projector`
/// once merged).
fn recorded_projection(doc: &Value) -> impl Fn(&[Value]) -> Result<Val, EventError> + '_ {
    move |events: &[Value]| {
        if events.is_empty() {
            return Ok(Val::Undef);
        }
        Ok(with_event_refs(&decode(&doc["batchState"]), events))
    }
}

fn input_events(doc: &Value) -> Vec<Value> {
    doc["input"]["events"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn replay_logic_matches_goldens_on_recorded_states() {
    let mut passed = 0;
    let mut failed = Vec::new();
    for (name, doc) in fixtures() {
        let events = input_events(&doc);
        let project = recorded_projection(&doc);
        let got = replay_with(&doc["input"], &project, &no_actions)
            .expect("replayed")
            .to_val();
        let want = decode(&doc["replay"]);
        match first_diff(&got, &want, &events, "$") {
            None => passed += 1,
            Some(d) => {
                eprintln!("{name}: {d}");
                failed.push(name);
            }
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    assert!(failed.is_empty(), "{failed:?}");
}

#[test]
fn replay_matches_goldens() {
    let mut passed = 0;
    let mut failed = Vec::new();
    for (name, doc) in fixtures() {
        let events = input_events(&doc);
        let got = replay_agent_ui_fixture(&doc["input"]).expect("replayed");
        let want = decode(&doc["replay"]);
        match first_diff(&got, &want, &events, "$") {
            None => passed += 1,
            Some(d) => {
                eprintln!("{name}: {d}");
                failed.push(name);
            }
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    assert!(failed.is_empty(), "{failed:?}");
}

#[test]
fn replay_fails_closed_on_a_broken_stream() {
    for (name, doc) in fixtures() {
        if name != "tool-success" {
            continue;
        }
        let mut broken = doc["input"].clone();
        let evs: Vec<Value> = input_events(&doc)
            .into_iter()
            .filter(|e| e["eventClass"] != "tool.started")
            .collect();
        broken["events"] = Value::Array(evs);
        let calls = std::cell::Cell::new(0usize);
        let project = |events: &[Value]| {
            assert!(events.is_empty(), "a failed-closed replay projects nothing");
            calls.set(calls.get() + 1);
            Ok(Val::Null)
        };
        let r = replay_with(&broken, &project, &no_actions).expect("replayed");
        assert!(r.failed_closed);
        assert!(!r.passed);
        let codes: Vec<&str> = r.sequence_violations.iter().map(|v| v.code).collect();
        assert_eq!(codes, vec!["tool_result_without_start"]);
        assert_eq!(r.diagnostics, vec!["tool_result_without_start".to_string()]);
        assert_eq!(calls.get(), 1);
    }
}

// ---- coding facts (§9.2 "coding fixtures project ... facts") ----

fn strs(v: &Val, list: &str, key: &str) -> Vec<String> {
    v.get(list)
        .and_then(Val::as_arr)
        .unwrap_or(&[])
        .iter()
        .map(|x| match x.get(key) {
            Some(Val::Str(s)) => s.to_string(),
            Some(Val::Undef) | None => "<absent>".into(),
            Some(other) => other.to_json(),
        })
        .collect()
}

fn len(v: &Val, list: &str) -> usize {
    v.get(list)
        .and_then(Val::as_arr)
        .map(<[Val]>::len)
        .unwrap_or(0)
}

/// Facts of the coding events, derived here directly from the recorded events: for each scope
/// (`patchId`/`commandId`/`testRunId` or the tool call), the latest value of `field`, in order
/// of the latest event's `sequence`.
fn latest_by_scope(
    events: &[Value],
    prefix: &str,
    scope_key: &str,
    field: &dyn Fn(&Value) -> Option<String>,
) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    let mut latest: std::collections::HashMap<String, (f64, Option<String>)> = Default::default();
    for e in events {
        let cls = e["eventClass"].as_str().unwrap_or("");
        if !cls.starts_with(prefix) {
            continue;
        }
        let scope = e["payload"][scope_key]
            .as_str()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| e["toolCallId"].as_str())
            .filter(|s| !s.is_empty());
        let Some(scope) = scope else { continue };
        if !latest.contains_key(scope) {
            order.push(scope.to_string());
        }
        let prev = latest.get(scope).and_then(|p| p.1.clone());
        let seq = e["sequence"].as_f64().unwrap_or(0.0);
        latest.insert(scope.to_string(), (seq, field(e).or(prev)));
    }
    let mut rows: Vec<(f64, String)> = order
        .into_iter()
        .map(|s| {
            let (seq, v) = latest[&s].clone();
            (seq, v.unwrap_or_else(|| "<absent>".into()))
        })
        .collect();
    rows.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    rows.into_iter().map(|r| r.1).collect()
}

#[test]
fn coding_view_projects_the_recorded_coding_facts() {
    let mut checked = 0;
    for (name, doc) in fixtures() {
        if !name.starts_with("coding-") {
            continue;
        }
        let events = input_events(&doc);
        let state = with_event_refs(&decode(&doc["replay"]["state"]), &events);
        let view = project_coding_workbench_view_with(&state, None, &events, &no_actions);
        let real = project_coding_workbench_view(&state, None, &events);
        assert!(
            deep_equal(&view, &real),
            "{name}: no read model, no action projection"
        );
        let s = |e: &Value, k: &str| e[k].as_str().map(str::to_owned);
        let p = |e: &Value, k: &str| e["payload"][k].as_str().map(str::to_owned);

        // Statuses, failure categories and results per scope.
        let status = |e: &Value| s(e, "status");
        assert_eq!(
            strs(&view, "patches", "status"),
            latest_by_scope(&events, "patch.", "patchId", &status),
            "{name}: patch statuses"
        );
        assert_eq!(
            strs(&view, "patches", "failureCategory"),
            latest_by_scope(&events, "patch.", "patchId", &|e| p(e, "failureCategory")),
            "{name}: patch failure categories"
        );
        assert_eq!(
            strs(&view, "commands", "status"),
            latest_by_scope(&events, "command.", "commandId", &status),
            "{name}: command statuses"
        );
        assert_eq!(
            strs(&view, "commands", "exitCode"),
            latest_by_scope(&events, "command.", "commandId", &|e| {
                e["payload"]["exitCode"].as_f64().map(|n| format!("{n}"))
            }),
            "{name}: command exit codes"
        );
        assert_eq!(
            strs(&view, "tests", "status"),
            latest_by_scope(&events, "test.", "testRunId", &status),
            "{name}: test statuses"
        );
        assert_eq!(
            strs(&view, "tests", "failureCategory"),
            latest_by_scope(&events, "test.", "testRunId", &|e| p(e, "failureCategory")),
            "{name}: test failure categories"
        );
        assert_eq!(
            strs(&view, "tests", "result"),
            latest_by_scope(&events, "test.", "testRunId", &|e| {
                p(e, "result").or_else(|| p(e, "status"))
            }),
            "{name}: test results"
        );

        // Files and changes: the paths of file events (distinct, case-insensitive).
        let changed: Vec<String> = events
            .iter()
            .filter(|e| e["eventClass"] == "file.changed")
            .filter_map(|e| p(e, "path").or_else(|| p(e, "relativePath")))
            .collect();
        let mut seen = HashSet::new();
        let distinct_changed: Vec<String> = changed
            .iter()
            .filter(|c| seen.insert(c.to_lowercase()))
            .cloned()
            .collect();
        assert_eq!(
            strs(&view, "changes", "path"),
            distinct_changed,
            "{name}: changes"
        );
        let mut seen = HashSet::new();
        let files: Vec<String> = events
            .iter()
            .filter(|e| e["eventClass"] == "file.changed" || e["eventClass"] == "file.read")
            .filter_map(|e| p(e, "path").or_else(|| p(e, "relativePath")))
            .filter(|f| seen.insert(f.to_lowercase()))
            .collect();
        assert_eq!(strs(&view, "files", "path"), files, "{name}: files");

        // Actions are the state's actions; blocked diagnostics are the blocked coding events.
        assert_eq!(
            len(&view, "actions"),
            len(&state, "actions"),
            "{name}: actions"
        );
        let blocked = events
            .iter()
            .filter(|e| e["status"] == "blocked")
            .filter(|e| {
                let c = e["eventClass"].as_str().unwrap_or("");
                ["file.", "patch.", "command.", "test."]
                    .iter()
                    .any(|p| c.starts_with(p))
                    || c == "sandbox.blocked"
            })
            .count();
        let view_blocked = view
            .get("diagnostics")
            .and_then(Val::as_arr)
            .unwrap_or(&[])
            .iter()
            .filter(|d| d.get("status").and_then(Val::as_str) == Some("blocked"))
            .count();
        assert_eq!(view_blocked, blocked, "{name}: blocked diagnostics");

        // The fixture's own coding expectations hold (replay's count checks).
        let exp = &doc["input"]["expected"]["coding"];
        for (k, list) in [
            ("fileCount", "files"),
            ("changeCount", "changes"),
            ("patchCount", "patches"),
            ("commandCount", "commands"),
            ("testCount", "tests"),
        ] {
            if let Some(n) = exp[k].as_u64() {
                assert!(len(&view, list) as u64 >= n, "{name}: {k}");
            }
        }
        // The main object's status is the one the recorded turn lifecycle implies.
        let main = view.get("mainObject").cloned().unwrap_or(Val::Undef);
        let last_turn = events.iter().rev().find(|e| {
            e["eventClass"]
                .as_str()
                .is_some_and(|c| c.starts_with("turn."))
        });
        if let Some(t) = last_turn.and_then(|t| t["eventClass"].as_str()) {
            let want = match t {
                "turn.completed" => Some("completed"),
                "turn.failed" => Some("failed"),
                "turn.canceled" => Some("degraded"),
                _ => None,
            };
            if let Some(w) = want {
                assert_eq!(main.get("status").and_then(Val::as_str), Some(w), "{name}");
            }
        }
        if std::env::var("SHOW_CODING_VIEW").is_ok() {
            println!("{name}: {}", view.to_json());
        }
        checked += 1;
    }
    println!("{checked} coding fixtures checked");
}

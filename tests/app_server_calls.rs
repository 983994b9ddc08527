//! The App Server facts (`app_server`) natively, against every recorded reference call of the
//! `appServerFacts` module (`calls/projection/appServerFacts.json`: the reference's own tests).

use agent_runtime_projection::app_server::{
    project_app_server_events_to_execution_events,
    project_app_server_evidence_export_to_execution_events,
    project_app_server_session_read_to_execution_events, replay_app_server_facts, ExecutionEvents,
};
use agent_runtime_projection::contract::val::{deep_equal, Obj, Val};
use serde_json::Value;

mod common;
use common::{decode, reference};

/// The events as values, embedded caller values copied in.
fn event_vals(events: &ExecutionEvents<'_>) -> Vec<Val> {
    events.to_json().iter().map(Val::from_json).collect()
}

/// `v` with each `Val::Event(i)` replaced by `events[i]`.
fn resolve(v: &Val, events: &[Val]) -> Val {
    match v {
        Val::Event(i) => events.get(*i as usize).cloned().unwrap_or(Val::Undef),
        Val::Arr(items) => Val::arr(items.iter().map(|x| resolve(x, events)).collect()),
        Val::Obj(o) => {
            let mut out = Obj::new();
            for (k, x) in o.iter() {
                out.set_dyn(k, resolve(x, events));
            }
            out.into_val()
        }
        other => other.clone(),
    }
}

#[test]
fn recorded_calls_replay_natively() {
    let Some(path) = reference("calls/projection/appServerFacts.json") else {
        return;
    };
    let text = std::fs::read_to_string(path).expect("readable recorded calls");
    let recorded: Value = serde_json::from_str(&text).expect("recorded calls are JSON");
    let calls = recorded["calls"].as_array().expect("a list of calls");
    assert_eq!(calls.len(), 15);
    for (n, call) in calls.iter().enumerate() {
        let name = call["name"].as_str().unwrap_or_default();
        let arg = call["args"].get(0);
        let expected = decode(&call["result"]);
        let got = match name {
            "replayAppServerFacts" => {
                let r = replay_app_server_facts(arg).expect("replays");
                let events = event_vals(&r.events);
                Obj::new()
                    .k("events", Val::arr(events.clone()))
                    .k("state", resolve(&r.state(), &events))
                    .k("diagnostics", Val::str_arr(&r.diagnostics))
                    .into_val()
            }
            _ => {
                let events = match name {
                    "projectAppServerEventsToExecutionEvents" => {
                        project_app_server_events_to_execution_events(arg)
                    }
                    "projectAppServerSessionReadToExecutionEvents" => {
                        project_app_server_session_read_to_execution_events(arg)
                    }
                    "projectAppServerEvidenceExportToExecutionEvents" => {
                        project_app_server_evidence_export_to_execution_events(arg)
                    }
                    other => panic!("call #{n}: unexpected function {other}"),
                }
                .expect("projects");
                Val::arr(event_vals(&events))
            }
        };
        assert!(
            deep_equal(&got, &expected),
            "call #{n} {name}:\n got      {}\n expected {}",
            got.to_json(),
            expected.to_json()
        );
    }
}

//! The tape a projector writes of its state (`contract::tape`) reads back as that state: every
//! value and member order, `undefined`, the templates' objects, and the long strings it takes
//! from the events as references to them. One tape serves every stream, as in the package, so
//! its table of names carries over from one to the next.

use agent_runtime_projection::contract::fixtures::conformance_fixtures_json;
use std::cell::Cell;

use agent_runtime_projection::contract::tape::Tape;
use agent_runtime_projection::contract::val::Val;
use agent_runtime_projection::generator::{generate, GenOptions};
use agent_runtime_projection::projection::projector::Projector;
use serde_json::Value;

fn streams() -> Vec<Vec<Value>> {
    let fixtures: Vec<Value> = serde_json::from_str(conformance_fixtures_json()).expect("fixtures");
    let mut all: Vec<Vec<Value>> = fixtures
        .iter()
        .map(|f| f["events"].as_array().cloned().unwrap_or_default())
        .collect();
    let opts = serde_json::json!({"actionRate": 0.5, "subagentRate": 0.5, "stateDeltaRate": 0.2});
    let opts = GenOptions::from_json(&opts).unwrap_or_default();
    for (n, seed) in [(0, 1), (1, 2), (56, 3), (700, 4)] {
        all.push(generate(n, seed, &GenOptions::default()));
        all.push(generate(n, seed, &opts));
    }
    all
}

#[test]
fn projected_states_read_back() {
    let mut tape = Tape::default();
    let fields = Cell::new(0);
    for events in streams() {
        let mut projector = Projector::counted(Val::Num(0.0));
        let state = projector
            .project_list_compact(events.clone())
            .expect("projects");
        projector.write_tape(&state, &mut tape).expect("fits");
        let field = |event: u32, name: &str| {
            fields.set(fields.get() + 1);
            match &events[event as usize][name] {
                Value::String(s) => Val::str(s),
                other => panic!("field {name} of event {event} is {other}"),
            }
        };
        let back = tape.read(&field).expect("one well-formed value");
        assert_eq!(back.to_json(), state.to_json(), "{} events", events.len());
    }
    // Long strings did cross as references to the events.
    assert!(fields.get() > 0);
}

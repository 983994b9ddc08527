//! Arbitrary JSON event sequences through the incremental projector and the batch projection.
//!
//! Input: JSON text; an array is the event sequence (a single object is a one-event sequence).
//! Checks, besides "no panic":
//! - a refused event (Err) or a duplicate (Ok(false)) leaves the state unchanged;
//! - the state rebuilt from the patches (`take_patch`, applied the way the JS wrapper does)
//!   deep-equals `state()` after every patch;
//! - batch `project` over the accepted events deep-equals the incremental state;
//! - the batch and the hydrate that read the array text one event at a time
//!   (`project_array_text`, `hydrate_text`) give what the parsed list gives, or stop exactly
//!   where it fails.
#![no_main]

use agent_runtime_projection::contract::val::{deep_equal, Val};
use agent_runtime_projection::projection::patch::Patch;
use agent_runtime_projection::projection::projector::{project, Projector, ProjectorCore};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Apply a patch to a client-side copy of the state the way the JS wrapper does
/// (`Patch::apply_to`); `None` when the patch does not fit it.
fn apply_patch(state: &mut Val, patch: &Patch) -> Option<()> {
    patch.apply_to(state).ok()
}

fuzz_target!(|data: &[u8]| {
    let events = match serde_json::from_slice::<Value>(data) {
        Ok(Value::Array(items)) => items,
        Ok(v @ Value::Object(_)) => vec![v],
        _ => return,
    };
    // A batch and a hydrate that read the array text one event at a time: what the parsed
    // list gives, or stopped exactly where it fails.
    let all = serde_json::to_string(&events).expect("events as JSON text");
    let mut listed = Projector::new(None);
    let listed_state = listed.project_list_compact(events.clone());
    let mut streamed = ProjectorCore::new(None);
    match (streamed.project_array_text(&all), &listed_state) {
        (Some(a), Ok(b)) => {
            let (mut wa, mut wb) = (String::new(), String::new());
            streamed.write_wire(&a, &mut wa);
            listed.write_wire(b, &mut wb);
            assert_eq!(wa, wb, "array-text batch differs from the list batch");
        }
        (None, Err(_)) => {}
        (a, b) => panic!(
            "array-text batch {:?} but list batch ok {}",
            a.is_some(),
            b.is_ok()
        ),
    }
    let texts: Vec<String> = events.iter().map(|e| e.to_string()).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut from_list = Projector::new(None);
    let flags = from_list.hydrate(events.clone(), &texts, None).ok();
    let mut from_text = Projector::new(None);
    assert_eq!(
        from_text.hydrate_text(&all, None),
        flags,
        "hydrate flags differ"
    );
    assert_eq!(
        from_text.state().ok().map(|s| s.to_json()),
        from_list.state().ok().map(|s| s.to_json()),
        "hydrated states differ"
    );
    let mut p = Projector::new(None);
    let mut client = Val::Undef;
    let first = p.take_patch().expect("the empty state is readable");
    assert!(first.full, "the first patch after new() is a full one");
    assert!(apply_patch(&mut client, &first).is_some());
    let mut accepted: Vec<Value> = Vec::new();
    for (i, ev) in events.into_iter().enumerate() {
        // The state may be unreadable (the reference throws on these events as they stand): then
        // state() and take_patch() agree on it and nothing is compared.
        let before = p.state().ok();
        let ext = accepted.len() as u32;
        match p.apply(ev.clone(), ext) {
            Ok(true) => accepted.push(ev),
            Ok(false) | Err(_) => {
                let after = p.state().ok();
                assert_eq!(
                    before.is_some(),
                    after.is_some(),
                    "refused event changed the state"
                );
                if let (Some(b), Some(a)) = (&before, &after) {
                    assert!(deep_equal(b, a), "refused event changed the state");
                }
            }
        }
        if i % 3 != 1 {
            match p.take_patch() {
                Ok(patch) => {
                    let _ = patch.to_json();
                    assert!(
                        apply_patch(&mut client, &patch).is_some(),
                        "patch does not fit"
                    );
                    let state = p.state().expect("readable as take_patch was");
                    assert!(
                        deep_equal(&p.expand(&client), &state),
                        "patched state differs from state()"
                    );
                }
                Err(_) => assert!(p.state().is_err(), "take_patch and state() disagree"),
            }
        }
    }
    let batch = project(&accepted, None);
    let Ok(patch) = p.take_patch() else {
        assert!(batch.is_err(), "unreadable incrementally but not in batch");
        return;
    };
    assert!(
        apply_patch(&mut client, &patch).is_some(),
        "patch does not fit"
    );
    let incremental = p.state().expect("readable as take_patch was");
    assert!(
        deep_equal(&p.expand(&client), &incremental),
        "patched state differs from state()"
    );
    let batch = batch.expect("readable incrementally, so in batch");
    assert!(
        deep_equal(&batch, &incremental),
        "batch differs from incremental on the accepted events"
    );
    let _ = batch.to_json();
});

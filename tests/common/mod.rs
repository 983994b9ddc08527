//! Helpers shared by the integration tests that read the recorded reference goldens.
#![allow(dead_code)]

use std::path::PathBuf;

use agent_runtime_projection::contract::val::{deep_equal, Obj, Val};
use agent_runtime_projection::projection::patch::Patch;
use serde_json::Value;

/// Golden JSON to `Val`, decoding the `{"$undefined": true}` marker into `Val::Undef`.
pub fn decode(v: &Value) -> Val {
    match v {
        Value::Object(m) if m.len() == 1 && m.get("$undefined") == Some(&Value::Bool(true)) => {
            Val::Undef
        }
        Value::Object(m) => {
            let mut o = Obj::new();
            for (k, x) in m {
                o.set_dyn(k, decode(x));
            }
            o.into_val()
        }
        Value::Array(a) => Val::arr(a.iter().map(decode).collect()),
        other => Val::from_json(other),
    }
}

/// `../shared/reference/<rel>` when it exists. When it is absent the test fails, unless
/// `ALLOW_MISSING_REFERENCE=1`: then it prints SKIP and returns `None` for the caller to skip.
pub fn reference(rel: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/reference")
        .join(rel);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("ALLOW_MISSING_REFERENCE").as_deref() == Ok("1") {
        println!(
            "SKIP: reference data not found at {} (ALLOW_MISSING_REFERENCE=1)",
            path.display()
        );
        return None;
    }
    panic!(
        "reference data not found at {}: this test compares against it (set ALLOW_MISSING_REFERENCE=1 to skip)",
        path.display()
    );
}

/// The first difference of our output from a decoded golden (`None`: deep-equal);
/// `Val::Event(i)` is `events[i]`.
pub fn diff(ours: &Val, gold: &Val, events: &[Value], path: &str) -> Option<String> {
    match (ours, gold) {
        (Val::Event(i), g) => {
            let e = events
                .get(*i as usize)
                .map(Val::from_json)
                .unwrap_or_default();
            diff(&e, g, events, path)
        }
        (Val::Arr(a), Val::Arr(b)) => {
            if a.len() != b.len() {
                return Some(format!("{path}: length {} vs {}", a.len(), b.len()));
            }
            a.iter()
                .zip(b.iter())
                .enumerate()
                .find_map(|(i, (x, y))| diff(x, y, events, &format!("{path}/{i}")))
        }
        (Val::Obj(a), Val::Obj(b)) => {
            for (k, _) in b.iter() {
                if !a.contains_key(k) {
                    return Some(format!("{path}/{k}: missing"));
                }
            }
            for (k, x) in a.iter() {
                match b.get(k) {
                    None => return Some(format!("{path}/{k}: extra {}", x.to_json())),
                    Some(y) => {
                        if let Some(d) = diff(x, y, events, &format!("{path}/{k}")) {
                            return Some(d);
                        }
                    }
                }
            }
            None
        }
        _ => {
            if deep_equal(ours, gold) {
                None
            } else {
                Some(format!("{path}: {} vs {}", ours.to_json(), gold.to_json()))
            }
        }
    }
}

/// The JS patch applier, emulated on `Val` (`Patch::apply_to`).
pub fn apply_patch(state: &mut Val, patch: &Patch) {
    if let Err(e) = patch.apply_to(state) {
        panic!("{e}");
    }
}

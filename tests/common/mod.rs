//! Helpers shared by the integration tests that read the recorded reference goldens.
#![allow(dead_code)]

use std::path::PathBuf;

use agent_runtime_projection::contract::val::{Obj, Val};
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

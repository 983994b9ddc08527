//! Helpers shared by the integration tests that read the recorded reference goldens.

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

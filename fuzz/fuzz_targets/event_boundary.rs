//! Arbitrary bytes through the event boundary: parse, check, redact, convert, encode.
//! Nothing may panic; a redacted event must still pass the boundary check.
#![no_main]

use agent_runtime_projection::contract::event::{check_event, parse_event};
use agent_runtime_projection::contract::redact::redact_secrets;
use agent_runtime_projection::contract::val::Val;
use agent_runtime_projection::contract::validation::is_secret_key;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = is_secret_key(text);
    let Ok(mut v) = parse_event(text) else {
        return;
    };
    let _ = Val::from_json(&v).to_json();
    let changed = redact_secrets(&mut v);
    assert!(check_event(&v).is_ok(), "redaction broke a valid event");
    assert!(!redact_secrets(&mut v), "redaction is idempotent");
    let _ = changed;
});

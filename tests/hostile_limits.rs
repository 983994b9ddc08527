//! Hostile input limits at the parse and event boundary: any nesting depth, huge strings.
//!
//! Deep JSON must come back as an error, never as a stack overflow. Nothing here builds a
//! deeply nested `serde_json::Value` in memory (its `Drop` is recursive): the deep inputs are
//! JSON text, and the parser refuses them before any such value exists.

use agent_runtime_projection::contract::event::{
    check_event, json_depth, parse_event, MAX_EVENT_DEPTH,
};
use agent_runtime_projection::contract::redact::redact_secrets;
use agent_runtime_projection::contract::val::Val;
use serde_json::Value;

/// `n` levels of `open`, a leaf, `n` levels of `close`.
fn nested_text(n: usize, open: &str, leaf: &str, close: &str) -> String {
    let mut s = String::with_capacity(n * (open.len() + close.len()) + leaf.len());
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(leaf);
    for _ in 0..n {
        s.push_str(close);
    }
    s
}

#[test]
fn a_million_levels_of_arrays_is_a_parse_error() {
    let text = nested_text(1_000_000, "[", "0", "]");
    let err = serde_json::from_str::<Value>(&text).expect_err("must refuse");
    assert!(
        err.to_string().contains("recursion limit exceeded"),
        "unexpected error: {err}"
    );
    let err = parse_event(&text).expect_err("must refuse");
    assert!(
        err.message.starts_with("Invalid event JSON"),
        "{}",
        err.message
    );
}

#[test]
fn a_million_levels_of_objects_inside_a_payload_is_a_parse_error() {
    let inner = nested_text(1_000_000, "{\"a\":", "0", "}");
    let text = format!(r#"{{"id":"e1","kind":"message","payload":{inner}}}"#);
    let err = parse_event(&text).expect_err("must refuse");
    assert!(
        err.message.contains("recursion limit exceeded"),
        "{}",
        err.message
    );
    // An unterminated deep prefix is refused the same way.
    let open_only = "[".repeat(1_000_000);
    assert!(serde_json::from_str::<Value>(&open_only).is_err());
}

#[test]
fn serde_json_default_limit_is_128_levels() {
    // 127 nested arrays around a scalar parse; 129 do not. (The limit counts containers.)
    assert!(serde_json::from_str::<Value>(&nested_text(127, "[", "0", "]")).is_ok());
    assert!(serde_json::from_str::<Value>(&nested_text(129, "[", "0", "]")).is_err());
}

#[test]
fn event_boundary_caps_nesting_at_64_levels() {
    // The event object itself is level 1, the payload object level 2.
    let ok_depth = MAX_EVENT_DEPTH - 1;
    let ok = format!(
        r#"{{"id":"e1","payload":{}}}"#,
        nested_text(ok_depth, "{\"a\":", "1", "}")
    );
    let v = parse_event(&ok).expect("64 levels are accepted");
    assert_eq!(json_depth(&v), MAX_EVENT_DEPTH);

    let deep = format!(
        r#"{{"id":"e1","payload":{}}}"#,
        nested_text(ok_depth + 1, "[", "1", "]")
    );
    let err = parse_event(&deep).expect_err("65 levels are refused");
    assert_eq!(
        err.message,
        "Runtime event nesting exceeds the limit of 64 levels."
    );
    // check_event on an already parsed value says the same.
    let v: Value = serde_json::from_str(&deep).expect("under serde's limit");
    assert!(check_event(&v).is_err());
}

#[test]
fn val_conversion_and_redaction_at_the_parse_limit() {
    // The deepest value serde_json will hand us (127 levels) converts, encodes and redacts.
    let text = nested_text(125, "{\"token\":", "{\"a\":1}", "}");
    let text = format!("[{text}]");
    let mut v: Value = serde_json::from_str(&text).expect("parses");
    let val = Val::from_json(&v);
    assert!(val.to_json().starts_with("[{\"token\":"));
    assert!(redact_secrets(&mut v));
    assert_eq!(v, serde_json::json!([{"token": "[redacted]"}]));
}

#[test]
fn fifty_megabyte_string_parses_and_checks() {
    let big = "x".repeat(50 * 1024 * 1024);
    let text = format!(r#"{{"id":"e1","kind":"message","payload":{{"text":"{big}"}}}}"#);
    drop(big);
    let v = parse_event(&text).expect("a long string is not an error");
    assert_eq!(
        v["payload"]["text"].as_str().map(str::len),
        Some(50 * 1024 * 1024)
    );
}

#[test]
fn malformed_text_is_an_error_not_a_panic() {
    for text in [
        "",
        "nul",
        "{",
        "}",
        "[1,]",
        "{\"id\":}",
        "\"\\ud800\"",
        "1e400",
        "-",
        "{\"id\":\"a\",\"id\":\"b\"}",
        "\u{feff}{}",
        "{\"id\":\"\\u0000\"}",
        "{\"id\":1}",
        "{\"id\":\"\"}",
        "[]",
        "null",
        "{\"id\":\"x\",\"sequence\":\"1\"}",
        "{\"id\":\"x\",\"refIds\":[1]}",
    ] {
        // Either outcome is fine; the point is that none of them panics.
        let _ = parse_event(text);
    }
    // Duplicate keys: serde_json keeps the last one (JS JSON.parse does too).
    let v = parse_event("{\"id\":\"a\",\"id\":\"b\"}").expect("valid");
    assert_eq!(v["id"], "b");
}

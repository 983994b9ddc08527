//! Secret redaction: blank out the values of secret-bearing keys before an event is projected.
//!
//! The contract flags (but keeps) payload members whose key looks like a credential
//! (`secret_leak_risk`, contracts.md §2.5): the key matches
//! `(api[-_]?key|authorization|password|secret|token)`, case-insensitive, anywhere in the key.
//! A host that opts in (`redactSecrets: true`) wants those values gone from every projected
//! state, so they are replaced here, before the event reaches the reducer, and the redacted
//! copy is what the state's `source` references point at.
//!
//! The walk is iterative (an explicit stack), so no input depth can overflow the call stack.

use serde_json::Value;

use super::validation::{is_secret_key, is_secret_key_bytes};

/// The replacement written in place of a secret-bearing value.
pub const REDACTED: &str = "[redacted]";

/// Replace, in place, the value of every object member whose key is secret-bearing
/// (the validator's `is_secret_key`, so redaction and the `secret_leak_risk` scan
/// agree on every key), at any depth, with the string `"[redacted]"`. The replaced value is not
/// walked further. Returns whether anything changed (a member already holding exactly
/// `"[redacted]"` is not a change).
pub fn redact_secrets(v: &mut Value) -> bool {
    let mut changed = false;
    let mut stack: Vec<&mut Value> = vec![v];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (key, child) in map.iter_mut() {
                    if is_secret_key(key) {
                        if child.as_str() != Some(REDACTED) {
                            // Dropping the old value can recurse inside serde_json; inputs that
                            // reach here were parsed under serde_json's depth limit.
                            *child = Value::String(REDACTED.to_owned());
                            changed = true;
                        }
                    } else if matches!(child, Value::Object(_) | Value::Array(_)) {
                        stack.push(child);
                    }
                }
            }
            Value::Array(items) => {
                stack.extend(
                    items
                        .iter_mut()
                        .filter(|c| matches!(c, Value::Object(_) | Value::Array(_))),
                );
            }
            _ => {}
        }
    }
    changed
}

/// `text` (JSON: an event, a list of events, any value) with every secret-bearing member
/// redacted ([`redact_secrets`]): `Ok(None)` when nothing was redacted, else the redacted JSON
/// text. A text that holds no secret-bearing word anywhere cannot hold such a key (JSON text
/// never escapes the letters, `-` or `_` of a key), so it is not parsed at all.
pub fn redact_json_text(text: &str) -> Result<Option<String>, String> {
    if !is_secret_key_bytes(text.as_bytes()) {
        return Ok(None);
    }
    let mut v = super::json::parse_value(text).map_err(|e| format!("Invalid JSON input: {e}"))?;
    if !redact_secrets(&mut v) {
        return Ok(None);
    }
    serde_json::to_string(&v)
        .map(Some)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text_is_redacted_only_where_a_key_matches() {
        assert_eq!(
            redact_json_text(r#"[{"id":"a","payload":{"q":1}}]"#),
            Ok(None)
        );
        // A secret-bearing word in a value alone: parsed, nothing to redact.
        assert_eq!(redact_json_text(r#"{"id":"token"}"#), Ok(None));
        assert_eq!(
            redact_json_text(r#"[{"id":"a","payload":{"API_Key":"k","n":[{"password":2}]}}]"#),
            Ok(Some(
                r#"[{"id":"a","payload":{"API_Key":"[redacted]","n":[{"password":"[redacted]"}]}}]"#
                    .to_string()
            ))
        );
        assert!(redact_json_text("{\"token\":").is_err());
    }
    use serde_json::json;

    #[test]
    fn secret_keys_follow_the_contract_examples() {
        for k in [
            "apiKey",
            "api_key",
            "API-KEY",
            "apikey",
            "Authorization",
            "authorizationHeader",
            "userPassword",
            "clientSecret",
            "secretary",
            "accessToken",
            "tokens",
            "max_tokens",
            "TOKEN_COUNT",
        ] {
            assert!(is_secret_key(k), "{k} should match");
        }
        for k in [
            "passwd",
            "key",
            "api",
            "auth",
            "credential",
            "",
            "api key",
            "tok",
        ] {
            assert!(!is_secret_key(k), "{k} should not match");
        }
        // Non-ASCII look-alikes do not fold to ASCII letters.
        assert!(!is_secret_key("\u{17f}ecret")); // long s
        assert!(!is_secret_key("api\u{212a}ey")); // Kelvin sign
    }

    #[test]
    fn redacts_nested_values_and_reports_change() {
        let mut v = json!({
            "id": "e1",
            "payload": {
                "apiKey": "sk-1",
                "nested": [{"Authorization": {"deep": "Bearer x"}}, {"ok": "keep"}],
                "metadata": {"clientSecret": 7, "tokenUsage": {"total": 3}}
            }
        });
        assert!(redact_secrets(&mut v));
        assert_eq!(
            v,
            json!({
                "id": "e1",
                "payload": {
                    "apiKey": "[redacted]",
                    "nested": [{"Authorization": "[redacted]"}, {"ok": "keep"}],
                    "metadata": {"clientSecret": "[redacted]", "tokenUsage": "[redacted]"}
                }
            })
        );
        assert!(!redact_secrets(&mut v), "second pass changes nothing");
        let mut plain = json!({"id": "e2", "payload": {"text": "token=abc"}});
        assert!(!redact_secrets(&mut plain), "values are never inspected");
    }
}

//! Reading App Server facts with the JavaScript semantics the reference relies on.
//!
//! Facts arrive as parsed JSON. A fact the reference reads as `x.key` may be any JSON value (or
//! missing): property access on `null`/`undefined` throws a `TypeError`, on other primitives it
//! gives `undefined`; `value?.trim()` on a non-string throws. Each such throw is reproduced here
//! as a [`FactsError`] carrying V8's message, so a malformed fact fails the way it fails in the
//! reference.

use serde_json::{Map, Value};

use crate::contract::event::{obj_get, trim_str_in};
use crate::contract::js::{has_content, js_lower, js_string_to_number, js_trim};
use crate::projection::normalization::read_string_array;

use super::FactsError;

/// A JS value read from the facts: `None` is `undefined`, `Some(Value::Null)` is `null`.
pub type Js<'a> = Option<&'a Value>;

/// `null` or `undefined`.
pub fn is_nullish(v: Js<'_>) -> bool {
    matches!(v, None | Some(Value::Null))
}

/// `a ?? b`.
pub fn coalesce<'a>(a: Js<'a>, b: Js<'a>) -> Js<'a> {
    if is_nullish(a) {
        b
    } else {
        a
    }
}

/// JS truthiness of a fact (`undefined`, `null`, `false`, `0`, `""` are falsy).
pub fn truthy(v: Js<'_>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// The `TypeError` V8 throws when reading `key` of `null` or `undefined`.
pub fn cannot_read(base: Js<'_>, key: &str) -> FactsError {
    let what = if base.is_some() { "null" } else { "undefined" };
    FactsError(format!(
        "Cannot read properties of {what} (reading '{key}')"
    ))
}

/// `base[key]` where `base` may be nullish (then it throws, as the reference does).
pub fn get<'a>(base: Js<'a>, key: &str) -> Result<Js<'a>, FactsError> {
    if is_nullish(base) {
        return Err(cannot_read(base, key));
    }
    Ok(member(base, key))
}

/// `base[key]` for a base known not to be nullish: an object's member, `undefined` for every
/// other value (the facts' keys are no property of arrays, strings, numbers or booleans).
pub fn member<'a>(base: Js<'a>, key: &str) -> Js<'a> {
    match base {
        Some(Value::Object(m)) => obj_get(m, key),
        _ => None,
    }
}

/// `rec[key]` of a record (facts are small objects: found by a scan, not by hashing).
pub fn field<'a>(rec: Option<&'a Map<String, Value>>, key: &str) -> Js<'a> {
    rec.and_then(|r| obj_get(r, key))
}

/// `readRecord(v)`: a JSON object (arrays are not records).
pub fn record(v: Js<'_>) -> Option<&Map<String, Value>> {
    v.and_then(Value::as_object)
}

/// `readStringField(rec, keys)`: the first of `keys` holding a non-blank string, trimmed (one
/// out-of-line copy for the whole module, which reads dozens of fields).
#[inline(never)]
pub fn string_field<'a>(rec: Option<&'a Map<String, Value>>, keys: &[&str]) -> Option<&'a str> {
    rec.and_then(|r| trim_str_in(r, keys))
}

/// `readStringArrayField(rec, keys)`: the strings of the first of `keys` that lists any.
pub fn string_array_field<'a>(rec: Option<&'a Map<String, Value>>, keys: &[&str]) -> Vec<&'a str> {
    keys.iter()
        .map(|k| read_string_array(field(rec, k)))
        .find(|v| !v.is_empty())
        .unwrap_or_default()
}

/// `normalizeRefs(values)`: trimmed, non-empty, first occurrence kept (the lists are short:
/// duplicates are found by a scan).
pub fn distinct<'a>(values: impl IntoIterator<Item = Option<&'a str>>) -> Vec<&'a str> {
    let mut out: Vec<&'a str> = Vec::new();
    for v in values.into_iter().flatten() {
        let t = js_trim(v);
        if !t.is_empty() && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// `definedString(v)` on a fact: `v?.trim() || undefined`. A value that is neither nullish nor
/// a string has no `trim` method: the reference throws `value?.trim is not a function`.
pub fn defined_string(v: Js<'_>) -> Result<Option<&str>, FactsError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(js_trim(s)).filter(|t| !t.is_empty())),
        Some(_) => Err(no_trim("value")),
    }
}

/// `normalizeRuntimeStatusValue(v)` on a fact (trimmed, lower-cased, `None` when empty); throws
/// like [`defined_string`] on a value without `trim`.
pub fn normalize_status(v: Js<'_>) -> Result<Option<String>, FactsError> {
    Ok(defined_string(v)?.map(js_lower))
}

/// The `TypeError` of calling `trim` through optional chaining on a value that has none
/// (`name` is the variable the reference's helper names).
pub fn no_trim(name: &str) -> FactsError {
    FactsError(format!("{name}?.trim is not a function"))
}

/// `readNumberField({sequence: v}, ["sequence"])`: a finite number, or a non-blank string whose
/// `Number()` is finite.
pub fn number_like(v: Js<'_>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite()),
        Value::String(s) if has_content(s) => {
            Some(js_string_to_number(s)).filter(|x| x.is_finite())
        }
        _ => None,
    }
}

/// JS `String(v)` as a template literal interpolates a fact (`undefined` included).
pub fn to_js_string(v: Js<'_>) -> String {
    match v {
        None => "undefined".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => crate::contract::js::js_value_to_string(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn property_access_follows_js() {
        let n = json!(null);
        assert_eq!(
            get(Some(&n), "type").unwrap_err().0,
            "Cannot read properties of null (reading 'type')"
        );
        assert_eq!(
            get(None, "session").unwrap_err().0,
            "Cannot read properties of undefined (reading 'session')"
        );
        let s = json!("text");
        assert_eq!(get(Some(&s), "type"), Ok(None));
        let o = json!({"type": "x"});
        assert_eq!(get(Some(&o), "type"), Ok(Some(&json!("x"))));
    }

    #[test]
    fn defined_string_trims_or_throws() {
        assert_eq!(defined_string(Some(&json!("  a "))), Ok(Some("a")));
        assert_eq!(defined_string(Some(&json!("   "))), Ok(None));
        assert_eq!(defined_string(Some(&json!(null))), Ok(None));
        assert_eq!(
            defined_string(Some(&json!(5))).unwrap_err().0,
            "value?.trim is not a function"
        );
    }

    #[test]
    fn strings_and_numbers_as_js_sees_them() {
        assert_eq!(to_js_string(None), "undefined");
        assert_eq!(to_js_string(Some(&json!({"a": 1}))), "[object Object]");
        assert_eq!(to_js_string(Some(&json!([1, [2, null]]))), "1,2,");
        assert_eq!(number_like(Some(&json!(" 0x10 "))), Some(16.0));
        assert_eq!(number_like(Some(&json!("  "))), None);
        assert_eq!(number_like(Some(&json!(true))), None);
        assert!(truthy(Some(&json!([]))));
        assert!(!truthy(Some(&json!(0))));
    }
}

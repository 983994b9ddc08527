//! Shared value readers of the projection (spec §0.3), with the reference's JS semantics.

use serde_json::{Map, Value};

use crate::contract::event::{first_of, trim_str_in, Ev, Odd, OddOp};
use crate::contract::js::{has_content, js_string_to_number, js_trim, utf16_len, utf16_prefix};
use crate::contract::val::Val;

/// A JSON object record (`isRecord` / `readRecord`): `None` for arrays, null and scalars.
pub fn record(v: Option<&Value>) -> Option<&Map<String, Value>> {
    v.and_then(Value::as_object)
}

/// `rawStr(ev, keys…)`: first payload string with non-blank content, untrimmed.
pub fn raw_str<'a>(ev: Ev<'a>, keys: &[&str]) -> Option<&'a str> {
    ev.raw_str(keys)
}

/// `definedString(v)`: trimmed, `None` when empty.
pub fn defined_string(v: Option<&str>) -> Option<&str> {
    v.map(js_trim).filter(|s| !s.is_empty())
}

/// `readStringField(rec, keys)`: first non-blank string, trimmed.
pub fn read_string_field<'a>(
    rec: Option<&'a Map<String, Value>>,
    keys: &[&str],
) -> Option<&'a str> {
    trim_str_in(rec?, keys)
}

/// `truncateText(v, limit)`: trimmed; longer than `limit` UTF-16 units gets cut, re-trimmed and
/// suffixed with `...`.
pub fn truncate_text(v: Option<&str>, limit: usize) -> Option<String> {
    let t = defined_string(v)?;
    if utf16_len(t) <= limit {
        return Some(t.to_string());
    }
    Some(format!("{}...", js_trim(utf16_prefix(t, limit))))
}

/// `preview280` / `preview320`: untrimmed, cut to `limit - 3` units plus `...` when longer.
pub fn preview(v: Option<&str>, limit: usize) -> Option<String> {
    let v = v.filter(|s| !s.is_empty())?;
    if utf16_len(v) > limit {
        return Some(format!("{}...", utf16_prefix(v, limit - 3)));
    }
    Some(v.to_string())
}

/// `safePath(v)`: rejects absolute paths, `file:` URLs and credential-like `name=` text.
pub fn safe_path(v: Option<&str>) -> Option<&str> {
    let v = v.filter(|s| !s.is_empty())?;
    let b = v.as_bytes();
    let drive = b.len() >= 3
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b[2] == b'\\' || b[2] == b'/');
    if drive || v.starts_with('/') || v.starts_with("file:") {
        return None;
    }
    // A credential name followed by `=`, in any ASCII case: found at each `=` by the name that
    // ends there.
    const NAMES: [&[u8]; 7] = [
        b"apikey",
        b"api-key",
        b"api_key",
        b"authorization",
        b"password",
        b"secret",
        b"token",
    ];
    let credential = b.iter().enumerate().any(|(i, &c)| {
        c == b'='
            && NAMES.iter().any(|name| {
                i >= name.len()
                    && b.get(i - name.len()..i)
                        .is_some_and(|before| before.eq_ignore_ascii_case(name))
            })
    });
    (!credential).then_some(v)
}

/// `uniqueStrings(list)`: trimmed, non-empty, first occurrence kept.
pub fn unique_strings<'a, I: IntoIterator<Item = Option<&'a str>>>(items: I) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = crate::contract::fxhash::HashSet::default();
    for s in items.into_iter().flatten() {
        let t = js_trim(s);
        if !t.is_empty() && seen.insert(t.to_string()) {
            out.push(t.to_string());
        }
    }
    out
}

/// `readNumberField(rec, keys)`: a finite number, or a non-blank string whose `Number()` is finite.
pub fn read_number_field(rec: Option<&Map<String, Value>>, keys: &[&str]) -> Option<f64> {
    let number = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) if has_content(s) => Some(js_string_to_number(s)),
        _ => None,
    };
    let finite = |v: &Value| number(v).filter(|x| x.is_finite());
    first_of(rec?, keys, &|v| finite(v).is_some()).and_then(finite)
}

/// `readStringArray(v)`: a non-blank string gives `[trimmed]`; an array its non-blank string
/// items, untrimmed.
pub fn read_string_array(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::String(s)) if has_content(s) => vec![js_trim(s)],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .filter(|s| has_content(s))
            .collect(),
        _ => Vec::new(),
    }
}

/// `readStringArrayField(rec, keys)`: the first key giving a non-empty `readStringArray`.
pub fn read_string_array_field<'a>(
    rec: Option<&'a Map<String, Value>>,
    keys: &[&str],
) -> Vec<&'a str> {
    let Some(rec) = rec else { return Vec::new() };
    let items = |v: &'a Value| read_string_array(Some(v));
    first_of(rec, keys, &|v| !read_string_array(Some(v)).is_empty())
        .map(items)
        .unwrap_or_default()
}

/// `readBooleanField(rec, keys)`: the first boolean.
pub fn read_boolean_field(rec: Option<&Map<String, Value>>, keys: &[&str]) -> Option<bool> {
    first_of(rec?, keys, &Value::is_boolean).and_then(Value::as_bool)
}

/// A string field of the event as a `Val` (`Undef` when absent, null or not a string).
pub fn ev_str(ev: Ev<'_>, k: &str) -> Val {
    Val::opt_str(ev.str(k))
}

/// A field of the event as a `Val`, JSON kept (null stays null; absent is `Undef`): for a name
/// known only at run time (a table's). A literal name reads through `ev.val`, inlined, whose
/// slot is then computed at compile time.
pub fn ev_val(ev: Ev<'_>, k: &str) -> Val {
    ev.val(k)
}

/// `eventRefs(ev)` as a `Val` array (the reference spreads the three ref fields: a value that
/// is not iterable makes it throw).
pub fn event_refs_val(ev: Ev<'_>) -> Result<Val, Odd> {
    Ok(Val::arr(ev.refs()?))
}

/// `v?.trim()` for an output value read from `field` (a `TypeError` in the reference when it
/// is neither nullish nor a string).
pub fn val_str_op<'v>(v: &'v Val, field: &'static str) -> Result<Option<&'v str>, Odd> {
    match v {
        Val::Undef | Val::Null => Ok(None),
        Val::Str(s) => Ok(Some(s)),
        other => Err(Odd::new(field, other.type_name(), OddOp::StringMethod)),
    }
}

/// `uniqueStrings(values)` over output values: each `v?.trim()`, empty results dropped, first
/// occurrence kept; a value neither nullish nor a string makes the reference throw.
pub fn unique_trimmed<'v>(
    values: impl IntoIterator<Item = &'v Val>,
    field: &'static str,
) -> Result<Vec<Val>, Odd> {
    let mut out: Vec<Val> = Vec::new();
    let mut seen = crate::contract::fxhash::HashSet::default();
    for v in values {
        let Some(s) = val_str_op(v, field)? else {
            continue;
        };
        let t = js_trim(s);
        if !t.is_empty() && seen.insert(t) {
            out.push(if t.len() == s.len() {
                v.clone()
            } else {
                Val::str(t)
            });
        }
    }
    Ok(out)
}

/// `x ?? y` on `Val`s.
pub fn or_nullish(a: Val, b: impl FnOnce() -> Val) -> Val {
    if a.is_nullish() {
        b()
    } else {
        a
    }
}

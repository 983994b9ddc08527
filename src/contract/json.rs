//! JSON text to `serde_json::Value`, faster than `serde_json::from_str` for event-shaped data;
//! and wire-encoded JSON text straight to a `Val` ([`parse_wire_val`]).
//!
//! With key order preserved, `serde_json` builds each object by inserting into an empty
//! `IndexMap`, which grows (and rehashes) 4 -> 8 -> 16 on a typical event. Here each object's
//! members are collected first and the map is built at its final size. The result is the same
//! value (duplicate keys keep their first position and their last value, like `JSON.parse`);
//! nesting is still limited by serde_json's recursion limit (128 levels).

use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;

use super::val::Val;

/// Parse one JSON text (trailing non-whitespace is an error, as with `serde_json::from_str`).
pub fn parse_value(text: &str) -> Result<Value, serde_json::Error> {
    if let Some(v) = super::reader::whole_value(text) {
        return Ok(v);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let v = ValueSeed.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// The object of `members` in text order, built at its final size: a name given twice keeps
/// its first place and its last value (as `JSON.parse` reads it).
#[inline(never)]
pub fn object_of(members: Vec<(String, Value)>) -> Value {
    let mut out = Map::with_capacity(members.len());
    for (k, v) in members {
        out.insert(k, v);
    }
    Value::Object(out)
}

/// The double a JSON number literal denotes (correctly rounded; `-0` stays negative zero).
/// `None` when `text` is not exactly one JSON number, or its magnitude is beyond the largest
/// double. The one decimal-to-double conversion of the crate: serde_json's, which
/// [`parse_value`] uses for numbers anyway.
pub fn parse_json_number(text: &str) -> Option<f64> {
    text.parse::<Number>().ok()?.as_f64()
}

/// A JSON value read through [`parse_value`]'s visitor, for serde_json's typed entry points
/// (`StreamDeserializer`). The crate reads every value this way, so serde_json's own
/// `Deserialize for Value` (and the type-error machinery of typed visitors) is never linked.
pub struct Parsed(pub Value);

impl<'de> Deserialize<'de> for Parsed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Parsed, D::Error> {
        ValueSeed.deserialize(d).map(Parsed)
    }
}

impl<'t> ListItem<'t> for Parsed {
    fn read_fast(text: &'t str) -> Option<(Parsed, usize)> {
        super::reader::value_prefix(text).map(|(v, end)| (Parsed(v), end))
    }
}

/// An item of a list [`for_each_array_element`] reads: by the event reader
/// (`super::reader`) where it reads it, else through serde_json.
pub trait ListItem<'t>: Deserialize<'t> {
    /// The item at byte 0 of `text` and the index after it, without serde_json (`None`: let
    /// serde_json read it).
    fn read_fast(_text: &'t str) -> Option<(Self, usize)> {
        None
    }
}

/// A JSON value skipped unread (its syntax still checked), for serde_json's typed entry points.
pub struct Skipped;

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Skipped, D::Error> {
        d.deserialize_ignored_any(SkipVisitor).map(|()| Skipped)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// The texts of the elements of a JSON array, in order; exactly what reading `text` as
/// `Vec<&RawValue>` with serde_json gives, errors included (an error of the data category
/// means `text` is JSON but not an array), without linking serde_json's typed-visitor errors.
pub fn array_element_texts(text: &str) -> Result<Vec<&str>, serde_json::Error> {
    // Pass 1: the syntax of the whole text, as the `Vec` read checks it.
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_any(ArrayCheck)?;
    de.end()?;
    // Pass 2: the element boundaries of the (now known well-formed) array.
    let b = text.as_bytes();
    let ws = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            i += 1;
        }
        i
    };
    let mut items = Vec::new();
    let mut pos = ws(ws(0) + 1);
    if b.get(pos) == Some(&b']') {
        return Ok(items);
    }
    loop {
        let rest = text.get(pos..).unwrap_or_default();
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Skipped>();
        if let Some(r) = values.next() {
            r?;
        }
        let end = pos + values.byte_offset();
        items.push(text.get(pos..end).unwrap_or_default());
        pos = ws(end);
        if b.get(pos) != Some(&b',') {
            return Ok(items);
        }
        pos = ws(pos + 1);
    }
}

/// Each element of the JSON array `text`, read as a `T` (a [`Parsed`] value, as [`parse_value`]
/// parses it, or an event record) and with its slice of `text`, handed to `f` as soon as it is
/// read, in one pass over the text; `f` returns false to stop. True when `text` is a well-formed
/// JSON array, every element reads as a `T` and `f` took each one; false says nothing more
/// (callers that need the error read the text with [`parse_value`]).
/// An element read alone has one level more of serde_json's nesting budget than inside the
/// whole array: callers refuse what nests that deep anyway (an event deeper than
/// `event::MAX_EVENT_DEPTH` cannot be carried), and that check, not this reader, is where such
/// an element stops.
pub fn for_each_array_element<'t, T: ListItem<'t>>(
    text: &'t str,
    mut f: impl FnMut(T, &'t str) -> bool,
) -> bool {
    each_array_element(text, &mut f)
}

/// [`for_each_array_element`], built once per element type (not once per caller's closure).
fn each_array_element<'t, T: ListItem<'t>>(
    text: &'t str,
    f: &mut dyn FnMut(T, &'t str) -> bool,
) -> bool {
    let b = text.as_bytes();
    let ws = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            i += 1;
        }
        i
    };
    let mut pos = ws(0);
    if b.get(pos) != Some(&b'[') {
        return false;
    }
    pos = ws(pos + 1);
    if b.get(pos) == Some(&b']') {
        return ws(pos + 1) == b.len();
    }
    loop {
        let Some(rest) = text.get(pos..) else {
            return false;
        };
        let (value, end) = match T::read_fast(rest) {
            Some((value, len)) => {
                // After an item that does not delimit itself (a number, `true`, `null`),
                // serde_json takes it only before white space or a delimiter.
                let delimited = matches!(b.get(pos), Some(b'{' | b'[' | b'"'));
                let next = rest.as_bytes().get(len);
                if !delimited
                    && !matches!(
                        next,
                        None | Some(
                            b' ' | b'\n'
                                | b'\t'
                                | b'\r'
                                | b','
                                | b']'
                                | b'}'
                                | b':'
                                | b'"'
                                | b'['
                                | b'{'
                        )
                    )
                {
                    return false;
                }
                (value, pos + len)
            }
            None => {
                let mut values = serde_json::Deserializer::from_str(rest).into_iter::<T>();
                let Some(Ok(value)) = values.next() else {
                    return false;
                };
                (value, pos + values.byte_offset())
            }
        };
        let Some(item) = text.get(pos..end) else {
            return false;
        };
        if !f(value, item) {
            return false;
        }
        pos = ws(end);
        match b.get(pos) {
            Some(b',') => pos = ws(pos + 1),
            Some(b']') => return ws(pos + 1) == b.len(),
            _ => return false,
        }
    }
}

/// The `Visitor` methods for the kinds of JSON value a visitor does not read (`bool`, `i64`,
/// `u64`, `f64`, `str`, `unit`, `seq`, `map`), each an error with `$message`: without serde's
/// typed-visitor messages (which the crate never links: they bring float formatting and more).
/// Used inside `impl<$de> Visitor<$de>`.
macro_rules! refuse_json {
    ($de:lifetime, $message:expr; $($kind:ident),+) => {
        $(refuse_json!(@ $de, $message, $kind);)+
    };
    (@ $de:lifetime, $message:expr, bool) => { refuse_json!(@value $message, visit_bool, bool); };
    (@ $de:lifetime, $message:expr, i64) => { refuse_json!(@value $message, visit_i64, i64); };
    (@ $de:lifetime, $message:expr, u64) => { refuse_json!(@value $message, visit_u64, u64); };
    (@ $de:lifetime, $message:expr, f64) => { refuse_json!(@value $message, visit_f64, f64); };
    (@ $de:lifetime, $message:expr, str) => { refuse_json!(@value $message, visit_str, &str); };
    (@ $de:lifetime, $message:expr, unit) => {
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Err(E::custom($message))
        }
    };
    (@ $de:lifetime, $message:expr, seq) => {
        fn visit_seq<A: serde::de::SeqAccess<$de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(serde::de::Error::custom($message))
        }
    };
    (@ $de:lifetime, $message:expr, map) => {
        fn visit_map<A: serde::de::MapAccess<$de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(serde::de::Error::custom($message))
        }
    };
    (@value $message:expr, $method:ident, $t:ty) => {
        fn $method<E: serde::de::Error>(self, _: $t) -> Result<Self::Value, E> {
            Err(E::custom($message))
        }
    };
}

/// A visitor of objects (its `visit_map`) that also reads `null`, as `None`: a list's slot for
/// an item its reader leaves out. Anything else does not read.
pub struct OrNull<V>(pub V);

impl<'de, V: Visitor<'de>> Visitor<'de> for OrNull<V> {
    type Value = Option<V::Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.0.expecting(f)?;
        f.write_str(" or null")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(map).map(Some)
    }
    refuse_json!('de, "neither an object nor null"; bool, i64, u64, f64, str, seq);
}

/// Pass 1 of [`array_element_texts`]: an array's elements are skipped; any other value is a
/// data error (the text is JSON, but not an array).
struct ArrayCheck;

impl<'de> Visitor<'de> for ArrayCheck {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<Skipped>()?.is_some() {}
        Ok(())
    }
    refuse_json!('de, "not an array"; bool, i64, u64, f64, str, unit, map);
}

/// Parse one JSON text written with the wire encoding straight into a [`Val`]: the same value
/// as `Val::from_wire_json(&parse_value(text)?)`, which reads what the event reader
/// (`super::reader`) leaves (and gives the error), without building the `serde_json::Value`
/// between (no hashed map for an object of up to 16 members).
pub fn parse_wire_val(text: &str) -> Result<Val, serde_json::Error> {
    match super::reader::whole_wire_val(text) {
        Some(v) => Ok(v),
        None => parse_value(text).map(|v| Val::from_wire_json(&v)),
    }
}

/// A JSON value as [`TextSeed`] reads it: a string apart, borrowed from the text when it has no
/// escape (an event record keeps its string fields so: [`super::record::EventRecord`]), any
/// other value parsed.
pub enum TextValue<'t> {
    Str(Cow<'t, str>),
    Json(Value),
}

impl TextValue<'_> {
    /// The value as a JSON value (a string copied, unless it already is one of its own).
    pub fn into_value(self) -> Value {
        match self {
            TextValue::Str(s) => Value::String(s.into_owned()),
            TextValue::Json(v) => v,
        }
    }
}

/// The reader of [`parse_value`]: a JSON value, its strings and members as `JSON.parse` reads
/// them ([`TextSeed`], mapped to a [`Value`]).
pub(crate) struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(TextSeed).map(TextValue::into_value)
    }
}

/// The one visitor of JSON values (so serde_json's value dispatch is built once per reader):
/// a string as a [`TextValue::Str`], anything else as a [`Value`].
pub(crate) struct TextSeed;

impl<'de> DeserializeSeed<'de> for TextSeed {
    type Value = TextValue<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<TextValue<'de>, D::Error> {
        d.deserialize_any(TextSeed)
    }
}

impl<'de> Visitor<'de> for TextSeed {
    type Value = TextValue<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Json(Value::Bool(b)))
    }
    fn visit_i64<E>(self, n: i64) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Json(Value::Number(n.into())))
    }
    fn visit_u64<E>(self, n: u64) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Json(Value::Number(n.into())))
    }
    fn visit_f64<E>(self, n: f64) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Json(
            Number::from_f64(n).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Str(Cow::Owned(s.to_owned())))
    }
    fn visit_string<E>(self, s: String) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Str(Cow::Owned(s)))
    }
    fn visit_unit<E>(self) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Json(Value::Null))
    }
    fn visit_none<E>(self) -> Result<TextValue<'de>, E> {
        Ok(TextValue::Json(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TextValue<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(x) = seq.next_element_seed(ValueSeed)? {
            items.push(x);
        }
        Ok(TextValue::Json(Value::Array(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TextValue<'de>, A::Error> {
        let mut members: Vec<(String, Value)> = Vec::with_capacity(8);
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(ValueSeed)?;
            members.push((k, v));
        }
        Ok(TextValue::Json(object_of(members)))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_value;
    use serde_json::Value;

    fn same(text: &str) {
        let a: Result<Value, _> = serde_json::from_str(text);
        let b = parse_value(text);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{text}");
                assert_eq!(a.to_string(), b.to_string(), "key order of {text}");
            }
            (Err(_), Err(_)) => {}
            (a, b) => panic!("{text}: {a:?} vs {b:?}"),
        }
    }

    #[test]
    fn same_values_as_serde_json() {
        for t in [
            r#"{"b":1,"a":[1,2.5,-3,1e400,"x\u0000y",null,true,{}],"c":{"z":{},"y":[]}}"#,
            r#"{"k":1,"k":2,"j":3}"#,
            r#"[18446744073709551615,-9223372036854775808,0.1,1.7976931348623157e308]"#,
            r#"{"__proto__":{"x":1},"0":1,"10":2,"1":3}"#,
            "  \"s\"  ",
            "{} x",
            "[1,]",
            "",
            "{\"a\":",
        ] {
            same(t);
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse_value(&deep).is_err());
        let text = crate::generator::generate_json(500, 7, "{}").unwrap_or_default();
        same(&text);
    }

    /// `parse_wire_val` against `from_wire_json` over `parse_value`: the same value, keys in the
    /// same order, and an error where it has one.
    fn same_val(text: &str) {
        use crate::contract::val::{equal_in_order, Val};
        let old = parse_value(text).map(|v| Val::from_wire_json(&v));
        match (old, super::parse_wire_val(text)) {
            (Ok(a), Ok(b)) => assert!(equal_in_order(&a, &b), "{text}: {a:?} vs {b:?}"),
            (Err(_), Err(_)) => {}
            (a, b) => panic!("{text}: {a:?} vs {b:?}"),
        }
    }

    #[test]
    fn wire_vals_as_from_wire_json() {
        let many = |n: usize, dup: bool| {
            let mut members: Vec<String> = (0..n).map(|i| format!("\"k{}\":{i}", n - i)).collect();
            if dup {
                members.push("\"k3\":\"again\"".into());
                members.push("\"7\":1,\"2\":[],\"07\":0".into());
            }
            format!("{{{}}}", members.join(","))
        };
        for t in [
            r#"{"b":1,"a":[1,2.5,-3,"x\u0000y",null,true,{}],"c":{"z":{},"y":[]}}"#,
            r#"[1e400]"#,
            r#"{"k":1,"k":2,"j":3}"#,
            r#"{"k":{"a":1},"x":0,"k":[2]}"#,
            r#"[18446744073709551615,-9223372036854775808,0.1,-0,1.7976931348623157e308]"#,
            r#"{"__proto__":{"x":1},"0":1,"10":2,"1":3,"4294967295":4,"4294967294":5,"01":6,"":7}"#,
            r#"["\u0000u","\u0000e12","\u0000e","\u0000ex","\u0000\u0000u","\u0000x","",{"\u0000u":"\u0000e0"}]"#,
            r#"{"s":"\ud83d\ude00 \" \\ \n","t":"é"}"#,
            "  \"s\"  ",
            "{} x",
            "[1,]",
            "",
            "{\"a\":",
            "{\"a\" 1}",
            &many(5, true),
            &many(16, true),
            &many(17, false),
            &many(40, true),
        ] {
            same_val(t);
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(super::parse_wire_val(&deep).is_err());
        let zero = super::parse_wire_val("-0").ok().and_then(|v| v.as_f64());
        assert!(zero.is_some_and(|z| z == 0.0 && z.is_sign_negative()));
        let text = crate::generator::generate_json(300, 11, "{}").expect("generated events");
        same_val(&text);
    }

    #[test]
    fn array_elements_as_serde_json_raw_values() {
        let deep = format!("[{}{}]", "[".repeat(140), "]".repeat(140));
        let deeper = format!("[1,{}{}]", "[".repeat(200), "]".repeat(200));
        let texts = [
            "[]",
            " [ ] ",
            "[1]",
            "[1,2.5e3,-0,\"x\",null,true,{\"a\":[1,{}]},[]]",
            " [ {\"a\" : 1} ,\n\t{\"b\":[ ]} ] \r\n",
            "[1,]",
            "[,1]",
            "[1 2]",
            "[1",
            "[",
            "",
            " ",
            "{}",
            "{\"a\":1}",
            "{",
            "1",
            "1x",
            "-",
            "\"s\"",
            "\"s",
            "null",
            "nul",
            "true",
            "x",
            "[1] x",
            "[1]]",
            "[01]",
            "[1e400]",
            "[\"\\u12\"]",
            &deep,
            &deeper,
        ];
        for t in texts {
            let theirs: Result<Vec<&serde_json::value::RawValue>, _> = serde_json::from_str(t);
            let ours = super::array_element_texts(t);
            match (theirs, ours) {
                (Ok(a), Ok(b)) => {
                    let a: Vec<&str> = a.iter().map(|r| r.get()).collect();
                    assert_eq!(a, b, "{t}");
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a.is_data(), b.is_data(), "{t}: {a} vs {b}");
                    if !a.is_data() {
                        assert_eq!(a.to_string(), b.to_string(), "{t}");
                    }
                }
                (a, b) => panic!("{t}: {a:?} vs {b:?}"),
            }
        }
    }

    #[test]
    fn stream_values_as_serde_json() {
        for t in [
            "{\"a\":1} x",
            "1 2",
            "[1,{\"k\":1,\"k\":2}]  ",
            "tru",
            "",
            "  ",
            "1x",
            "{}{}",
        ] {
            let mut a = serde_json::Deserializer::from_str(t).into_iter::<Value>();
            let mut b = serde_json::Deserializer::from_str(t).into_iter::<super::Parsed>();
            let (x, y) = (a.next(), b.next());
            match (x, y) {
                (Some(Ok(x)), Some(Ok(y))) => assert_eq!(x.to_string(), y.0.to_string(), "{t}"),
                (Some(Err(x)), Some(Err(y))) => assert_eq!(x.to_string(), y.to_string(), "{t}"),
                (None, None) => {}
                (x, y) => panic!("{t}: {x:?} vs {:?}", y.map(|r| r.map(|p| p.0))),
            }
            assert_eq!(a.byte_offset(), b.byte_offset(), "{t}");
        }
    }
}

/// The byte offset of a 1-based `line` and `column` (as serde_json reports an error position)
/// in `text`.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    start + column.saturating_sub(1)
}

/// The index of the element of the JSON array `text` that byte `pos` falls in: a linear scan of
/// the text before `pos` (strings skipped, nesting counted), without parsing it. `None` when
/// `text` does not start as an array or `pos` is past its end.
pub fn array_element_at(text: &str, pos: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = b
        .iter()
        .position(|c| !matches!(c, b' ' | b'\n' | b'\t' | b'\r'))?;
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i += 1;
    let (mut depth, mut index, mut in_string) = (1usize, 0usize, false);
    while i < pos.min(b.len()) {
        let c = b.get(i).copied().unwrap_or(b' ');
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'[' | b'{' => depth += 1,
                b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return None;
                    }
                }
                b',' if depth == 1 => index += 1,
                _ => {}
            }
        }
        i += 1;
    }
    (pos <= b.len()).then_some(index)
}

#[cfg(test)]
mod element_tests {
    use super::{array_element_at, offset_of};

    #[test]
    fn finds_the_element_of_a_position() {
        let text = r#" [ {"a":"x,]}"} , [1,[2]] ,3]"#;
        let at = |needle: &str| text.find(needle).and_then(|p| array_element_at(text, p));
        assert_eq!(at("\"a\""), Some(0));
        assert_eq!(at("x,]"), Some(0));
        assert_eq!(at("[2]"), Some(1));
        assert_eq!(at("3]"), Some(2));
        assert_eq!(array_element_at("{\"a\":1}", 3), None);
        assert_eq!(array_element_at("[1]", 9), None);
        assert_eq!(offset_of("ab\ncd", 2, 2), 4);
        assert_eq!(offset_of("abc", 1, 3), 2);
    }
}

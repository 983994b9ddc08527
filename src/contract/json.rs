//! JSON text to `serde_json::Value`, faster than `serde_json::from_str` for event-shaped data.
//!
//! With key order preserved, `serde_json` builds each object by inserting into an empty
//! `IndexMap`, which grows (and rehashes) 4 -> 8 -> 16 on a typical event. Here each object's
//! members are collected first and the map is built at its final size. The result is the same
//! value (duplicate keys keep their first position and their last value, like `JSON.parse`);
//! nesting is still limited by serde_json's recursion limit (128 levels).

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parse one JSON text (trailing non-whitespace is an error, as with `serde_json::from_str`).
pub fn parse_value(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = ValueSeed.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// The double a JSON number literal denotes (correctly rounded; `-0` stays negative zero).
/// `None` when `text` is not exactly one JSON number, or its magnitude is beyond the largest
/// double. The one decimal-to-double conversion of the crate: serde_json's, which
/// [`parse_value`] uses for numbers anyway.
pub fn parse_json_number(text: &str) -> Option<f64> {
    text.parse::<Number>().ok()?.as_f64()
}

struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueSeed)
    }
}

impl<'de> Visitor<'de> for ValueSeed {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(x) = seq.next_element_seed(ValueSeed)? {
            items.push(x);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members: Vec<(String, Value)> = Vec::with_capacity(8);
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(ValueSeed)?;
            members.push((k, v));
        }
        let mut out = Map::with_capacity(members.len());
        for (k, v) in members {
            out.insert(k, v);
        }
        Ok(Value::Object(out))
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
}

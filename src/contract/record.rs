//! The compact typed form an event object is parsed into on the projection's hot paths (a batch
//! of JSON text, a live projector's `apply`): the event model's fields in slots by position
//! ([`EVENT_FIELDS`]), the members of other names in a map of their own. A known field costs
//! neither a copy of its name nor a hashed insert, and its slot is where [`Ev`] reads it.
//!
//! A field holding a string keeps it borrowed from the text when it has no escape (no copy until
//! a view makes an output value of it); other values are parsed as [`super::json::parse_value`]
//! parses them, with `JSON.parse`'s rule for a name given twice (the last value; an unknown
//! name keeps its first position). Only objects are records: any other JSON value is refused,
//! and callers read such text the usual way for the error it gives.

use serde::de::{Deserialize, DeserializeSeed, Deserializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

use super::event::{deeper_than, field_slot, Ev, EvIndex, Field, EVENT_FIELDS, MAX_EVENT_DEPTH};
use super::json::{ListItem, TextValue, ValueSeed};

/// A record's field as [`Ev`] reads it.
fn field<'s>(slot: &'s TextValue<'_>) -> Field<'s> {
    match slot {
        TextValue::Str(s) => Field::Str(s),
        TextValue::Json(v) => Field::Json(v),
    }
}

/// One event object in typed slots, its strings borrowed from the text `'t` where they can be.
pub struct EventRecord<'t> {
    /// The fields of [`EVENT_FIELDS`] the object has, each with its position there, in text
    /// order (a name given twice: once, at its first place, with its last value, as
    /// `JSON.parse` reads it); a string borrowed from the text when it has no escape.
    pub fields: Vec<(usize, TextValue<'t>)>,
    /// The members whose names are not fields of the event model, in text order.
    pub extra: Map<String, Value>,
}

impl Default for EventRecord<'_> {
    fn default() -> Self {
        EventRecord {
            fields: Vec::with_capacity(16),
            extra: Map::new(),
        }
    }
}

impl<'t> EventRecord<'t> {
    /// Parse the JSON text of one event object (trailing non-whitespace is an error, as with
    /// [`super::json::parse_value`]). `None`: not JSON, or not an object.
    pub fn parse(text: &'t str) -> Option<EventRecord<'t>> {
        match super::reader::whole_record(text) {
            Some(record) => Some(record),
            None => match super::json::parse_value(text).ok()? {
                Value::Object(map) => Some(EventRecord::of_object(map)),
                _ => None,
            },
        }
    }

    /// Add field `slot` (`seen`: the slots added so far, a bit each). A name given twice is read
    /// once, at its first place, with its last value, as `JSON.parse` reads it.
    pub fn set_field(&mut self, seen: &mut u64, slot: usize, value: TextValue<'t>) {
        let bit = 1u64 << slot;
        if *seen & bit == 0 {
            *seen |= bit;
            self.fields.push((slot, value));
        } else if let Some(field) = self.fields.iter_mut().find(|f| f.0 == slot) {
            field.1 = value;
        }
    }

    /// The record of a parsed event object (what the event reader leaves to serde_json): its
    /// strings owned, a name given twice read once (at its first place, with its last value,
    /// which is the one a record reads).
    pub fn of_object(map: Map<String, Value>) -> EventRecord<'t> {
        let mut record = EventRecord::default();
        let mut seen = 0;
        for (name, value) in map {
            match field_slot(&name) {
                Some(slot) => record.set_field(
                    &mut seen,
                    slot,
                    match value {
                        Value::String(s) => TextValue::Str(Cow::Owned(s)),
                        v => TextValue::Json(v),
                    },
                ),
                None => {
                    record.extra.insert(name, value);
                }
            }
        }
        record
    }

    /// [`Self::parse`] of an event the projection can carry (`check_carryable`: nesting at
    /// most [`MAX_EVENT_DEPTH`] levels).
    #[inline(never)]
    pub fn carryable(text: &'t str) -> Option<EventRecord<'t>> {
        EventRecord::parse(text).filter(|r| !r.too_deep())
    }

    /// Its fields located, as [`Ev::indexed`] reads them.
    pub fn index(&self) -> EvIndex<'_> {
        let mut located = [None; EVENT_FIELDS.len()];
        for (slot, value) in &self.fields {
            if let Some(at) = located.get_mut(*slot) {
                *at = Some(field(value));
            }
        }
        EvIndex::from_fields(located)
    }

    /// The record read as an event through `index` (made by [`Self::index`]).
    pub fn ev<'a>(&'a self, index: &'a EvIndex<'a>) -> Ev<'a> {
        Ev::indexed(&self.extra, index)
    }

    /// Whether the event nests deeper than [`MAX_EVENT_DEPTH`] levels (the record itself is one).
    pub fn too_deep(&self) -> bool {
        self.fields
            .iter()
            .filter_map(|(_, v)| field(v).json())
            .chain(self.extra.values())
            .any(|v| deeper_than(v, MAX_EVENT_DEPTH - 1))
    }

    /// The `id` field when it is a string.
    pub fn id(&self) -> Option<&str> {
        let (_, id) = self
            .fields
            .iter()
            .rev()
            .find(|(slot, _)| Some(*slot) == field_slot("id"))?;
        field(id).as_str()
    }
}

impl<'de> Deserialize<'de> for EventRecord<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<EventRecord<'de>, D::Error> {
        // Read as a list's slot is read ([`MaybeRecord`]: one reader for both), `null` refused.
        MaybeRecord::deserialize(d)?
            .0
            .ok_or_else(|| serde::de::Error::custom(NOT_AN_OBJECT))
    }
}

const NOT_AN_OBJECT: &str = "not an object";

/// An event record, or `null` (`None`): a list's slot for an event its reader leaves out.
/// Anything else does not read.
pub struct MaybeRecord<'t>(pub Option<EventRecord<'t>>);

/// Through serde_json: what the event reader leaves to it ([`ListItem::read_fast`] reads the
/// rest), parsed as a value, then read as a record.
impl<'de> Deserialize<'de> for MaybeRecord<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MaybeRecord<'de>, D::Error> {
        match ValueSeed.deserialize(d)? {
            Value::Null => Ok(MaybeRecord(None)),
            Value::Object(map) => Ok(MaybeRecord(Some(EventRecord::of_object(map)))),
            _ => Err(serde::de::Error::custom(NOT_AN_OBJECT)),
        }
    }
}

impl<'t> ListItem<'t> for MaybeRecord<'t> {
    fn read_fast(text: &'t str) -> Option<(MaybeRecord<'t>, usize)> {
        super::reader::record_or_null(text).map(|(r, end)| (MaybeRecord(r), end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::json::parse_value;

    /// Every field reads as it reads from the parsed object, for known and unknown names,
    /// names given twice, escaped names and values, and nested values.
    #[test]
    fn reads_as_the_parsed_object() {
        let texts = [
            r#"{"id":"a","eventClass":"tool.started","payload":{"x":[1,{"y":null}]},"zeta":1}"#,
            r#"{"id":"a","id":"b","title":"t","title":null,"other":1,"other":2,"kind":"tool"}"#,
            r#"{"i\u0064":"esc","t\"q":"\u00e9\n","sequence":3.5,"artifactRefs":["x","y"]}"#,
            r#"{}"#,
            r#" { "status" : "running" } "#,
        ];
        for text in texts {
            let Some(record) = EventRecord::parse(text) else {
                panic!("{text}");
            };
            let value = parse_value(text).unwrap_or(Value::Null);
            let index = record.index();
            let ev = record.ev(&index);
            let map = value.as_object().cloned().unwrap_or_default();
            for (name, v) in &map {
                let read = ev.get(name).map(|f| f.to_value().into_owned());
                assert_eq!(read.as_ref(), Some(v), "{text}: {name}");
            }
            for name in EVENT_FIELDS {
                let read = ev.get(name).map(|f| f.to_value().into_owned());
                assert_eq!(read.as_ref(), map.get(name), "{text}: {name}");
                // A string field is read as a string, borrowed from the text when it has no
                // escape.
                if let Some(Value::String(s)) = map.get(name) {
                    let Some(Field::Str(read)) = ev.get(name) else {
                        panic!("{text}: {name} is not read as a string");
                    };
                    let inside = text.as_bytes().as_ptr_range().contains(&read.as_ptr());
                    let verbatim = text.contains(&format!("\"{s}\""));
                    assert_eq!(inside, verbatim, "{text}: {name}");
                }
            }
            let extra: Vec<&String> = record.extra.keys().collect();
            let unknown: Vec<&String> = map.keys().filter(|k| field_slot(k).is_none()).collect();
            assert_eq!(extra, unknown, "{text}");
            assert_eq!(record.id(), map.get("id").and_then(Value::as_str), "{text}");
        }
    }

    /// A list of records and nulls reads as the parsed list: an object as its record, `null`
    /// as none; any other item stops it.
    #[test]
    fn maybe_records() {
        let text = r#"[null, {"id":"a","zeta":[1]}, null]"#;
        let mut read = Vec::new();
        let whole = crate::contract::json::for_each_array_element(text, |MaybeRecord(r), _| {
            read.push(r.map(|r| (r.id().map(str::to_string), r.extra.len())));
            true
        });
        assert!(whole);
        assert_eq!(read, vec![None, Some((Some("a".to_string()), 1)), None]);
        for odd in ["[1]", "[[]]", "[\"x\"]", "[true]", "[null, 2.5]"] {
            let all = crate::contract::json::for_each_array_element(odd, |MaybeRecord(_), _| true);
            assert!(!all, "{odd}");
        }
    }

    /// A field given twice is its last value (the earlier one is gone, as in `JSON.parse`),
    /// whether the event reader reads the event or serde_json does (a surrogate pair escape).
    #[test]
    fn a_field_given_twice_is_its_last_value() {
        let deep = "[".repeat(70) + &"]".repeat(70);
        for tail in ["", r#","title":"\ud83d\ude00""#] {
            let text = format!(r#"{{"id":"a","payload":{deep},"payload":1{tail}}}"#);
            let Some(record) = EventRecord::carryable(&text) else {
                panic!("carryable: {text}");
            };
            let index = record.index();
            let read = record
                .ev(&index)
                .get("payload")
                .map(|f| f.to_value().into_owned());
            assert_eq!(read, Some(Value::from(1)), "{text}");
        }
        // And a list item after which no delimiter follows is not handed over.
        let mut seen = 0;
        let read = crate::contract::json::for_each_array_element("[nullx]", |MaybeRecord(_), _| {
            seen += 1;
            true
        });
        assert!(!read);
        assert_eq!(seen, 0);
    }

    #[test]
    fn refuses_what_is_not_one_object() {
        for text in [
            "[]", "1", "\"x\"", "null", "true", "{", "{} {}", "{\"a\":}", "",
        ] {
            assert!(EventRecord::parse(text).is_none(), "{text}");
        }
    }

    /// The depth limit counts the record as one level.
    #[test]
    fn depth_as_the_parsed_object() {
        for depth in [1usize, 2, 63, 64, 65, 66] {
            // An object `depth` levels deep: the event, then objects under "payload".
            let mut text = String::from("{\"id\":\"e\",\"payload\":");
            for _ in 2..depth {
                text.push_str("{\"a\":");
            }
            text.push_str(if depth >= 2 { "{}" } else { "1" });
            for _ in 2..depth {
                text.push('}');
            }
            text.push('}');
            let value = parse_value(&text).unwrap_or(Value::Null);
            let record = EventRecord::parse(&text);
            let expected = super::super::event::check_carryable(&value).is_err();
            assert_eq!(
                record.map(|r| r.too_deep()),
                Some(expected),
                "depth {depth}"
            );
        }
    }
}

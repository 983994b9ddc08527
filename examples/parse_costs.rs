//! What parsing one event costs natively in four forms, to size the typed event form: the
//! `serde_json::Value` the crate reads events into (`contract::json::parse_value`), the same tree
//! as the crate's own `Val` (`contract::json::parse_wire_val`: its own maps, a shared string per
//! string), the live projector's record (`contract::record::EventRecord`: the top level in typed
//! slots, each field of the event model by its position, no map and no copy of its name; values
//! and the members of other names still `serde_json::Value`), and a tree that borrows every
//! unescaped string and key from the event's text (no map, no string copy). Each event of a generated stream is parsed alone and dropped, as the live
//! projector does; the best of the runs, per event.
//!
//! Run: `cargo run --release --example parse_costs -- [n] [runs]` (default 20000 5).

use agent_runtime_projection::contract::json::{array_element_texts, parse_value, parse_wire_val};
use agent_runtime_projection::contract::record::EventRecord;
use agent_runtime_projection::generator::generate_json;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::time::Instant;

/// A JSON value whose strings and keys borrow from the text where it has no escape.
#[allow(dead_code)]
enum Borrowed<'a> {
    Null,
    Bool(bool),
    Num(f64),
    Str(Cow<'a, str>),
    Arr(Vec<Borrowed<'a>>),
    Obj(Vec<(Cow<'a, str>, Borrowed<'a>)>),
}

/// A member name, borrowed from the text when it has no escape.
struct NameSeed;

impl<'de> DeserializeSeed<'de> for NameSeed {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(NameSeed)
    }
}

impl<'de> Visitor<'de> for NameSeed {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a member name")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_owned()))
    }
}

struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Borrowed<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Borrowed<'de>, D::Error> {
        d.deserialize_any(ValueSeed)
    }
}

impl<'de> Visitor<'de> for ValueSeed {
    type Value = Borrowed<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Borrowed<'de>, E> {
        Ok(Borrowed::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Borrowed<'de>, E> {
        Ok(Borrowed::Num(n as f64))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Borrowed<'de>, E> {
        Ok(Borrowed::Num(n as f64))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Borrowed<'de>, E> {
        Ok(Borrowed::Num(n))
    }
    fn visit_unit<E>(self) -> Result<Borrowed<'de>, E> {
        Ok(Borrowed::Null)
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Borrowed<'de>, E> {
        Ok(Borrowed::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Borrowed<'de>, E> {
        Ok(Borrowed::Str(Cow::Owned(s.to_owned())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Borrowed<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(x) = seq.next_element_seed(ValueSeed)? {
            items.push(x);
        }
        Ok(Borrowed::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Borrowed<'de>, A::Error> {
        let mut members = Vec::with_capacity(8);
        while let Some(k) = map.next_key_seed(NameSeed)? {
            members.push((k, map.next_value_seed(ValueSeed)?));
        }
        Ok(Borrowed::Obj(members))
    }
}

fn parse_borrowed(text: &str) -> Result<Borrowed<'_>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = ValueSeed.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// The best of `runs` passes of `parse` (which parses and drops one event, true when it
/// parsed) over every event, in µs per event; `None` if one fails.
fn per_event(items: &[&str], runs: usize, parse: impl Fn(&str) -> bool) -> Option<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = Instant::now();
        for text in items {
            if !parse(std::hint::black_box(text)) {
                return None;
            }
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / items.len().max(1) as f64);
    }
    Some(best)
}

fn main() {
    let arg = |i: usize, d: usize| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let (n, runs) = (arg(1, 20_000), arg(2, 5));
    let Ok(text) = generate_json(n, 42, "{}") else {
        eprintln!("the generator refused its options");
        return;
    };
    let Ok(items) = array_element_texts(&text) else {
        eprintln!("the generated stream is not a JSON array");
        return;
    };
    println!(
        "{n} generated events ({} bytes), best of {runs} runs",
        text.len()
    );
    let rows: [(&str, Option<f64>); 4] = [
        (
            "serde_json::Value (parse_value)",
            per_event(&items, runs, |t| {
                std::hint::black_box(parse_value(t)).is_ok()
            }),
        ),
        (
            "Val (parse_wire_val)",
            per_event(&items, runs, |t| {
                std::hint::black_box(parse_wire_val(t)).is_ok()
            }),
        ),
        (
            "top level in typed slots",
            per_event(&items, runs, |t| {
                std::hint::black_box(EventRecord::parse(t)).is_some()
            }),
        ),
        (
            "borrowed strings and keys",
            per_event(&items, runs, |t| {
                std::hint::black_box(parse_borrowed(t)).is_ok()
            }),
        ),
    ];
    for (name, us) in rows {
        match us {
            Some(us) => println!("{name:<34} {us:.2} µs/event"),
            None => println!("{name:<34} failed to parse"),
        }
    }
}

//! Built execution events: values made here or read from the facts as they are, borrowed from
//! the parsed facts until written. Written to a tape (the caller's objects as references, see
//! [`super::embed`]) or as plain JSON (what the projection reads).

use std::rc::Rc;

use serde_json::{Map, Number, Value};

use crate::contract::tape::{TapeTooLong, Writer};
use crate::contract::val::Val;

use super::embed::Embedded;
use super::Js;

/// A value of a built event.
#[derive(Clone, Debug)]
pub enum Out<'a> {
    /// `undefined`: a member holding it is left out.
    Absent,
    Lit(&'static str),
    /// A string read from the facts (whole or trimmed).
    Text(&'a str),
    Owned(String),
    Shared(Rc<str>),
    Num(f64),
    /// A fact's value as it is: the caller's own object or array, or a primitive.
    Fact(&'a Value),
    List(Vec<Out<'a>>),
    /// An object's members in order (none of them `Absent`).
    Members(Vec<(&'a str, Out<'a>)>),
    /// A value built by shared projection code.
    Val(Val),
}

impl<'a> Out<'a> {
    /// A string, or `Absent`.
    pub fn text(s: Option<&'a str>) -> Out<'a> {
        s.map_or(Out::Absent, Out::Text)
    }

    /// A fact as it is, or `Absent` for `undefined`.
    pub fn fact(v: Js<'a>) -> Out<'a> {
        v.map_or(Out::Absent, Out::Fact)
    }

    /// A list of strings.
    pub fn texts(items: &[&'a str]) -> Out<'a> {
        Out::List(items.iter().map(|s| Out::Text(s)).collect())
    }

    pub fn is_absent(&self) -> bool {
        matches!(self, Out::Absent)
    }

    /// Number the caller's objects and arrays this value holds in `embedded`, in the order
    /// [`Out::write_tape`] writes them.
    pub fn embed(&self, embedded: &mut Embedded<'a>) {
        match self {
            Out::Fact(v @ (Value::Object(_) | Value::Array(_))) => {
                embedded.index(v);
            }
            Out::List(items) => items.iter().for_each(|x| x.embed(embedded)),
            Out::Members(members) => members.iter().for_each(|(_, x)| x.embed(embedded)),
            _ => {}
        }
    }

    /// Write this value to a tape (`contract::tape`); the caller's objects and arrays it holds
    /// are `Val::Event` references to `embedded` (see [`super::embed`]).
    pub fn write_tape(
        &self,
        w: &mut Writer<'_, '_>,
        embedded: &mut Embedded<'a>,
    ) -> Result<(), TapeTooLong> {
        match self {
            Out::Absent => w.value(&Val::Null),
            Out::Lit(s) => w.string(s),
            Out::Text(s) => w.string(s),
            Out::Owned(s) => w.string(s),
            Out::Shared(s) => w.string(s),
            Out::Num(x) => w.number(*x),
            Out::Fact(v) => match v {
                Value::Object(_) | Value::Array(_) => w.value(&Val::Event(embedded.index(v))),
                Value::String(s) => w.string(s),
                Value::Number(n) => w.number(n.as_f64().unwrap_or(f64::NAN)),
                Value::Bool(b) => w.value(&Val::Bool(*b)),
                Value::Null => w.value(&Val::Null),
            },
            Out::List(items) => {
                w.array(items.len())?;
                items.iter().try_for_each(|x| x.write_tape(w, embedded))
            }
            Out::Members(members) => {
                w.object(members.len())?;
                for (k, x) in members {
                    w.name(k)?;
                    x.write_tape(w, embedded)?;
                }
                Ok(())
            }
            Out::Val(v) => w.value(v),
        }
    }

    /// This value as plain JSON, the caller's values copied in.
    pub fn to_json(&self) -> Value {
        match self {
            Out::Absent => Value::Null,
            Out::Lit(s) => Value::String((*s).to_owned()),
            Out::Text(s) => Value::String((*s).to_owned()),
            Out::Owned(s) => Value::String(s.clone()),
            Out::Shared(s) => Value::String(s.to_string()),
            Out::Num(x) => number(*x),
            Out::Fact(v) => (*v).clone(),
            Out::List(items) => Value::Array(items.iter().map(Out::to_json).collect()),
            Out::Members(members) => {
                let mut m = Map::with_capacity(members.len());
                for (k, x) in members {
                    m.insert((*k).to_owned(), x.to_json());
                }
                Value::Object(m)
            }
            Out::Val(v) => val_json(v),
        }
    }
}

/// An object of `members` in order, those `Absent` left out (the reference's
/// `compactProjectionFields` over an object literal).
pub fn object<'a>(mut members: Vec<(&'a str, Out<'a>)>) -> Out<'a> {
    members.retain(|(_, v)| !v.is_absent());
    Out::Members(members)
}

/// JS `o[key] = value` on members: an existing key keeps its place, a new one goes last.
pub fn set<'a>(members: &mut Vec<(&'a str, Out<'a>)>, key: &'a str, value: Out<'a>) {
    match members.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = value,
        None => members.push((key, value)),
    }
}

/// A JSON number for a double (integers stay integers).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        Value::Number(Number::from(x as i64))
    } else {
        Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// A built `Val` (no `Event` in it) as plain JSON, `Undef` members left out. The recursion
/// follows the value's nesting, which copies of parsed input bound.
fn val_json(v: &Val) -> Value {
    match v {
        Val::Undef | Val::Null | Val::Event(_) | Val::Made(_) => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Num(x) => number(*x),
        Val::Str(s) => Value::String(s.to_string()),
        Val::Arr(items) => Value::Array(items.iter().map(val_json).collect()),
        Val::Obj(o) => Value::Object(
            o.iter()
                .filter(|(_, x)| !x.is_undef())
                .map(|(k, x)| (k.to_owned(), val_json(x)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_and_json_forms() {
        let fact = json!({"meta": {"a": 1}, "n": 1.5, "s": "\u{0}x"});
        let o = object(vec![
            ("id", Out::Lit("x")),
            ("gone", Out::Absent),
            ("meta", Out::fact(fact.get("meta"))),
            ("n", Out::fact(fact.get("n"))),
            ("s", Out::fact(fact.get("s"))),
            ("list", Out::texts(&["a", "b"])),
            ("count", Out::Num(3.0)),
        ]);
        let mut emb = Embedded::default();
        let mut tape = crate::contract::tape::Tape::default();
        let written = tape.append_by(&|_| None, |w| o.write_tape(w, &mut emb));
        assert_eq!(written, Ok(()));
        let wire = tape.read(&|_, _| Val::Undef).map(|v| v.to_json());
        assert_eq!(
            wire.as_deref().unwrap_or_default(),
            r#"{"id":"x","meta":"\u0000e0","n":1.5,"s":"\u0000\u0000x","list":["a","b"],"count":3}"#
        );
        assert_eq!(
            o.to_json(),
            json!({"id": "x", "meta": {"a": 1}, "n": 1.5, "s": "\u{0}x", "list": ["a", "b"], "count": 3})
        );
    }

    #[test]
    fn set_keeps_the_place_of_a_known_key() {
        let mut m = vec![("a", Out::Lit("1")), ("b", Out::Lit("2"))];
        set(&mut m, "a", Out::Absent);
        set(&mut m, "c", Out::Lit("3"));
        let keys: Vec<&str> = m.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, vec!["a", "b", "c"]);
        assert!(m[0].1.is_absent());
    }
}

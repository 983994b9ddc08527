//! The event reader: JSON text read straight into event records ([`EventRecord`]) and values
//! (`serde_json::Value`) in one pass of its own, without serde's visitor layers (which cost
//! more than the scanning itself on event-sized text); and the lexing it shares with the
//! validators' raw-text pass (`validation::text`).
//!
//! It reads what it reads exactly as [`super::json`] reads it through serde_json (the same
//! values, members in the same order, a name given twice as `JSON.parse` takes it, a string
//! field borrowed from the text when it has no escape), and gives up (`None`) at anything
//! else: text that is not JSON, a `\u` escape of a lone surrogate, nesting deeper than
//! [`MAX_DEPTH`]. A number other than a plain integer is read by serde_json's own number
//! reader. The callers then read the text with serde_json, so values and errors never depend
//! on this reader, only the time they take.

use serde_json::{Number, Value};
use std::borrow::Cow;

use super::event::field_slot;
use super::json::TextValue;
use super::record::EventRecord;
use super::val::{wire_string, Key, Obj, Val};

// A record notes the fields it has read in a `u64`, a bit per slot.
const _: () = assert!(crate::contract::event::EVENT_FIELDS.len() <= 64);

/// Deepest container nesting the reader follows (the event object is one level); serde_json
/// stops at 128 levels, and deeper text is left to it.
pub const MAX_DEPTH: u32 = 100;

/// The index after the JSON white space starting at `i`.
#[inline(always)]
pub fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(c) = b.get(i) {
        if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// A 1 in each byte of a word (`ONES * b`: byte `b` in each byte).
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of each byte of a word.
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

/// A mask with the high bit set in each of the 8 bytes of `w` that is `"`, `\`, a control
/// character or non-ASCII, at least for the lowest such byte (higher bytes may be flagged
/// spuriously by borrows, never lower ones), so `trailing_zeros / 8` is the first one.
#[inline(always)]
pub fn attention_mask(w: u64) -> u64 {
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    let zero_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_quote | zero_backslash | control | w) & HIGH
}

/// Past the plain ASCII of a string literal from `i`, 8 bytes at a time: the index of the first
/// byte a string reader must look at (by [`attention_mask`]), or of the first of the last
/// fewer than 8 bytes.
#[inline(always)]
pub fn plain_end(b: &[u8], mut i: usize) -> usize {
    while let Some(Ok(word)) = b.get(i..i + 8).map(<[u8; 8]>::try_from) {
        let mask = attention_mask(u64::from_le_bytes(word));
        if mask != 0 {
            return i + (mask.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// The index after the ASCII digits starting at `i`.
#[inline(always)]
fn digits_end(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// `digits_end`, requiring at least one digit (a JSON fraction or exponent).
#[inline(always)]
fn some_digits_end(b: &[u8], i: usize) -> Option<usize> {
    let end = digits_end(b, i);
    (end > i).then_some(end)
}

/// A number literal as JSON's grammar delimits it.
pub struct NumberText {
    /// The index after it.
    pub end: usize,
    /// Its integer part's digits.
    pub digits: usize,
    /// Whether it has a minus sign.
    pub negative: bool,
    /// Whether its integer part is `0`.
    pub zero: bool,
    /// Neither a fraction nor an exponent.
    pub plain: bool,
}

/// The number literal starting at `start` (`None`: none there, by JSON's grammar).
#[inline(always)]
pub fn number_text(b: &[u8], start: usize) -> Option<NumberText> {
    let mut i = start;
    let negative = b.get(i) == Some(&b'-');
    if negative {
        i += 1;
    }
    let digits_from = i;
    let zero = match b.get(i)? {
        b'0' => {
            i += 1;
            true
        }
        b'1'..=b'9' => {
            i = digits_end(b, i);
            false
        }
        _ => return None,
    };
    let digits = i - digits_from;
    let mut plain = true;
    if b.get(i) == Some(&b'.') {
        i = some_digits_end(b, i + 1)?;
        plain = false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = some_digits_end(b, i)?;
        plain = false;
    }
    Some(NumberText {
        end: i,
        digits,
        negative,
        zero,
        plain,
    })
}

/// The event record that is the whole of `text` (white space around it allowed), as
/// `EventRecord::parse` reads it.
pub fn whole_record(text: &str) -> Option<EventRecord<'_>> {
    let mut r = Reader::at(text, skip_ws(text.as_bytes(), 0));
    let record = r.record()?;
    r.whole(record)
}

/// An event record or `null` (`None`) at byte 0 of `text`, and where it ends: a list's item
/// as `json::MaybeRecord` reads it.
pub fn record_or_null(text: &str) -> Option<(Option<EventRecord<'_>>, usize)> {
    let mut r = Reader::at(text, 0);
    let read = match r.peek()? {
        b'{' => Some(r.record()?),
        b'n' => {
            r.literal(b"null")?;
            None
        }
        _ => return None,
    };
    Some((read, r.i))
}

/// The value at byte 0 of `text`, and where it ends.
pub fn value_prefix(text: &str) -> Option<(Value, usize)> {
    let mut r = Reader::at(text, 0);
    let v = r.value::<Json>(0)?;
    Some((v, r.i))
}

/// The value that is the whole of `text` (white space around it allowed).
pub fn whole_value(text: &str) -> Option<Value> {
    let mut r = Reader::at(text, skip_ws(text.as_bytes(), 0));
    let v = r.value::<Json>(0)?;
    r.whole(v)
}

/// The wire-encoded value that is the whole of `text`, as `json::parse_wire_val` reads it.
pub fn whole_wire_val(text: &str) -> Option<Val> {
    let mut r = Reader::at(text, skip_ws(text.as_bytes(), 0));
    let v = r.value::<Wire>(0)?;
    r.whole(v)
}

/// The moves every JSON cursor of the crate makes alike (this reader's, the validators' raw-text
/// pass): past white space, one byte, a literal.
pub trait Lex {
    /// The text's bytes.
    fn bytes(&self) -> &[u8];
    /// The cursor's place in them.
    fn place(&mut self) -> &mut usize;

    #[inline(always)]
    fn ws(&mut self) {
        let at = *self.place();
        *self.place() = skip_ws(self.bytes(), at);
    }

    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        let at = *self.place();
        self.bytes().get(at).copied()
    }

    #[inline(always)]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| *self.place() += 1)
    }

    #[inline(always)]
    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let at = *self.place();
        (self.bytes().get(at..at + word.len())? == word).then(|| *self.place() += word.len())
    }
}

impl Lex for Reader<'_> {
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        self.b
    }
    #[inline(always)]
    fn place(&mut self) -> &mut usize {
        &mut self.i
    }
}

/// What the reader makes of the values it reads: `serde_json` values ([`Json`]) or wire values
/// ([`Wire`], `Val`s as `json::parse_wire_val` makes them).
trait Build<'t> {
    type Value;
    type Key;
    fn key(name: Cow<'t, str>) -> Self::Key;
    fn string(s: Cow<'t, str>) -> Self::Value;
    fn number(n: Number) -> Self::Value;
    fn bool(b: bool) -> Self::Value;
    fn null() -> Self::Value;
    fn array(items: Vec<Self::Value>) -> Self::Value;
    /// An object of these members in text order (a name may be given twice).
    fn object(members: Vec<(Self::Key, Self::Value)>) -> Self::Value;
}

/// `serde_json` values, as `json::ValueSeed` makes them.
struct Json;

impl<'t> Build<'t> for Json {
    type Value = Value;
    type Key = String;
    fn key(name: Cow<'t, str>) -> String {
        name.into_owned()
    }
    fn string(s: Cow<'t, str>) -> Value {
        Value::String(s.into_owned())
    }
    fn number(n: Number) -> Value {
        Value::Number(n)
    }
    fn bool(b: bool) -> Value {
        Value::Bool(b)
    }
    fn null() -> Value {
        Value::Null
    }
    fn array(items: Vec<Value>) -> Value {
        Value::Array(items)
    }
    fn object(members: Vec<(String, Value)>) -> Value {
        super::json::object_of(members)
    }
}

/// Wire values (`Val`, the wire encoding's strings decoded: `val::wire_string`).
struct Wire;

impl<'t> Build<'t> for Wire {
    type Value = Val;
    type Key = Key;
    fn key(name: Cow<'t, str>) -> Key {
        Key::dynamic(&name)
    }
    fn string(s: Cow<'t, str>) -> Val {
        wire_string(&s)
    }
    fn number(n: Number) -> Val {
        n.as_f64().map_or(Val::Null, Val::Num)
    }
    fn bool(b: bool) -> Val {
        Val::Bool(b)
    }
    fn null() -> Val {
        Val::Null
    }
    fn array(items: Vec<Val>) -> Val {
        Val::input_arr(items)
    }
    fn object(members: Vec<(Key, Val)>) -> Val {
        Obj::from_members(members).into_val()
    }
}

/// A cursor over JSON text: the functions above read records and values with it; readers of
/// their own shapes extend it (a list's items in `projection::tool_surface`; the validators'
/// raw-text pass, `validation::text`, with its own string and number readers).
pub struct Reader<'t> {
    pub(crate) s: &'t str,
    pub(crate) b: &'t [u8],
    pub(crate) i: usize,
}

impl<'t> Reader<'t> {
    /// A cursor at byte `i` of `s`.
    pub fn at(s: &'t str, i: usize) -> Reader<'t> {
        Reader {
            s,
            b: s.as_bytes(),
            i,
        }
    }

    /// The byte the cursor is at.
    pub fn pos(&self) -> usize {
        self.i
    }

    /// `null` at the cursor, passed.
    pub fn null(&mut self) -> Option<()> {
        self.literal(b"null")
    }

    /// An object's `{` at the cursor, passed, with the white space after it: `Some(true)` when
    /// a member follows, `Some(false)` for `{}` (passed whole).
    pub fn open_object(&mut self) -> Option<bool> {
        self.eat(b'{')?;
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(false);
        }
        Some(true)
    }

    /// After a member's value: `Some(true)` when another member follows (the cursor at its
    /// name), `Some(false)` at the object's end (passed).
    pub fn next_member(&mut self) -> Option<bool> {
        self.next_or_close(b'}')
    }

    /// The event record at the cursor (an object).
    pub fn event_record(&mut self) -> Option<EventRecord<'t>> {
        self.record()
    }

    /// The value at the cursor.
    pub fn json_value(&mut self) -> Option<Value> {
        self.value::<Json>(0)
    }

    /// `read`, when only white space follows it.
    fn whole<T>(&mut self, read: T) -> Option<T> {
        self.ws();
        (self.i == self.b.len()).then_some(read)
    }

    /// After a member or an item: white space, then a comma (`Some(true)`, and the white
    /// space after it) or `close` (`Some(false)`, passed).
    #[inline(always)]
    fn next_or_close(&mut self, close: u8) -> Option<bool> {
        self.ws();
        let c = self.peek()?;
        self.i += 1;
        if c == b',' {
            self.ws();
            Some(true)
        } else {
            (c == close).then_some(false)
        }
    }

    /// The object at the cursor as an event record.
    fn record(&mut self) -> Option<EventRecord<'t>> {
        let mut record = EventRecord::default();
        let mut seen = 0;
        let mut more = self.open_object()?;
        while more {
            let name = self.name()?;
            match field_slot(&name) {
                Some(slot) => {
                    let value = match self.peek()? {
                        b'"' => TextValue::Str(self.string()?),
                        _ => TextValue::Json(self.value::<Json>(1)?),
                    };
                    record.set_field(&mut seen, slot, value);
                }
                None => {
                    let value = self.value::<Json>(1)?;
                    record.extra.insert(name.into_owned(), value);
                }
            }
            more = self.next_member()?;
        }
        Some(record)
    }

    /// A member's name and its `:` (and the white space after them).
    #[inline(always)]
    pub fn name(&mut self) -> Option<Cow<'t, str>> {
        if self.peek()? != b'"' {
            return None;
        }
        let name = self.string()?;
        self.ws();
        self.eat(b':')?;
        self.ws();
        Some(name)
    }

    /// The value at the cursor, `depth` containers deep.
    fn value<B: Build<'t>>(&mut self, depth: u32) -> Option<B::Value> {
        Some(match self.peek()? {
            b'"' => B::string(self.string()?),
            b'{' => self.object::<B>(depth)?,
            b'[' => self.array::<B>(depth)?,
            b't' => {
                self.literal(b"true")?;
                B::bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                B::bool(false)
            }
            b'n' => {
                self.literal(b"null")?;
                B::null()
            }
            _ => B::number(self.number()?),
        })
    }

    #[inline(never)]
    fn array<B: Build<'t>>(&mut self, depth: u32) -> Option<B::Value> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.i += 1;
        self.ws();
        let mut items = Vec::new();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(B::array(items));
        }
        loop {
            items.push(self.value::<B>(depth + 1)?);
            if !self.next_or_close(b']')? {
                return Some(B::array(items));
            }
        }
    }

    #[inline(never)]
    fn object<B: Build<'t>>(&mut self, depth: u32) -> Option<B::Value> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let mut members = Vec::with_capacity(8);
        let mut more = self.open_object()?;
        while more {
            let name = B::key(self.name()?);
            members.push((name, self.value::<B>(depth + 1)?));
            more = self.next_member()?;
        }
        Some(B::object(members))
    }

    /// The number at the cursor: a plain integer of up to 19 digits read here (it fits a
    /// `u64`, as serde_json reads it), any other by serde_json's number reader.
    fn number(&mut self) -> Option<Number> {
        let start = self.i;
        let n = number_text(self.b, start)?;
        self.i = n.end;
        let digits = self.b.get(start..n.end)?;
        if n.plain && !n.negative && n.digits <= 19 {
            let x = digits
                .iter()
                .fold(0u64, |x, d| x * 10 + u64::from(d - b'0'));
            return Some(Number::from(x));
        }
        self.s.get(start..n.end)?.parse::<Number>().ok()
    }

    /// The string literal at the cursor (its opening quote): borrowed from the text when it
    /// has no escape.
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'t, str>> {
        let b = self.b;
        let start = self.i + 1;
        let mut i = start;
        loop {
            i = plain_end(b, i);
            match *b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return self.s.get(start..i).map(Cow::Borrowed);
                }
                b'\\' => return self.escaped(start, i).map(Cow::Owned),
                0..=0x1f => return None,
                // Non-ASCII (the text is UTF-8), or a byte flagged spuriously.
                _ => i += 1,
            }
        }
    }

    /// The rest of a string literal from its first escape at `i` (`start`: after its quote).
    /// A `\u` escape of a surrogate is left to serde_json (`JSON.stringify` writes a lone one
    /// so; a pair it writes as the character).
    #[cold]
    fn escaped(&mut self, start: usize, mut i: usize) -> Option<String> {
        let b = self.b;
        let mut out = String::with_capacity(i - start + 16);
        let mut from = start;
        loop {
            match *b.get(i)? {
                b'"' => {
                    out.push_str(self.s.get(from..i)?);
                    self.i = i + 1;
                    return Some(out);
                }
                b'\\' => {
                    out.push_str(self.s.get(from..i)?);
                    out.push(match *b.get(i + 1)? {
                        c @ (b'"' | b'\\' | b'/') => char::from(c),
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let unit = self
                                .s
                                .get(i + 2..i + 6)
                                .filter(|h| h.bytes().all(|d| d.is_ascii_hexdigit()))?;
                            // A surrogate (half of a pair, or a lone one) is left to serde_json.
                            let c = char::from_u32(u32::from_str_radix(unit, 16).ok()?)?;
                            i += 4;
                            c
                        }
                        _ => return None,
                    });
                    i += 2;
                    from = i;
                }
                0..=0x1f => return None,
                _ => i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::json::parse_value;
    use serde::de::DeserializeSeed;
    use serde_json::Map;

    /// serde_json's reading of `text` (through `json`'s own seeds).
    fn serde_value(text: &str) -> Option<Value> {
        let mut de = serde_json::Deserializer::from_str(text);
        let v = crate::contract::json::ValueSeed.deserialize(&mut de).ok()?;
        de.end().ok()?;
        Some(v)
    }

    /// The first byte a string scan must look at, in any of the 8 places.
    #[test]
    fn attention_bytes() {
        let first = |s: &[u8; 8]| match attention_mask(u64::from_le_bytes(*s)) {
            0 => None,
            m => Some(m.trailing_zeros() / 8),
        };
        assert_eq!(first(b"abcdefgh"), None);
        assert_eq!(first(b" ~!#$%&'"), None);
        for c in [b'"', b'\\', 0x00, 0x01, 0x1f, 0x80, 0xc3, 0xff] {
            for at in 0..8 {
                let mut w = *b"abcdefgh";
                w[at] = c;
                assert_eq!(first(&w), Some(at as u32), "{c:#x} at {at}");
                // A later special byte never hides the first.
                if at < 7 {
                    w[7] = 0;
                    assert_eq!(first(&w), Some(at as u32), "{c:#x} at {at}, 0 at 7");
                }
            }
        }
    }

    /// Where the reader reads `text`, it reads what serde_json reads: the same value, keys in
    /// the same order.
    fn agrees(text: &str) {
        if let Some(v) = whole_value(text) {
            let theirs = serde_value(text);
            assert_eq!(Some(&v), theirs.as_ref(), "{text}");
            assert_eq!(
                v.to_string(),
                theirs.map(|t| t.to_string()).unwrap_or_default(),
                "key order of {text}"
            );
        }
    }

    #[test]
    fn values_as_serde_json_reads_them() {
        let texts = [
            r#"{"b":1,"a":[1,2.5,-3,"x\ty",null,true,false,{}],"c":{"z":{},"y":[]}}"#,
            r#"{"k":1,"k":2,"j":3}"#,
            r#"{"k":{"a":1},"x":0,"k":[2]}"#,
            r#"[18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809]"#,
            r#"[0,-0,0.0,-0.0,1e2,1E-2,1.5e+3,123456789012345678901234567890,0.1,1.7976931348623157e308]"#,
            r#"{"__proto__":{"x":1},"0":1,"10":2,"1":3}"#,
            r#"{"s":"😀 \" \\ \/ \b \f \n \r \t é","t":"é 中文","k\n":"\"","":""}"#,
            "  \"s\"  ",
            " [ 1 , { \"a\" : [ ] } , \"x\" ] ",
            "{}",
            "[]",
            "\"\"",
        ];
        for t in texts {
            assert!(whole_value(t).is_some(), "reads {t}");
            agrees(t);
        }
        let generated = crate::generator::generate_json(300, 11, "{}").unwrap_or_default();
        assert!(whole_value(&generated).is_some());
        agrees(&generated);
    }

    /// What is not JSON, or what only serde_json decides, the reader leaves to it.
    #[test]
    fn leaves_the_rest_to_serde_json() {
        for t in [
            "",
            " ",
            "{",
            "[1,]",
            "{\"a\":}",
            "{\"a\" 1}",
            "{} x",
            "01",
            "1.",
            "-",
            "+1",
            "1e",
            ".5",
            "tru",
            "nul",
            "[1 2]",
            "{\"a\":1,}",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\\x\"",
            "\"a\u{1}b\"",
            "\"\\u12g4\"",
            "1e400",
            "[-1e400]",
            "{1:2}",
            "'a'",
        ] {
            assert!(whole_value(t).is_none(), "{t:?}");
        }
        let deep = "[".repeat(MAX_DEPTH as usize + 1) + &"]".repeat(MAX_DEPTH as usize + 1);
        assert!(whole_value(&deep).is_none());
        let shallow = "[".repeat(MAX_DEPTH as usize) + &"]".repeat(MAX_DEPTH as usize);
        assert!(whole_value(&shallow).is_some());
        agrees(&shallow);
    }

    /// Records: each field of the event model reads as in the parsed object, the other
    /// members are the extra map, in order (`record::tests` checks which strings are borrowed).
    #[test]
    fn records_as_serde_json_reads_them() {
        use crate::contract::event::EVENT_FIELDS;
        for text in [
            r#"{"id":"a","eventClass":"tool.started","payload":{"x":[1,{"y":null}]},"zeta":1}"#,
            r#"{"id":"a","id":"b","title":"t","title":null,"other":1,"other":2,"kind":"tool"}"#,
            r#"{"t\"q":"é\n","title":"a\"b","sequence":3.5,"artifactRefs":["x","y"]}"#,
            r#"{"i\u0064":"\u0000e1","detail":"\u00e9","z\u0000":[]}"#,
            r#" { "status" : "running" } "#,
            "{}",
        ] {
            let Some(record) = whole_record(text) else {
                panic!("reads {text}");
            };
            let Ok(Value::Object(map)) = parse_value(text) else {
                panic!("serde_json reads {text}");
            };
            let index = record.index();
            let ev = record.ev(&index);
            for name in EVENT_FIELDS {
                let read = ev.get(name).map(|f| f.to_value().into_owned());
                assert_eq!(read.as_ref(), map.get(name), "{text}: {name}");
            }
            let unknown: Map<String, Value> = map
                .into_iter()
                .filter(|(k, _)| field_slot(k).is_none())
                .collect();
            assert_eq!(
                Value::Object(record.extra.clone()).to_string(),
                Value::Object(unknown).to_string(),
                "{text}"
            );
        }
        for odd in [
            "[]",
            "1",
            "null",
            "{",
            "{} {}",
            "{\"a\":}",
            "",
            "{\"id\":\"\\ud800\"}",
        ] {
            assert!(whole_record(odd).is_none(), "{odd}");
        }
        assert!(parse_value("{\"id\":\"\\ud800\"}").is_err());
    }
}

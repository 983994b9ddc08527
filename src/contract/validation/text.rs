//! The raw-text fast path of the runtime-event validators.
//!
//! One pass over an event's JSON text answers "clean" (the event has no issue at all) without
//! building a value and without allocating. It gives up ("doubt", `None`) at anything it does
//! not decide exactly: text that is not JSON or that a `serde_json::Value` parse might read
//! differently (`\u` escapes, escaped member names, nesting deeper than [`MAX_DEPTH`], a
//! number out of range), a repeated rule member, a secret-bearing payload key, a payload near
//! the inline size limit, any failed rule. The caller then parses the event and runs the full
//! validator, so the issues never depend on this pass, only the time they take.

use super::{
    event_field, field, is_legacy_class, is_secret_key_bytes, js_number_len, payload_field,
    scope_rules, ScopeFacts, MAX_INLINE_PAYLOAD_UNITS, REQUIRED_EVENT_FIELDS,
};
use crate::contract::js::{has_content, is_integer};

/// Deepest container nesting (below the event object) the pass follows; serde_json's parser
/// stops at 128 levels, and deeper events are left to it.
const MAX_DEPTH: u32 = 100;

pub(super) use crate::contract::reader::skip_ws;
use crate::contract::reader::{number_text, plain_end, Lex, Reader};

/// `Some(end)` when the JSON value starting at byte `start` of `text` is a runtime event with
/// no issue; `end` is the index just after it. `None` when the full validator must decide.
pub(super) fn clean_event_end(text: &str, start: usize) -> Option<usize> {
    let mut cur = Cursor::at(text, start);
    let mut event = EventText::default();
    cur.eat(b'{')?;
    cur.ws();
    if cur.peek()? == b'}' {
        // `{}` misses every required member.
        return None;
    }
    loop {
        if cur.peek()? != b'"' {
            return None;
        }
        let key = cur.string_facts()?;
        if key.escaped {
            return None;
        }
        let f = event_field(cur.b.get(key.start..key.end)?);
        cur.ws();
        cur.eat(b':')?;
        cur.ws();
        let mode = match f {
            Some(field::PAYLOAD) => Mode::Payload,
            Some(field::ARTIFACT_REFS | field::REF_IDS | field::EVIDENCE_REFS) => Mode::Refs,
            _ => Mode::Plain,
        };
        let at = cur.i;
        let member = cur.member_value(mode, &mut event.payload)?;
        if let Some(f) = f {
            if f == field::EVENT_CLASS {
                // The string's text, inside its quotes.
                event.class = (at + 1, cur.i.saturating_sub(1));
            }
            let bit = 1u32 << f;
            if event.present & bit != 0 {
                // A repeated member: the last one wins in a parse; leave it to the full pass.
                return None;
            }
            event.present |= bit;
            *event.top.get_mut(f)? = member;
        }
        cur.ws();
        match cur.peek()? {
            b',' => {
                cur.i += 1;
                cur.ws();
            }
            b'}' => {
                cur.i += 1;
                break;
            }
            _ => return None,
        }
    }
    event.clean(text).then_some(cur.i)
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Kind {
    #[default]
    Null,
    Bool,
    Num,
    Str,
    Arr,
    Obj,
}

/// What the rules need of one top-level member's value.
#[derive(Clone, Copy, Default)]
struct Member {
    kind: Kind,
    /// A non-empty string.
    non_empty: bool,
    /// An integral number.
    integral: bool,
    /// An array with a non-empty string item (only read for the ref lists).
    refs: bool,
    /// A string with escapes (its text is not its bytes).
    escaped: bool,
}

/// Facts about the payload: its `JSON.stringify` length (UTF-16 units; over-counted if a key
/// repeats, which only sends the event to the full pass) and, bit `p` per
/// [`payload_field`] index, which rule members it holds as what.
#[derive(Default)]
struct PayloadText {
    len: usize,
    seen: u16,
    content: u16,
    string: u16,
    integral: u16,
}

#[derive(Default)]
struct EventText {
    present: u32,
    top: [Member; field::COUNT],
    /// Byte range of the `eventClass` string's text.
    class: (usize, usize),
    payload: PayloadText,
}

impl EventText {
    fn member(&self, f: usize) -> Option<&Member> {
        if self.present & (1 << f) == 0 {
            return None;
        }
        self.top.get(f)
    }

    /// Mirrors `runtime_event`: true when it would report nothing.
    fn clean(&self, text: &str) -> bool {
        for f in 0..REQUIRED_EVENT_FIELDS.len() {
            if !self
                .member(f)
                .is_some_and(|m| m.kind == Kind::Str && m.non_empty)
            {
                return false;
            }
        }
        if !self
            .member(field::SEQUENCE)
            .is_some_and(|m| m.kind == Kind::Num && m.integral)
        {
            return false;
        }
        // Only the payload is measured (0 when it is absent).
        if self.payload.len > MAX_INLINE_PAYLOAD_UNITS {
            return false;
        }
        let Some(class) = self.member(field::EVENT_CLASS) else {
            return true;
        };
        if class.kind != Kind::Str {
            // No string eventClass: no class rules.
            return true;
        }
        if class.escaped {
            // Decoding is the full pass's job.
            return false;
        }
        let Some(class) = text.get(self.class.0..self.class.1) else {
            return false;
        };
        if is_legacy_class(class) {
            return false;
        }
        let mut failed = false;
        scope_rules(self, class, |_, _| failed = true);
        !failed
    }
}

impl ScopeFacts for EventText {
    fn is_string(&self, f: usize) -> bool {
        self.member(f).is_some_and(|m| m.kind == Kind::Str)
    }
    fn has_refs(&self, f: usize) -> bool {
        self.member(f).is_some_and(|m| m.refs)
    }
    fn payload_has(&self, p: usize) -> bool {
        self.payload.content & (1 << p) != 0
    }
    fn payload_is_string(&self, p: usize) -> bool {
        self.payload.string & (1 << p) != 0
    }
    fn payload_is_integer(&self, p: usize) -> bool {
        self.payload.integral & (1 << p) != 0
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Only check the syntax.
    Plain,
    /// An id list: note a non-empty string item.
    Refs,
    /// The payload: measure it, refuse secret keys, note its rule members.
    Payload,
}

/// A string literal: the byte range of its text, whether it has escapes, and the UTF-16
/// length of the literal `JSON.stringify` writes for the decoded string.
struct Str {
    start: usize,
    end: usize,
    escaped: bool,
    units: usize,
}

/// A number: whether it is integral, and the length of JS `String(x)` of the double.
struct Num {
    integral: bool,
    len: usize,
}

/// The pass reads with the event reader's cursor; its own readers are below.
type Cursor<'a> = Reader<'a>;

impl Reader<'_> {
    /// The string literal at the cursor (its opening quote).
    #[inline(always)]
    fn string_facts(&mut self) -> Option<Str> {
        let b = self.b;
        let start = self.i + 1;
        let mut i = start;
        let mut units = 2usize;
        let mut escaped = false;
        loop {
            let plain_from = i;
            i = plain_end(b, i);
            units += i - plain_from;
            let c = *b.get(i)?;
            match c {
                b'"' => {
                    self.i = i + 1;
                    return Some(Str {
                        start,
                        end: i,
                        escaped,
                        units,
                    });
                }
                b'\\' => {
                    escaped = true;
                    units += match b.get(i + 1)? {
                        // JSON.stringify writes these back as two-character escapes.
                        b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => 2,
                        b'/' => 1,
                        // `\u` escapes (and invalid ones) are left to the parser.
                        _ => return None,
                    };
                    i += 2;
                }
                0..=0x1f => return None,
                0x80..=0xff => {
                    // UTF-8: one UTF-16 unit per sequence, two for 4-byte sequences.
                    if c & 0xc0 != 0x80 {
                        units += if c >= 0xf0 { 2 } else { 1 };
                    }
                    i += 1;
                }
                _ => {
                    units += 1;
                    i += 1;
                }
            }
        }
    }

    /// The number at the cursor, by JSON's grammar.
    fn number_facts(&mut self) -> Option<Num> {
        let start = self.i;
        let n = number_text(self.b, start)?;
        self.i = n.end;
        if n.plain && n.digits <= 15 && !(n.negative && n.zero) {
            // An exact double that JS prints digit for digit.
            return Some(Num {
                integral: true,
                len: n.end - start,
            });
        }
        let x = crate::contract::json::parse_json_number(self.s.get(start..n.end)?)?;
        if !x.is_finite() {
            return None;
        }
        Some(Num {
            integral: is_integer(x),
            len: js_number_len(x),
        })
    }

    /// The scalar at the cursor: its member facts and its `JSON.stringify` length.
    #[inline(always)]
    fn scalar(&mut self) -> Option<(Member, usize)> {
        match self.peek()? {
            b'"' => {
                let s = self.string_facts()?;
                let member = Member {
                    kind: Kind::Str,
                    non_empty: s.end > s.start,
                    escaped: s.escaped,
                    ..Member::default()
                };
                Some((member, s.units))
            }
            b'-' | b'0'..=b'9' => {
                let n = self.number_facts()?;
                let member = Member {
                    kind: Kind::Num,
                    integral: n.integral,
                    ..Member::default()
                };
                Some((member, n.len))
            }
            b't' => {
                self.literal(b"true")?;
                Some((kind(Kind::Bool), 4))
            }
            b'f' => {
                self.literal(b"false")?;
                Some((kind(Kind::Bool), 5))
            }
            b'n' => {
                self.literal(b"null")?;
                Some((kind(Kind::Null), 4))
            }
            _ => None,
        }
    }

    /// A top-level member's value. In `Payload` mode its facts go to `payload`.
    fn member_value(&mut self, mode: Mode, payload: &mut PayloadText) -> Option<Member> {
        match self.peek()? {
            b'{' | b'[' => self.container(mode, payload),
            _ => {
                let (member, len) = self.scalar()?;
                if mode == Mode::Payload {
                    payload.len = len;
                }
                Some(member)
            }
        }
    }

    /// Walk the object or array at the cursor to its end, iteratively (one bit per level
    /// says object or array).
    fn container(&mut self, mode: Mode, payload: &mut PayloadText) -> Option<Member> {
        let measure = mode == Mode::Payload;
        let root = if self.peek()? == b'{' {
            Kind::Obj
        } else {
            Kind::Arr
        };
        let mut objects: u128 = 0;
        let mut depth: u32 = 0;
        let mut len = 0usize;
        let mut refs = false;
        // Set when the cursor is at the first member (or item) of a container just opened,
        // or after a comma: an object then expects a key first.
        let mut member_start = false;
        loop {
            let in_object = depth > 0 && (objects >> (depth - 1)) & 1 == 1;
            // The payload rule member this value belongs to.
            let mut rule: Option<usize> = None;
            if member_start && in_object {
                if self.peek()? != b'"' {
                    return None;
                }
                let key = self.string_facts()?;
                if measure {
                    if key.escaped {
                        return None;
                    }
                    let name = self.b.get(key.start..key.end)?;
                    if is_secret_key_bytes(name) {
                        return None;
                    }
                    if depth == 1 {
                        rule = payload_field(name);
                    }
                    // The key's literal and its `:`.
                    len += key.units + 1;
                }
                self.ws();
                self.eat(b':')?;
                self.ws();
            }
            match self.peek()? {
                c @ (b'{' | b'[') => {
                    if depth >= MAX_DEPTH {
                        return None;
                    }
                    let is_object = c == b'{';
                    if is_object {
                        objects |= 1 << depth;
                    } else {
                        objects &= !(1 << depth);
                    }
                    depth += 1;
                    self.i += 1;
                    len += 1;
                    if let Some(p) = rule {
                        note_rule_member(payload, p, &kind(Kind::Obj), "")?;
                    }
                    self.ws();
                    let close = if is_object { b'}' } else { b']' };
                    if self.peek()? == close {
                        self.i += 1;
                        len += 1;
                        depth -= 1;
                    } else {
                        member_start = true;
                        continue;
                    }
                }
                _ => {
                    let at = self.i;
                    let (member, n) = self.scalar()?;
                    len += n;
                    if depth == 1 && !in_object && member.non_empty {
                        refs = true;
                    }
                    if let Some(p) = rule {
                        let text = match member.kind {
                            Kind::Str if member.escaped => return None,
                            Kind::Str => self.s.get(at + 1..self.i.saturating_sub(1))?,
                            _ => "",
                        };
                        note_rule_member(payload, p, &member, text)?;
                    }
                }
            }
            // After a value: commas and closers.
            loop {
                if depth == 0 {
                    if measure {
                        payload.len = len;
                    }
                    return Some(Member {
                        kind: root,
                        refs: refs && mode == Mode::Refs,
                        ..Member::default()
                    });
                }
                self.ws();
                let in_object = (objects >> (depth - 1)) & 1 == 1;
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        len += 1;
                        self.ws();
                        member_start = true;
                        break;
                    }
                    b'}' if in_object => {}
                    b']' if !in_object => {}
                    _ => return None,
                }
                self.i += 1;
                len += 1;
                depth -= 1;
            }
        }
    }
}

#[inline(always)]
fn kind(kind: Kind) -> Member {
    Member {
        kind,
        ..Member::default()
    }
}

/// Record payload rule member `p` (`text`: a string value's unescaped text). A repeated
/// member is a doubt (the last one wins in a parse).
fn note_rule_member(
    payload: &mut PayloadText,
    p: usize,
    member: &Member,
    text: &str,
) -> Option<()> {
    let bit = 1u16 << p;
    if payload.seen & bit != 0 {
        return None;
    }
    payload.seen |= bit;
    match member.kind {
        Kind::Str => {
            payload.string |= bit;
            if has_content(text) {
                payload.content |= bit;
            }
        }
        Kind::Num if member.integral => payload.integral |= bit,
        _ => {}
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::js::js_number_to_string;

    #[test]
    fn number_lengths_match_number_to_string() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            9.0,
            10.0,
            99.0,
            100.0,
            123456789.0,
            -42.5,
            0.1,
            1e20,
            1e21,
            123e19,
            -1e21,
            1.5e-7,
            5e-324,
            1.7976931348623157e308,
            4294967296.0,
            9007199254740993.0,
        ] {
            assert_eq!(js_number_len(x), js_number_to_string(x).len(), "{x}");
        }
    }

    /// The pass against a parse and the full validator, on small hand-written events.
    #[test]
    fn clean_only_when_the_full_validator_finds_nothing() {
        let base = r#""id":"e","schemaVersion":"v","runtimeId":"r","kind":"k","status":"s","title":"t","createdAt":"c","sequence":1"#;
        // (text, whether the pass should decide "clean" by itself)
        let cases = [
            (format!("{{{base}}}"), true),
            (format!("{{{base},\"payload\":{{\"a\":[1,2.5,-0,1e3,true,false,null,\"x\\n\\/\"]}}}}"), true),
            (format!("{{{base},\"payload\":{{\"a\":\"\\u0041\"}}}}"), false),
            (format!("{{{base},\"payload\":{{\"myToken\":1}}}}"), false),
            (format!("{{{base},\"payload\":{{\"\\u0074oken\":1}}}}"), false),
            (format!("{{{base},\"eventClass\":\"tool.started\"}}"), false),
            (format!("{{{base},\"eventClass\":\"tool.started\",\"toolCallId\":\"\"}}"), true),
            (format!("{{{base},\"eventClass\":\"command.exited\",\"payload\":{{\"exitCode\":1.0}},\"toolCallId\":\"c\"}}"), true),
            (format!("{{{base},\"eventClass\":\"command.exited\",\"payload\":{{\"exitCode\":1.5}},\"toolCallId\":\"c\"}}"), false),
            (format!("{{{base},\"eventClass\":\"file.read\",\"payload\":{{\"path\":\" \\t\"}}}}"), false),
            (format!("{{{base},\"eventClass\":\"file.read\",\"payload\":{{\"path\":\"\u{3000}\"}}}}"), false),
            (format!("{{{base},\"eventClass\":\"file.read\",\"payload\":{{\"path\":\"a\"}}}}"), true),
            (format!("{{{base},\"eventClass\":\"file.read\",\"payload\":{{\"path\":\"a\",\"path\":\"b\"}}}}"), false),
            (format!("{{{base},\"eventClass\":\"command.output\",\"toolCallId\":\"c\",\"refIds\":[\"\",\"r\"]}}"), true),
            (format!("{{{base},\"eventClass\":\"command.output\",\"toolCallId\":\"c\",\"refIds\":[\"\"]}}"), false),
            (format!("{{{base},\"eventClass\":\"turn.done\"}}"), false),
            (format!("{{{base},\"sequence\":2.5}}"), false),
            (format!("{{{base},\"x\":[[[{{}}]]],\"y\":{{\"\\\"\":[]}}}}"), true),
            (format!("{{{base},\"payload\":01}}"), false),
            (format!("{{{base},\"payload\":[1,]}}"), false),
            (format!("{{{base},\"payload\":\"\u{1F600}\"}}"), true),
            (format!("{{{base},\"payload\":1e400}}"), false),
            (format!("{{{base} , \"payload\" : {{ \"a\" : [ ] , \"b\" : {{ }} }} }}"), true),
            (format!("{{{base},\"title\":\"\"}}"), false),
            ("[]".to_string(), false),
            ("{}".to_string(), false),
            ("null".to_string(), false),
        ];
        for (text, expect_clean) in &cases {
            let fast = clean_event_end(text, 0).map(|end| skip_ws(text.as_bytes(), end));
            let full = serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .map(|v| super::super::collect_runtime_event_issues(&v, "$").is_empty());
            if let Some(end) = fast {
                assert_eq!(end, text.len(), "{text}");
                assert_eq!(full, Some(true), "the pass says clean: {text}");
            }
            assert_eq!(fast.is_some(), *expect_clean, "{text}");
        }
    }
}

//! The tape: an output value ([`Val`]) as the JS side decodes it without parsing text.
//!
//! Three buffers: `ops` (one `u32` per code or operand), `nums` (the numbers that are not small
//! non-negative integers) and `text` (every string, concatenated; the JS side decodes it once and
//! slices it). Decoding a tape builds the same values as parsing the wire text of the same `Val`
//! (`Val::write_json`) and decoding it: no number or string is scanned character by character.
//! The codes (`pkg-template/wire.js`, `readTape`, reads them):
//!
//! | code | operands | value |
//! |---|---|---|
//! | [`UNDEFINED`], [`NULL`], [`TRUE`], [`FALSE`] | | the constant |
//! | [`UINT`] | `n` | the integer `n` (below 2^32) |
//! | [`NUM`] | `i` | `nums[i]` |
//! | [`STR`] | `start`, `len` | `text` from `start`, `len` UTF-16 units |
//! | [`ARR`] | `n` | an array of the `n` values that follow |
//! | [`OBJ`] | `n` | an object of the `n` members that follow, each a name then a value |
//! | [`EVENT`] | `i` | input event `i` (`Val::Event`) |
//! | [`MADE`] | `template`, `event`, 3 codes | an object made by a template (`Val::Made`) |
//! | [`FIELD`] | `event`, a name | the string in that member of input event `event` |
//!
//! Member names are kept in a table that lives as long as the tape ([`Names`]): a name is its
//! index there, written once into the table's own text, which the JS side reads when a tape
//! refers to names it has not seen yet (its copy of the table is then behind: it catches up from
//! the table, whatever tapes it did not read). Each name is thus decoded once per instance, and
//! the JS engine finds the same string for it every time. Past [`NAME_LIMIT`] names (objects
//! with keys of their own, such as a payload's), a name not in the table is [`LITERAL_NAME`]
//! followed by `start`, `len` in the tape's text.
//!
//! As in the wire text, a number that is not finite is `null`, `-0` is `0`, and a long string
//! the writer's source says is a member of an input event is a [`FIELD`] (the caller's own
//! string is reused).

use super::fxhash::HashMap;
use super::js::utf16_len;
use super::val::{Key, Obj, StrSource, Val, MIN_FIELD_REF_LEN};

pub const UNDEFINED: u32 = 0;
pub const NULL: u32 = 1;
pub const TRUE: u32 = 2;
pub const FALSE: u32 = 3;
pub const UINT: u32 = 4;
pub const NUM: u32 = 5;
pub const STR: u32 = 6;
pub const ARR: u32 = 7;
pub const OBJ: u32 = 8;
pub const EVENT: u32 = 9;
pub const MADE: u32 = 10;
pub const FIELD: u32 = 11;
/// A member name that is not in the table (its `start`, `len` in the tape's text follow).
pub const LITERAL_NAME: u32 = u32::MAX;

/// Every code by name: what the package's JS reader is built with (`codes_json`).
const CODES: [(&str, u32); 13] = [
    ("UNDEFINED", UNDEFINED),
    ("NULL", NULL),
    ("TRUE", TRUE),
    ("FALSE", FALSE),
    ("UINT", UINT),
    ("NUM", NUM),
    ("STR", STR),
    ("ARR", ARR),
    ("OBJ", OBJ),
    ("EVENT", EVENT),
    ("MADE", MADE),
    ("FIELD", FIELD),
    ("LITERAL_NAME", LITERAL_NAME),
];

/// The codes as a JSON object, name to number (`crates/package-tables`).
pub fn codes_json() -> String {
    let mut out = String::from("{");
    for (i, (name, code)) in CODES.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("\"{name}\":{code}"));
    }
    out.push('}');
    out
}

/// Most names the table keeps.
pub const NAME_LIMIT: usize = 4096;

/// A tape's buffers (kept between writes to reuse their memory) and its table of names.
#[derive(Default)]
pub struct Tape {
    pub ops: Vec<u32>,
    pub nums: Vec<f64>,
    pub text: String,
    /// The UTF-16 length of `text` (its byte length when it is ASCII).
    pub units: usize,
    pub names: Names,
}

/// The member names of every tape written so far, in the order they were first written.
#[derive(Default)]
pub struct Names {
    /// (Keyed as the other string maps of the crate are: one compiled map for all.)
    index: HashMap<std::rc::Rc<str>, usize>,
    /// The indexes of static names (`Key::S`, the projection's own member names) by where
    /// they are in the module: a slot per address, found without hashing or comparing the
    /// name. A static name's address and length always denote the same text.
    statics: StaticNames,
    /// The names, one after the other.
    pub text: String,
    /// Each name's byte offset and length in `text`.
    pub spans: Vec<u32>,
}

impl Names {
    /// How many names the table holds.
    pub fn len(&self) -> usize {
        self.spans.len() / 2
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The index of the name `k` (as [`Names::of`]), found by its address when it is static.
    fn of_key(&mut self, k: &Key) -> Option<u32> {
        let s = match k {
            Key::S(s) => *s,
            Key::D(d) => return self.of(d),
        };
        let slot = StaticNames::slot(s);
        match self.statics.0.get(slot) {
            Some(&(at, len, i)) if at == s.as_ptr() as usize && len == s.len() => Some(i),
            _ => self.of_static(s, slot),
        }
    }

    /// [`Names::of_key`] of a static name not in its own slot: in one of the next slots, else
    /// kept in the first free one; found by its text when they are all taken by other names.
    #[inline(never)]
    fn of_static(&mut self, s: &'static str, mut slot: usize) -> Option<u32> {
        let at = s.as_ptr() as usize;
        for _ in 0..StaticNames::PROBES {
            match self.statics.0.get(slot) {
                Some(&(a, len, i)) if a == at && len == s.len() => return Some(i),
                Some(&(0, _, _)) => {
                    let i = self.of(s)?;
                    if let Some(entry) = self.statics.0.get_mut(slot) {
                        *entry = (at, s.len(), i);
                    }
                    return Some(i);
                }
                _ => slot = (slot + 1) % StaticNames::SLOTS,
            }
        }
        self.of(s)
    }

    /// The index of `k`, added when there is room (`None`: not in the table, and no room).
    fn of(&mut self, k: &str) -> Option<u32> {
        if let Some(&i) = self.index.get(k) {
            return u32::try_from(i).ok();
        }
        if self.len() >= NAME_LIMIT {
            return None;
        }
        let i = u32::try_from(self.len()).ok()?;
        let start = u32::try_from(self.text.len()).ok()?;
        let len = u32::try_from(k.len()).ok()?;
        self.text.push_str(k);
        self.spans.extend([start, len]);
        self.index.insert(k.into(), i as usize);
        Some(i)
    }
}

/// [`Names::statics`]: `(address, length, index)` per slot (address 0: empty), a name kept in
/// the first free slot of the [`StaticNames::PROBES`] from its own (names never leave, as the
/// table's names never do), so names that share a slot do not push each other out.
struct StaticNames(Box<[(usize, usize, u32)]>);

impl StaticNames {
    const SLOTS: usize = 1024;
    const PROBES: usize = 8;

    /// The slot of a name at this address (names are a few bytes apart).
    fn slot(s: &str) -> usize {
        let at = s.as_ptr() as usize;
        (at ^ (at >> 9) ^ s.len()) % Self::SLOTS
    }
}

impl Default for StaticNames {
    fn default() -> StaticNames {
        StaticNames(vec![(0, 0, 0); Self::SLOTS].into_boxed_slice())
    }
}

/// A tape holding more than this many bytes gives its memory back before the next write.
const KEEP_BYTES: usize = 1 << 20;

impl Tape {
    /// Write `v`, replacing what the tape held. `Err` when a count or offset does not fit in a
    /// `u32` (an output over 4 GiB, which wasm32 cannot hold anyway).
    pub fn write(&mut self, v: &Val) -> Result<(), TapeTooLong> {
        self.write_with(v, &|_| None)
    }

    /// [`Tape::write`], strings of at least [`MIN_FIELD_REF_LEN`] bytes that `field_of` finds
    /// in an input event as [`FIELD`]s.
    pub fn write_with(&mut self, v: &Val, field_of: &StrSource<'_>) -> Result<(), TapeTooLong> {
        self.clear();
        self.append_with(v, field_of)
    }

    /// Empty the tape (its table of names stays).
    pub fn clear(&mut self) {
        if self.ops.capacity() * 4 + self.nums.capacity() * 8 + self.text.capacity() > KEEP_BYTES {
            self.ops = Vec::new();
            self.nums = Vec::new();
            self.text = String::new();
        }
        self.ops.clear();
        self.nums.clear();
        self.text.clear();
        self.units = 0;
    }

    /// Write `v` after the values the tape holds (a tape of several values: the JS side reads
    /// them in order, each with the events it stands for), as [`Tape::write_with`] does.
    pub fn append_with(&mut self, v: &Val, field_of: &StrSource<'_>) -> Result<(), TapeTooLong> {
        self.append_by(field_of, |w| w.value(v))
    }

    /// Write after the values the tape holds what `write` writes with a [`Writer`] (values that
    /// are not `Val`s, written without building one).
    pub fn append_by(
        &mut self,
        field_of: &StrSource<'_>,
        write: impl FnOnce(&mut Writer<'_, '_>) -> Result<(), TapeTooLong>,
    ) -> Result<(), TapeTooLong> {
        write(&mut Writer {
            tape: self,
            field_of,
        })
    }
}

impl Tape {
    /// The value the tape holds, read back as the JS side reads it, with [`FIELD`]s as
    /// `field(event, name)` (the string the JS side takes from the caller's event). `Err` names
    /// where the tape is not one well-formed value. For tests and the package's own checks: the
    /// JS side has its own reader (`pkg-template/wire.js`, `readTape`).
    pub fn read(&self, field: &dyn Fn(u32, &str) -> Val) -> Result<Val, String> {
        let mut values = self.read_all(field)?;
        match (values.pop(), values.is_empty()) {
            (Some(v), true) => Ok(v),
            _ => Err(format!("{} values where one was written", values.len() + 1)),
        }
    }

    /// The values the tape holds, in order ([`Tape::read`]).
    pub fn read_all(&self, field: &dyn Fn(u32, &str) -> Val) -> Result<Vec<Val>, String> {
        let mut r = Reader {
            tape: self,
            units: self.text.encode_utf16().collect(),
            at: 0,
            field,
        };
        let mut values = Vec::new();
        while r.at < self.ops.len() {
            values.push(r.value(0)?);
        }
        Ok(values)
    }
}

/// Deepest nesting [`Tape::read`] follows.
const READ_DEPTH: usize = 256;

struct Reader<'t> {
    tape: &'t Tape,
    /// The text's UTF-16 units (spans count them).
    units: Vec<u16>,
    at: usize,
    field: &'t dyn Fn(u32, &str) -> Val,
}

impl Reader<'_> {
    fn op(&mut self) -> Result<u32, String> {
        let op = self.tape.ops.get(self.at).copied();
        self.at += 1;
        op.ok_or_else(|| format!("the codes end at {}", self.at - 1))
    }

    fn text(&mut self) -> Result<String, String> {
        let (start, len) = (self.op()? as usize, self.op()? as usize);
        let units = start
            .checked_add(len)
            .and_then(|end| self.units.get(start..end))
            .ok_or_else(|| format!("text {start}+{len} is past the text's end"))?;
        String::from_utf16(units).map_err(|e| e.to_string())
    }

    fn name(&mut self) -> Result<String, String> {
        let i = self.op()?;
        if i == LITERAL_NAME {
            return self.text();
        }
        let names = &self.tape.names;
        let span = names.spans.get(2 * i as usize..2 * i as usize + 2);
        span.and_then(|s| names.text.get(s[0] as usize..(s[0] + s[1]) as usize))
            .map(str::to_string)
            .ok_or_else(|| format!("no name {i}"))
    }

    fn value(&mut self, depth: usize) -> Result<Val, String> {
        if depth > READ_DEPTH {
            return Err(format!("nested deeper than {READ_DEPTH} at {}", self.at));
        }
        Ok(match self.op()? {
            UNDEFINED => Val::Undef,
            NULL => Val::Null,
            TRUE => Val::Bool(true),
            FALSE => Val::Bool(false),
            UINT => Val::Num(f64::from(self.op()?)),
            NUM => {
                let i = self.op()? as usize;
                let n = self.tape.nums.get(i).copied();
                Val::Num(n.ok_or_else(|| format!("no number {i}"))?)
            }
            STR => Val::string(self.text()?),
            ARR => {
                let n = self.op()? as usize;
                let mut items = Vec::with_capacity(n.min(self.tape.ops.len()));
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Val::arr(items)
            }
            OBJ => {
                let n = self.op()? as usize;
                let mut o = Obj::with_capacity(n.min(self.tape.ops.len()));
                for _ in 0..n {
                    let k = self.name()?;
                    let v = self.value(depth + 1)?;
                    o.set_dyn(&k, v);
                }
                o.into_val()
            }
            EVENT => Val::Event(self.op()?),
            MADE => {
                let template = u8::try_from(self.op()?).map_err(|e| e.to_string())?;
                let event = self.op()?;
                let mut codes = [0u8; 3];
                for c in &mut codes {
                    *c = u8::try_from(self.op()?).map_err(|e| e.to_string())?;
                }
                Val::Made(super::val::Made {
                    template,
                    codes,
                    event,
                })
            }
            FIELD => {
                let event = self.op()?;
                let name = self.name()?;
                (self.field)(event, &name)
            }
            op => return Err(format!("code {op} at {}", self.at - 1)),
        })
    }
}

/// A tape whose output does not fit its `u32` counts.
#[derive(Debug, PartialEq)]
pub struct TapeTooLong;

impl std::fmt::Display for TapeTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("The output is too large to hand over (more than 2^32 items).")
    }
}

fn count(n: usize) -> Result<u32, TapeTooLong> {
    u32::try_from(n).map_err(|_| TapeTooLong)
}

/// Writes values onto a tape ([`Tape::append_by`]): whole `Val`s, or a value piece by piece
/// (an array or object's count, then its items or members).
pub struct Writer<'t, 'f> {
    tape: &'t mut Tape,
    field_of: &'f StrSource<'f>,
}

impl Writer<'_, '_> {
    /// `start`, `len` of `s`, appended to the text.
    fn text(&mut self, s: &str) -> Result<(), TapeTooLong> {
        let len = if s.is_ascii() { s.len() } else { utf16_len(s) };
        let start = count(self.tape.units)?;
        self.tape.units += len;
        self.tape.text.push_str(s);
        self.tape.ops.extend([start, count(len)?]);
        Ok(())
    }

    /// A member name (after [`Writer::object`], before the member's value).
    pub fn name(&mut self, k: &str) -> Result<(), TapeTooLong> {
        match self.tape.names.of(k) {
            Some(i) => self.tape.ops.push(i),
            None => {
                self.tape.ops.push(LITERAL_NAME);
                self.text(k)?;
            }
        }
        Ok(())
    }

    /// [`Writer::name`] of a name of the module's own, found by its address (not hashed).
    pub fn static_name(&mut self, k: &'static str) -> Result<(), TapeTooLong> {
        self.key(&Key::S(k))
    }

    /// [`Writer::name`] of an object's key.
    #[inline]
    fn key(&mut self, k: &Key) -> Result<(), TapeTooLong> {
        match self.tape.names.of_key(k) {
            Some(i) => {
                self.tape.ops.push(i);
                Ok(())
            }
            None => self.name(k),
        }
    }

    /// An array of `n` items: the next `n` values written.
    pub fn array(&mut self, n: usize) -> Result<(), TapeTooLong> {
        self.tape.ops.extend([ARR, count(n)?]);
        Ok(())
    }

    /// An object of `n` members: the next `n` names, each followed by its value.
    pub fn object(&mut self, n: usize) -> Result<(), TapeTooLong> {
        self.tape.ops.extend([OBJ, count(n)?]);
        Ok(())
    }

    /// A string (as itself: no source is looked up).
    pub fn string(&mut self, s: &str) -> Result<(), TapeTooLong> {
        self.tape.ops.push(STR);
        self.text(s)
    }

    pub fn value(&mut self, v: &Val) -> Result<(), TapeTooLong> {
        match v {
            Val::Undef => self.tape.ops.push(UNDEFINED),
            Val::Null => self.tape.ops.push(NULL),
            Val::Bool(b) => self.tape.ops.push(if *b { TRUE } else { FALSE }),
            Val::Num(n) => self.number(*n)?,
            Val::Str(s) => match (s.len() >= MIN_FIELD_REF_LEN)
                .then(|| (self.field_of)(s))
                .flatten()
            {
                Some((event, field)) => {
                    self.tape.ops.extend([FIELD, event]);
                    self.static_name(field)?;
                }
                None => self.string(s)?,
            },
            Val::Event(i) => self.tape.ops.extend([EVENT, *i]),
            Val::Made(m) => {
                let [a, b, c] = m.codes;
                self.tape.ops.extend([
                    MADE,
                    u32::from(m.template),
                    m.event,
                    u32::from(a),
                    u32::from(b),
                    u32::from(c),
                ]);
            }
            Val::Arr(items) => {
                self.array(items.len())?;
                for x in items.iter() {
                    self.value(x)?;
                }
            }
            Val::Obj(o) => {
                self.object(o.len())?;
                for (k, x) in o.entries() {
                    self.key(k)?;
                    self.value(x)?;
                }
            }
        }
        Ok(())
    }

    /// A number (`null` when it is not finite, as in the wire text).
    pub fn number(&mut self, n: f64) -> Result<(), TapeTooLong> {
        if !n.is_finite() {
            self.tape.ops.push(NULL);
        } else if n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n) {
            // `-0` is in the range and becomes `0`, as in the wire text.
            self.tape.ops.extend([UINT, n as u32]);
        } else {
            let i = count(self.tape.nums.len())?;
            self.tape.nums.push(n);
            self.tape.ops.extend([NUM, i]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_of_each_kind() {
        let mut o = Obj::new();
        o.set_dyn("a", Val::Num(1.5));
        o.set_dyn("b", Val::str("é!"));
        o.set_dyn(
            "a2",
            Val::arr(vec![Val::Undef, Val::Num(-0.0), Val::Num(f64::NAN)]),
        );
        let mut inner = Obj::new();
        inner.set_dyn("a", Val::Bool(true));
        let v = Val::arr(vec![o.into_val(), inner.into_val(), Val::Event(7)]);
        let mut t = Tape::default();
        assert_eq!(t.write(&v), Ok(()));
        assert_eq!(
            t.ops,
            vec![
                ARR, 3, OBJ, 3, 0, NUM, 0, 1, STR, 0, 2, 2, ARR, 3, UNDEFINED, UINT, 0, NULL, OBJ,
                1, 0, TRUE, EVENT, 7
            ]
        );
        assert_eq!(t.nums, vec![1.5]);
        assert_eq!(t.text, "é!");
        assert_eq!((t.names.text.as_str(), t.names.len()), ("aba2", 3));
        assert_eq!(t.names.spans, vec![0, 1, 1, 1, 2, 2]);
        // The next tape refers to the names already in the table.
        let mut o = Obj::new();
        o.set_dyn("a2", Val::Null);
        o.set_dyn("c", Val::Null);
        assert_eq!(t.write(&o.into_val()), Ok(()));
        assert_eq!(t.ops, vec![OBJ, 2, 2, NULL, 3, NULL]);
        assert_eq!(t.names.len(), 4);
    }

    /// What a tape holds reads back as the value written, member order, `undefined` and
    /// non-ASCII text included; `-0` and non-finite numbers as the wire text has them.
    #[test]
    fn reads_back_what_was_written() {
        let mut o = Obj::new();
        o.set_dyn("2", Val::str("two"));
        o.set_dyn("z", Val::Undef);
        o.set_dyn("𝄞 clef", Val::str("a𝄞b"));
        o.set_dyn(
            "n",
            Val::arr(vec![Val::Num(-2.5), Val::Num(4e20), Val::Num(7.0)]),
        );
        o.set_dyn("e", Val::Event(3));
        let v = Val::arr(vec![o.into_val(), Val::Null, Val::str("")]);
        let mut t = Tape::default();
        assert_eq!(t.write(&v), Ok(()));
        let back = t.read(&|_, _| Val::Undef).map(|b| b.to_json());
        assert_eq!(back, Ok(v.to_json()));
        let odd = Val::arr(vec![Val::Num(-0.0), Val::Num(f64::INFINITY)]);
        assert_eq!(t.write(&odd), Ok(()));
        let back = t.read(&|_, _| Val::Undef).map(|b| b.to_json());
        assert_eq!(back, Ok("[0,null]".to_string()));
    }

    #[test]
    fn names_past_the_limit_are_literal() {
        let mut t = Tape::default();
        let mut o = Obj::new();
        for i in 0..NAME_LIMIT {
            o.set_dyn(&format!("k{i}"), Val::Null);
        }
        assert_eq!(t.write(&o.into_val()), Ok(()));
        assert_eq!(t.names.len(), NAME_LIMIT);
        let mut o = Obj::new();
        o.set_dyn("k0", Val::Null);
        o.set_dyn("new", Val::Null);
        assert_eq!(t.write(&o.into_val()), Ok(()));
        assert_eq!(t.ops, vec![OBJ, 2, 0, NULL, LITERAL_NAME, 0, 3, NULL]);
        assert_eq!(t.text, "new");
    }

    #[test]
    fn static_and_dynamic_names_share_an_index() {
        let mut t = Tape::default();
        // Two static names at different addresses with one text, the same as a dynamic one,
        // and a static name that is a prefix of another (a shared address, another length).
        let a: &'static str = "status";
        let b: &'static str = Box::leak(String::from("status").into_boxed_str());
        let long: &'static str = "statusKey";
        let prefix: &'static str = &long[..6];
        let mut o = Obj::new();
        o.push(a, Val::Null);
        o.push(long, Val::Null);
        o.push(prefix, Val::Null);
        o.push(b, Val::Null);
        o.push(Key::dynamic("status"), Val::Null);
        for _ in 0..2 {
            assert_eq!(t.write(&o.clone().into_val()), Ok(()));
            assert_eq!(
                t.ops,
                vec![OBJ, 5, 0, NULL, 1, NULL, 0, NULL, 0, NULL, 0, NULL]
            );
        }
        assert_eq!(
            (t.names.text.as_str(), t.names.len()),
            ("statusstatusKey", 2)
        );
    }

    /// More static names than the address slots hold: names that share a slot, names kept in a
    /// later slot and names past every probe (found by their text) each keep their one index,
    /// written in any order, as the table's text says.
    #[test]
    fn static_names_sharing_slots_keep_their_index() {
        let names: Vec<&'static str> = (0..3 * StaticNames::SLOTS)
            .map(|i| &*Box::leak(format!("n{i}").into_boxed_str()))
            .collect();
        let mut t = Tape::default();
        for order in [false, true] {
            let mut o = Obj::new();
            let mut written: Vec<&'static str> = names.clone();
            if order {
                written.reverse();
            }
            for k in &written {
                o.push(*k, Val::Null);
            }
            assert_eq!(t.write(&o.into_val()), Ok(()));
            let mut expected = vec![OBJ, count(written.len()).unwrap_or(0)];
            for k in &written {
                let i = names.iter().position(|n| n == k).unwrap_or(usize::MAX);
                expected.extend([i as u32, NULL]);
            }
            assert_eq!(t.ops, expected);
        }
        assert_eq!(t.names.len(), names.len());
        for (i, n) in names.iter().enumerate() {
            let (at, len) = (
                t.names.spans[2 * i] as usize,
                t.names.spans[2 * i + 1] as usize,
            );
            assert_eq!(&t.names.text[at..at + len], *n);
        }
    }
}

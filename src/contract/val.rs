//! `Val`: a JavaScript-shaped value for outputs.
//!
//! The reference's outputs are JS objects whose deep equality is key-presence sensitive: an own
//! key holding `undefined` differs from a missing key. `Val` can hold `Undef`, keeps object keys
//! in JS own-key order (canonical array-index keys first, ascending, then insertion order), and
//! shares subtrees through `Rc` so copy-on-write patches and structural sharing are cheap.
//!
//! `Val::Event(i)` stands for "the i-th input event object itself" (the reference puts the
//! caller's event object into `readModel.events[i].source`); the JS layer substitutes it.
//!
//! Wire encoding (`write_json`): plain JSON, except `Undef` is written as the string `"\u0000u"`,
//! `Event(i)` as `"\u0000e<i>"`, and a real string that starts with U+0000 gets one extra U+0000
//! in front. `write_json_with` may also write a string known to be field `f` of input event `i`
//! as `"\u0000f<i>:<f>"` (the JS side then reuses the caller's own string instead of a copy).
//! The JS decoder reverses this (see pkg-template).

use std::ops::Deref;
use std::rc::Rc;

use super::js::{is_array_index_key, js_number_to_string};

/// An object key: a static name (no allocation) or a shared dynamic string.
#[derive(Clone, Debug)]
pub enum Key {
    S(&'static str),
    D(Rc<str>),
}

impl Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Key::S(s) => s,
            Key::D(s) => s,
        }
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        **self == **other
    }
}

impl From<&'static str> for Key {
    fn from(s: &'static str) -> Key {
        Key::S(s)
    }
}

impl Key {
    pub fn dynamic(s: &str) -> Key {
        Key::D(Rc::from(s))
    }
}

#[derive(Clone, Debug, Default)]
pub enum Val {
    #[default]
    Undef,
    Null,
    Bool(bool),
    Num(f64),
    Str(Rc<str>),
    Arr(Rc<Vec<Val>>),
    Obj(Rc<Obj>),
    /// The input event object with this index (acceptance order).
    Event(u32),
    /// An object made from input event `event` by a template of the projection (its keys and
    /// where each value comes from), with the few codes it needs: the JS side builds it from the
    /// caller's own event object instead of receiving it (see `projection::templates`).
    Made(Made),
}

/// An object the receiver makes from an input event by a template (`Val::Made`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Made {
    /// Which template (`projection::templates::TEMPLATES`).
    pub template: u8,
    /// The template's codes (which string of a list a value is, a flag).
    pub codes: [u8; 3],
    /// The input event (as `Val::Event`).
    pub event: u32,
}

/// Up to this many members, [`Obj::from_members`] finds a repeated key by a linear search.
const SMALL_OBJECT: usize = 16;

/// A JS plain object: entries in JS own-key order.
#[derive(Clone, Debug, Default)]
pub struct Obj {
    entries: Vec<(Key, Val)>,
}

impl Obj {
    pub fn new() -> Obj {
        Obj {
            entries: Vec::new(),
        }
    }

    pub fn with_capacity(n: usize) -> Obj {
        Obj {
            entries: Vec::with_capacity(n),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, k: &str) -> Option<&Val> {
        self.entries
            .iter()
            .find(|(kk, _)| **kk == *k)
            .map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, k: &str) -> Option<&mut Val> {
        self.entries
            .iter_mut()
            .find(|(kk, _)| **kk == *k)
            .map(|(_, v)| v)
    }

    pub fn contains_key(&self, k: &str) -> bool {
        self.entries.iter().any(|(kk, _)| **kk == *k)
    }

    /// JS assignment `o[k] = v`: an existing key keeps its position; a new key is appended
    /// (a canonical array-index key goes to its ascending place before the string keys).
    pub fn set(&mut self, k: impl Into<Key>, v: Val) {
        let k = k.into();
        if let Some(slot) = self.get_mut(&k) {
            *slot = v;
            return;
        }
        self.insert_new(k, v);
    }

    /// The object `JSON.parse` makes of `members` in text order: a key given twice keeps its
    /// first position and its last value, and canonical array-index keys go first, ascending.
    /// Linear in the members (a large object finds its repeats through a hashed map).
    pub fn from_members(members: Vec<(Key, Val)>) -> Obj {
        let mut out = Obj::with_capacity(members.len());
        if members.len() <= SMALL_OBJECT {
            for (k, v) in members {
                match out.get_mut(&k) {
                    Some(slot) => *slot = v,
                    None => out.insert_new(k, v),
                }
            }
            return out;
        }
        // Each key's last position, in the order of its first (serde_json's map).
        let mut last = serde_json::Map::with_capacity(members.len());
        let mut slots = Vec::with_capacity(members.len());
        for (i, (k, v)) in members.into_iter().enumerate() {
            last.insert(k.to_string(), serde_json::Value::from(i));
            slots.push(Some((k, v)));
        }
        for (_, at) in ordered_entries(&last) {
            let member = at
                .as_u64()
                .and_then(|i| slots.get_mut(usize::try_from(i).ok()?))
                .and_then(Option::take);
            out.entries.extend(member);
        }
        out
    }

    /// Set a key with a dynamic name.
    pub fn set_dyn(&mut self, k: &str, v: Val) {
        if let Some(slot) = self.get_mut(k) {
            *slot = v;
            return;
        }
        self.insert_new(Key::dynamic(k), v);
    }

    /// Append a key known not to be present yet (fresh objects with fixed key lists).
    /// Keeps JS order for array-index keys.
    pub fn push(&mut self, k: impl Into<Key>, v: Val) {
        self.insert_new(k.into(), v);
    }

    /// `[K]` key: always present, `Undef` when the value is absent.
    pub fn k(mut self, k: &'static str, v: Val) -> Obj {
        self.push(k, v);
        self
    }

    /// `[C]` key: present only when the value is not `Undef` (JS `compact`).
    pub fn c(mut self, k: &'static str, v: Val) -> Obj {
        if !matches!(v, Val::Undef) {
            self.push(k, v);
        }
        self
    }

    fn insert_new(&mut self, k: Key, v: Val) {
        // Objects are built key by key: start with room for a typical output object (one
        // allocation instead of growing 4 -> 8 -> 16).
        if self.entries.capacity() == 0 {
            self.entries.reserve(8);
        }
        // Fast path: an array-index key starts with an ASCII digit.
        if !k.as_bytes().first().is_some_and(u8::is_ascii_digit) {
            self.entries.push((k, v));
            return;
        }
        if let Some(idx) = is_array_index_key(&k) {
            let pos = self
                .entries
                .iter()
                .position(|(kk, _)| match is_array_index_key(kk) {
                    Some(i) => i > idx,
                    None => true,
                })
                .unwrap_or(self.entries.len());
            self.entries.insert(pos, (k, v));
        } else {
            self.entries.push((k, v));
        }
    }

    /// `delete o[k]`; returns the removed value.
    pub fn remove(&mut self, k: &str) -> Option<Val> {
        let pos = self.entries.iter().position(|(kk, _)| **kk == *k)?;
        Some(self.entries.remove(pos).1)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Val)> {
        self.entries.iter().map(|(k, v)| (&**k, v))
    }

    /// The members with their keys as kept (a static name or a shared string).
    pub fn entries(&self) -> impl Iterator<Item = (&Key, &Val)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| &**k)
    }

    /// Drop own keys whose value is `Undef` (JS `compact`).
    pub fn compact(mut self) -> Obj {
        self.entries.retain(|(_, v)| !matches!(v, Val::Undef));
        self
    }

    pub fn into_val(self) -> Val {
        Val::Obj(Rc::new(self))
    }
}

/// Slots of the cache behind [`Val::lit`] (a power of two).
const LIT_SLOTS: usize = 256;

/// A cached `'static` text: its address, its length and its shared string.
type LitEntry = Option<(usize, usize, Rc<str>)>;

/// The cache behind [`Val::lit`]: its slots, and which of them hold a string (one bit each),
/// so that emptying it touches only those.
struct Lits {
    slots: [LitEntry; LIT_SLOTS],
    filled: [u64; LIT_SLOTS / 64],
}

thread_local! {
    /// The one empty array every empty list value shares ([`Val::arr`]).
    static EMPTY_ARR: std::cell::RefCell<Option<Rc<Vec<Val>>>> =
        const { std::cell::RefCell::new(None) };
    /// Shared strings of `'static` texts, by address and length (direct-mapped: a collision
    /// only costs a fresh string).
    static LITS: std::cell::RefCell<Lits> = const {
        std::cell::RefCell::new(Lits {
            slots: [const { None }; LIT_SLOTS],
            filled: [0; LIT_SLOTS / 64],
        })
    };
}

/// Empty the cache behind [`Val::lit`] and forget the shared empty array ([`Val::arr`]).
/// Memory that is released wholesale (the wasm batch arena) must not keep cached values: the
/// arena calls this when it starts and when it stops.
pub fn forget_shared_literals() {
    EMPTY_ARR.with(|shared| {
        if let Ok(mut shared) = shared.try_borrow_mut() {
            *shared = None;
        }
    });
    LITS.with(|cache| {
        let Ok(mut cache) = cache.try_borrow_mut() else {
            return;
        };
        let Lits { slots, filled } = &mut *cache;
        for (w, word) in filled.iter_mut().enumerate() {
            while *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                if let Some(slot) = slots.get_mut(w * 64 + bit) {
                    *slot = None;
                }
            }
        }
    });
}

impl Val {
    /// A string value (the empty string is shared, see [`Val::lit`]).
    pub fn str(s: &str) -> Val {
        if s.is_empty() {
            return Val::lit("");
        }
        Val::Str(Rc::from(s))
    }

    /// A `'static` text as a string value: one shared string per text, so the constant strings
    /// every event's views carry (surfaces, kinds, status keys, roles) cost no allocation after
    /// their first use.
    pub fn lit(s: &'static str) -> Val {
        let (addr, len) = (s.as_ptr() as usize, s.len());
        let slot = ((addr ^ len) as u32).wrapping_mul(0x9E37_79B9) as usize
            >> (32 - LIT_SLOTS.trailing_zeros());
        LITS.with(|cache| {
            let Ok(mut cache) = cache.try_borrow_mut() else {
                return Val::Str(Rc::from(s));
            };
            let Lits { slots, filled } = &mut *cache;
            match slots.get_mut(slot) {
                Some(Some((a, l, shared))) if *a == addr && *l == len => Val::Str(shared.clone()),
                Some(entry) => {
                    let shared: Rc<str> = Rc::from(s);
                    *entry = Some((addr, len, shared.clone()));
                    if let Some(word) = filled.get_mut(slot / 64) {
                        *word |= 1 << (slot % 64);
                    }
                    Val::Str(shared)
                }
                None => Val::Str(Rc::from(s)),
            }
        })
    }

    pub fn string(s: String) -> Val {
        Val::Str(Rc::from(s))
    }

    pub fn opt_str(s: Option<&str>) -> Val {
        match s {
            Some(s) => Val::str(s),
            None => Val::Undef,
        }
    }

    /// An array the projection builds. Every empty one shares one allocation (a state has a
    /// dozen empty lists and a short batch makes them anew each call); the containers are never
    /// changed in place while shared (`Rc::make_mut` copies), and each is written out as an
    /// array of its own. Arrays read from input are [`Val::input_arr`].
    pub fn arr(v: Vec<Val>) -> Val {
        if v.is_empty() {
            let shared = EMPTY_ARR.with(|shared| {
                let mut shared = shared.try_borrow_mut().ok()?;
                Some(shared.get_or_insert_with(|| Rc::new(Vec::new())).clone())
            });
            if let Some(shared) = shared {
                if v.capacity() == 0 {
                    // Nothing to free: skip the vector's drop.
                    std::mem::forget(v);
                }
                return Val::Arr(shared);
            }
        }
        Val::Arr(Rc::new(v))
    }

    /// An array read from input (parsed JSON): always an array of its own, never the shared
    /// empty one. Input arrays are compared by identity where the reference puts them in a
    /// `Set` or `Map` ([`Val::key`]: a graph node id, an event's refs), so two `[]` of two
    /// events must stay two values.
    pub fn input_arr(v: Vec<Val>) -> Val {
        Val::Arr(Rc::new(v))
    }

    pub fn str_arr<S: AsRef<str>>(items: &[S]) -> Val {
        Val::arr(items.iter().map(|s| Val::str(s.as_ref())).collect())
    }

    pub fn empty_obj() -> Val {
        Val::Obj(Rc::new(Obj::new()))
    }

    pub fn is_undef(&self) -> bool {
        matches!(self, Val::Undef)
    }

    /// JS `x == null` (`undefined` or `null`).
    pub fn is_nullish(&self) -> bool {
        matches!(self, Val::Undef | Val::Null)
    }

    /// JS truthiness (`Event` objects are truthy).
    pub fn truthy(&self) -> bool {
        match self {
            Val::Undef | Val::Null => false,
            Val::Bool(b) => *b,
            Val::Num(n) => *n != 0.0 && !n.is_nan(),
            Val::Str(s) => !s.is_empty(),
            _ => true,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Val::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub fn as_obj(&self) -> Option<&Obj> {
        match self {
            Val::Obj(o) => Some(o),
            _ => None,
        }
    }

    pub fn as_arr(&self) -> Option<&[Val]> {
        match self {
            Val::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// Field of an object value (`None` for non-objects and missing keys).
    pub fn get(&self, k: &str) -> Option<&Val> {
        self.as_obj().and_then(|o| o.get(k))
    }

    /// Convert parsed JSON into a `Val`, putting array-index keys first as JS does.
    /// Iterative, so any nesting depth is safe.
    pub fn from_json(v: &serde_json::Value) -> Val {
        from_json_iter(v, false)
    }

    /// [`Val::from_json`] of JSON written with the wire encoding (the JS wrapper's encoder for
    /// values that may hold `undefined` or stand for objects the caller keeps): the string
    /// `"\u0000u"` is `Undef`, `"\u0000e<i>"` is `Event(i)`, and a string starting with U+0000
    /// loses that first U+0000.
    pub fn from_wire_json(v: &serde_json::Value) -> Val {
        from_json_iter(v, true)
    }

    /// Encode for the JS layer (see module docs).
    pub fn write_json(&self, out: &mut String) {
        write_val(self, out, &|_| None, &mut None);
    }

    /// `write_json`, writing a string for which `field_of` names its source (input event
    /// index, event field) as a reference to that field (only strings of at least
    /// [`MIN_FIELD_REF_LEN`] bytes, where the reference is shorter than the text).
    pub fn write_json_with(&self, out: &mut String, field_of: &StrSource<'_>) {
        write_val(self, out, field_of, &mut None);
    }

    /// [`Val::write_json_with`], handing the text to `flush.sink` whenever `out` holds at least
    /// `flush.at` bytes between two members or items: the text the sink takes, followed by what
    /// is left in `out` at the end, is exactly what `write_json_with` writes.
    pub fn write_json_flushed(&self, out: &mut String, field_of: &StrSource<'_>, flush: Flush<'_>) {
        write_val(self, out, field_of, &mut Some(flush));
    }

    pub fn to_json(&self) -> String {
        let mut s = String::new();
        self.write_json(&mut s);
        s
    }

    /// JS `JSON.stringify(v)` text (undefined members dropped, undefined array slots `null`).
    /// `event_json` writes input event `i` (for `Val::Event`) and returns whether it did.
    /// Returns `None` when the top-level value is `undefined` (stringify returns undefined).
    pub fn js_stringify(
        &self,
        event_json: &mut dyn FnMut(u32, &mut String) -> bool,
    ) -> Option<String> {
        if self.is_undef() {
            return None;
        }
        let mut s = String::new();
        stringify_val(self, &mut s, event_json);
        Some(s)
    }
}

impl Val {
    /// This value with every `Event(i)` replaced by `events[i]` (indexes past the list are
    /// kept): for outputs that refer to events the caller does not hold. Containers without an
    /// event are shared, not copied. Recursion is bounded as in [`Val::write_json`].
    pub fn with_events(&self, events: &[Val]) -> Val {
        match self {
            Val::Event(i) => events
                .get(*i as usize)
                .cloned()
                .unwrap_or_else(|| self.clone()),
            Val::Arr(a) => {
                let items: Vec<Val> = a.iter().map(|x| x.with_events(events)).collect();
                if items.iter().zip(a.iter()).all(|(x, y)| same_ref(x, y)) {
                    self.clone()
                } else {
                    Val::arr(items)
                }
            }
            Val::Obj(o) => {
                let mut changed = false;
                let mut out = Obj::with_capacity(o.len());
                for (k, x) in o.entries.iter() {
                    let y = x.with_events(events);
                    changed |= !same_ref(x, &y);
                    out.entries.push((k.clone(), y));
                }
                if changed {
                    out.into_val()
                } else {
                    self.clone()
                }
            }
            _ => self.clone(),
        }
    }
}

/// The same container (`Rc`), or equal scalars.
fn same_ref(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Arr(x), Val::Arr(y)) => Rc::ptr_eq(x, y),
        (Val::Obj(x), Val::Obj(y)) => Rc::ptr_eq(x, y),
        (Val::Arr(_) | Val::Obj(_), _) | (_, Val::Arr(_) | Val::Obj(_)) => false,
        _ => deep_equal(a, b),
    }
}

/// Drop a value without recursion. `Val`'s own drop recurses through nested arrays and
/// objects; use this for values whose nesting is not bounded by a parser.
pub fn drop_deep(v: Val) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Val::Arr(rc) => {
                if let Ok(items) = Rc::try_unwrap(rc) {
                    stack.extend(items);
                }
            }
            Val::Obj(rc) => {
                if let Ok(o) = Rc::try_unwrap(rc) {
                    stack.extend(o.entries.into_iter().map(|(_, x)| x));
                }
            }
            _ => {}
        }
    }
}

/// Structural equality as `assert.deepStrictEqual` sees it (key order ignored, `Undef` ≠ absent).
pub fn deep_equal(a: &Val, b: &Val) -> bool {
    equal(a, b, false)
}

/// [`deep_equal`], and every object's keys in the same order: a receiver that holds one of the
/// two holds the other (a state delta that replaces a key puts it last, an equal value).
pub fn equal_in_order(a: &Val, b: &Val) -> bool {
    equal(a, b, true)
}

fn equal(a: &Val, b: &Val, ordered: bool) -> bool {
    match (a, b) {
        (Val::Undef, Val::Undef) | (Val::Null, Val::Null) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Num(x), Val::Num(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Event(x), Val::Event(y)) => x == y,
        (Val::Made(x), Val::Made(y)) => x == y,
        (Val::Arr(x), Val::Arr(y)) => {
            Rc::ptr_eq(x, y)
                || (x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q, ordered)))
        }
        (Val::Obj(x), Val::Obj(y)) => {
            Rc::ptr_eq(x, y)
                || (x.len() == y.len()
                    && x.iter().zip(y.iter()).all(|((j, p), (k, q))| {
                        let w = if ordered {
                            (j == k).then_some(q)
                        } else {
                            y.get(j)
                        };
                        w.is_some_and(|w| equal(p, w, ordered))
                    }))
        }
        _ => false,
    }
}

enum Frame<'a> {
    Arr(std::slice::Iter<'a, serde_json::Value>, Vec<Val>),
    Obj(
        Vec<(&'a String, &'a serde_json::Value)>,
        usize,
        Obj,
        Option<Key>,
    ),
}

fn scalar(v: &serde_json::Value, wire: bool) -> Option<Val> {
    Some(match v {
        serde_json::Value::Null => Val::Null,
        serde_json::Value::Bool(b) => Val::Bool(*b),
        serde_json::Value::Number(n) => Val::Num(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(s) if wire => wire_string(s),
        serde_json::Value::String(s) => Val::str(s),
        _ => return None,
    })
}

/// A string of the wire encoding (see [`Val::from_wire_json`]).
pub(crate) fn wire_string(s: &str) -> Val {
    let Some(rest) = s.strip_prefix('\0') else {
        return Val::str(s);
    };
    if rest == "u" {
        return Val::Undef;
    }
    if let Some(i) = rest
        .strip_prefix('e')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse::<u32>().ok())
    {
        return Val::Event(i);
    }
    Val::str(rest)
}

fn ordered_entries(
    m: &serde_json::Map<String, serde_json::Value>,
) -> Vec<(&String, &serde_json::Value)> {
    let mut idx: Vec<(u32, (&String, &serde_json::Value))> = Vec::new();
    let mut rest = Vec::with_capacity(m.len());
    for (k, v) in m.iter() {
        match is_array_index_key(k) {
            Some(i) => idx.push((i, (k, v))),
            None => rest.push((k, v)),
        }
    }
    if idx.is_empty() {
        return rest;
    }
    super::order::stable_sort_by_key(&mut idx, |(i, _)| u64::from(*i));
    let mut out: Vec<_> = idx.into_iter().map(|(_, e)| e).collect();
    out.extend(rest);
    out
}

fn from_json_iter(root: &serde_json::Value, wire: bool) -> Val {
    if let Some(v) = scalar(root, wire) {
        return v;
    }
    let mut stack: Vec<Frame> = Vec::new();
    fn open(v: &serde_json::Value) -> Frame<'_> {
        match v {
            serde_json::Value::Array(a) => Frame::Arr(a.iter(), Vec::with_capacity(a.len())),
            serde_json::Value::Object(m) => {
                let e = ordered_entries(m);
                let n = e.len();
                Frame::Obj(e, 0, Obj::with_capacity(n), None)
            }
            _ => Frame::Arr([].iter(), Vec::new()),
        }
    }
    stack.push(open(root));
    loop {
        // Advance the top frame to its next child.
        let next: Option<&serde_json::Value> = match stack.last_mut() {
            None => return Val::Undef,
            Some(Frame::Arr(it, _)) => it.next(),
            Some(Frame::Obj(entries, pos, _, pending)) => {
                if *pos < entries.len() {
                    let (k, v) = entries[*pos];
                    *pos += 1;
                    *pending = Some(Key::dynamic(k));
                    Some(v)
                } else {
                    None
                }
            }
        };
        match next {
            Some(child) => {
                if let Some(v) = scalar(child, wire) {
                    push_child(stack.last_mut(), v);
                } else {
                    stack.push(open(child));
                }
            }
            None => {
                let done = match stack.pop() {
                    Some(Frame::Arr(_, items)) => Val::input_arr(items),
                    Some(Frame::Obj(_, _, o, _)) => o.into_val(),
                    None => Val::Undef,
                };
                if stack.is_empty() {
                    return done;
                }
                push_child(stack.last_mut(), done);
            }
        }
    }
}

fn push_child(frame: Option<&mut Frame>, v: Val) {
    match frame {
        Some(Frame::Arr(_, items)) => items.push(v),
        Some(Frame::Obj(_, _, o, pending)) => {
            if let Some(k) = pending.take() {
                // Keys were already ordered and are unique in a parsed map.
                o.entries.push((k, v));
            }
        }
        None => {}
    }
}

fn write_num(n: f64, out: &mut String) {
    if !n.is_finite() {
        out.push_str("null");
    } else if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        write_int(n as i64, out);
    } else {
        out.push_str(&js_number_to_string(n));
    }
}

/// Decimal digits of an index or length (no formatting machinery: the wire writes many).
pub fn write_uint(n: usize, out: &mut String) {
    write_digits(n as u64, out);
}

/// Decimal digits of an integer.
fn write_int(n: i64, out: &mut String) {
    if n < 0 {
        out.push('-');
    }
    write_digits(n.unsigned_abs(), out);
}

fn write_digits(mut m: u64, out: &mut String) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(d) = buf.get_mut(at) {
            *d = b'0' + (m % 10) as u8;
        }
        m /= 10;
        if m == 0 || at == 0 {
            break;
        }
    }
    for &d in buf.get(at..).unwrap_or(&[]) {
        out.push(d as char);
    }
}

/// For each byte: 0 = written as is, otherwise the character after the backslash of its JSON
/// escape (`u` for the `\u00XX` form).
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// JSON string literal, JS `JSON.stringify` escaping.
pub fn write_json_str(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push('"');
    // Most strings (every key, most values) need no escape: one scan, one copy. Otherwise the
    // copy goes on from the first byte that needs one, without scanning its prefix again.
    let Some(first) = bytes.iter().position(|&b| needs_escape(b)) else {
        out.push_str(s);
        out.push('"');
        return;
    };
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate().skip(first) {
        if !needs_escape(b) {
            continue;
        }
        out.push_str(s.get(start..i).unwrap_or(""));
        push_escaped(b, out);
        start = i + 1;
    }
    out.push_str(s.get(start..).unwrap_or(""));
    out.push('"');
}

/// A byte JSON text must escape: a control character, a quote or a backslash.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The escape of a byte that [`needs_escape`].
fn push_escaped(b: u8, out: &mut String) {
    match ESCAPE.get(usize::from(b)) {
        Some(b'u') | None => push_unit(u16::from(b), out),
        Some(&esc) => {
            out.push('\\');
            out.push(char::from(esc));
        }
    }
}

/// `\uXXXX`.
fn push_unit(u: u16, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(char::from(HEX[usize::from((u >> shift) & 15)]));
    }
}

/// JSON string literal for the wire, ASCII only: as [`write_json_str`], with every character
/// beyond ASCII written as `\uXXXX` escapes (UTF-16 units). `JSON.parse` gives the same
/// string; the whole wire text stays ASCII, which the JS side turns into a string several
/// times faster than UTF-8 with a few characters beyond ASCII (Node's `TextDecoder` fast path),
/// and into a one-byte string that `JSON.parse` reads faster.
pub fn write_wire_str(s: &str, out: &mut String) {
    // Most strings are plain ASCII: one scan, one copy.
    if !s.bytes().any(|b| b >= 0x80 || needs_escape(b)) {
        out.reserve(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
        return;
    }
    if s.is_ascii() {
        return write_json_str(s, out);
    }
    out.reserve(s.len() * 2 + 2);
    out.push('"');
    let mut units = [0u16; 2];
    for c in s.chars() {
        match u8::try_from(c) {
            Ok(b) if b.is_ascii() && !needs_escape(b) => out.push(c),
            Ok(b) if b.is_ascii() => push_escaped(b, out),
            _ => c
                .encode_utf16(&mut units)
                .iter()
                .for_each(|&u| push_unit(u, out)),
        }
    }
    out.push('"');
}

/// JSON array of string literals ([`write_json_str`] each).
pub fn write_json_str_list(items: &[&str], out: &mut String) {
    write_json_list(items, out, |s, out| write_json_str(s, out));
}

/// JSON array of `items`, each written by `each`.
pub fn write_json_list<T>(items: &[T], out: &mut String, each: impl Fn(&T, &mut String)) {
    out.push('[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(x, out);
    }
    out.push(']');
}

/// JSON object of string members ([`write_json_str`] each name and value), in the given order.
pub fn write_json_str_map<'a>(
    members: impl IntoIterator<Item = (&'a str, &'a str)>,
    out: &mut String,
) {
    out.push('{');
    for (i, (name, value)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_str(name, out);
        out.push(':');
        write_json_str(value, out);
    }
    out.push('}');
}

/// Where a shared string came from: `(input event index, event field name)`.
pub type StrSource<'a> = dyn Fn(&Rc<str>) -> Option<(u32, &'static str)> + 'a;

/// Strings shorter than this are written out even when their source is known.
pub const MIN_FIELD_REF_LEN: usize = 32;

/// Where a long text goes while it is written ([`Val::write_json_flushed`]), so the writer holds
/// about `at` bytes (plus one member or item) rather than the whole text.
pub struct Flush<'a> {
    /// Hand the text over once `out` holds this many bytes.
    pub at: usize,
    /// Takes the text written so far; it empties `out` when it took the text, and leaves it as
    /// it is when it could not (the text then stays in `out` and goes with the rest).
    pub sink: &'a mut dyn FnMut(&mut String),
}

/// Hand `out` to the flush's sink if it holds enough.
#[inline]
fn flush_full(out: &mut String, flush: &mut Option<Flush<'_>>) {
    if let Some(f) = flush {
        if out.len() >= f.at {
            (f.sink)(out);
        }
    }
}

/// Recursion is bounded: outputs are built by the projection, whose nesting comes from input
/// values already parsed under the depth limit.
fn write_val(v: &Val, out: &mut String, field_of: &StrSource<'_>, flush: &mut Option<Flush<'_>>) {
    match v {
        Val::Undef => out.push_str("\"\\u0000u\""),
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Num(n) => write_num(*n, out),
        Val::Str(s) => {
            if s.len() >= MIN_FIELD_REF_LEN {
                if let Some((i, f)) = field_of(s) {
                    out.push_str("\"\\u0000f");
                    write_uint(i as usize, out);
                    out.push(':');
                    out.push_str(f);
                    out.push('"');
                    return;
                }
            }
            if s.as_bytes().first() == Some(&0) {
                out.push_str("\"\\u0000");
                let mut tmp = String::new();
                write_wire_str(s, &mut tmp);
                out.push_str(tmp.get(1..).unwrap_or_default());
            } else {
                write_wire_str(s, out);
            }
        }
        Val::Event(i) => {
            out.push_str("\"\\u0000e");
            write_uint(*i as usize, out);
            out.push('"');
        }
        Val::Made(m) => write_made(m, out),
        Val::Arr(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_val(x, out, field_of, flush);
                flush_full(out, flush);
            }
            out.push(']');
        }
        Val::Obj(o) => {
            out.push('{');
            for (i, (k, x)) in o.entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_key(k, out);
                out.push(':');
                write_val(x, out, field_of, flush);
                flush_full(out, flush);
            }
            out.push('}');
        }
    }
}

/// A member name as JSON: the crate's own (static) names need no escape and are copied as they
/// are; names from the input go through [`write_wire_str`].
fn write_key(k: &Key, out: &mut String) {
    match k {
        Key::S(s) => {
            debug_assert!(!s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'));
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Key::D(s) => write_wire_str(s, out),
    }
}

/// `"\u0000t<template>:<event>:<code>:<code>:<code>"`.
fn write_made(m: &Made, out: &mut String) {
    out.push_str("\"\\u0000t");
    write_uint(usize::from(m.template), out);
    out.push(':');
    write_uint(m.event as usize, out);
    for c in m.codes {
        out.push(':');
        write_uint(usize::from(c), out);
    }
    out.push('"');
}

fn stringify_val(v: &Val, out: &mut String, ev: &mut dyn FnMut(u32, &mut String) -> bool) {
    match v {
        Val::Undef => out.push_str("null"),
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Num(n) => {
            if n.is_finite() {
                out.push_str(&js_number_to_string(*n))
            } else {
                out.push_str("null")
            }
        }
        Val::Str(s) => write_json_str(s, out),
        Val::Event(i) => {
            if !ev(*i, out) {
                out.push_str("null");
            }
        }
        // Expanded before anything stringifies a projection's values (`Projector::expand`).
        Val::Made(_) => out.push_str("null"),
        Val::Arr(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                stringify_val(x, out, ev);
            }
            out.push(']');
        }
        Val::Obj(o) => {
            out.push('{');
            let mut first = true;
            for (k, x) in o.iter() {
                if x.is_undef() {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                write_json_str(k, out);
                out.push(':');
                stringify_val(x, out, ev);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Empty arrays the projection builds share one allocation, but every array read from
    /// input keeps an identity of its own: two events' `[]` are two `Set` members, two graph
    /// node ids.
    #[test]
    fn input_arrays_keep_their_identity() {
        let parsed = |text: &str| {
            let value: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            Val::from_json(&value)
        };
        let wire = |text: &str| crate::contract::json::parse_wire_val(text).unwrap_or_default();
        for (a, b) in [
            (parsed("[]"), parsed("[]")),
            (wire("[]"), wire("[]")),
            (parsed("[]"), Val::arr(Vec::new())),
        ] {
            assert!(matches!((&a, &b), (Val::Arr(_), Val::Arr(_))));
            assert_ne!(a.key(), b.key());
        }
        let nested = parsed("[[], []]");
        let items = nested.as_arr().unwrap_or(&[]);
        assert_eq!(items.len(), 2);
        assert_ne!(items[0].key(), items[1].key());
        // Built empty lists are one value (the saving), equal as JSON to any other `[]`.
        assert_eq!(Val::arr(Vec::new()).key(), Val::arr(Vec::new()).key());
    }

    /// Strings every string writer is tried on: all of ASCII, text beyond it (two-, three- and
    /// four-byte UTF-8, U+2028, the largest code points), escapes and a U+0000 prefix.
    fn sample_strings() -> Vec<String> {
        let mut all: String = (0u32..0x80).filter_map(char::from_u32).collect();
        all.push_str("é\u{2028}\u{2029}😀\"\\需要配置模型\u{ffff}\u{10ffff}");
        let rest = [
            "",
            "plain",
            "\u{0}x",
            "a\u{1f}b",
            "tail\"",
            "a\\b\nc\t",
            "草稿",
            "a😀",
            "😀",
            "é",
        ];
        std::iter::once(all)
            .chain(rest.iter().map(|s| s.to_string()))
            .collect()
    }

    #[test]
    fn wire_strings_are_ascii_and_read_back_the_same() {
        for s in sample_strings() {
            let mut out = String::new();
            write_wire_str(&s, &mut out);
            assert!(out.is_ascii(), "{out}");
            let back: String = serde_json::from_str(&out).unwrap_or_default();
            assert_eq!(back, s);
            if s.is_ascii() {
                let mut js = String::new();
                write_json_str(&s, &mut js);
                assert_eq!(out, js);
            }
        }
        let mut out = String::new();
        Val::str("\u{0}草").write_json(&mut out);
        assert_eq!(out, "\"\\u0000\\u0000\\u8349\"");
    }

    #[test]
    fn json_strings_escape_as_json_stringify() {
        // JSON.stringify and serde_json agree on escapes for valid Unicode text.
        for s in sample_strings() {
            let mut out = String::new();
            write_json_str(&s, &mut out);
            assert_eq!(out, serde_json::to_string(&s).unwrap_or_default());
        }
        for n in [
            0.0,
            -0.0,
            7.0,
            -12345.0,
            9007199254740991.0,
            -9007199254740991.0,
            1.5,
        ] {
            let mut out = String::new();
            write_num(n, &mut out);
            assert_eq!(out, js_number_to_string(n));
        }
    }

    #[test]
    fn object_key_order_follows_js() {
        let mut o = Obj::new();
        o.set("b", Val::Num(1.0));
        o.set_dyn("10", Val::Num(2.0));
        o.set_dyn("2", Val::Num(3.0));
        o.set("a", Val::Num(4.0));
        o.set("b", Val::Num(5.0));
        let keys: Vec<&str> = o.keys().collect();
        assert_eq!(keys, vec!["2", "10", "b", "a"]);
    }

    #[test]
    fn wire_encoding_marks_undefined_and_escapes_nul() {
        let v = Obj::new()
            .k("a", Val::Undef)
            .k("b", Val::str("\u{0}x"))
            .k("c", Val::Event(3))
            .into_val();
        assert_eq!(
            v.to_json(),
            r#"{"a":"\u0000u","b":"\u0000\u0000x","c":"\u0000e3"}"#
        );
    }

    #[test]
    fn flushed_pieces_make_the_whole_text() {
        let item = |i: u32| {
            Obj::new()
                .k("id", Val::str(&format!("item-{i}")))
                .k("event", Val::Event(i))
                .k("tags", Val::arr(vec![Val::Undef, Val::Num(f64::from(i))]))
                .into_val()
        };
        let v = Obj::new()
            .k("items", Val::arr((0..40).map(item).collect()))
            .k("nested", Obj::new().k("list", Val::arr(vec![])).into_val())
            .k("last", Val::str("end"))
            .into_val();
        let whole = v.to_json();
        for at in [0, 1, 7, 64, 300, whole.len(), whole.len() + 1] {
            let mut pieces: Vec<String> = Vec::new();
            let mut take = |out: &mut String| {
                pieces.push(std::mem::take(out));
            };
            let mut out = String::new();
            let flush = Flush {
                at,
                sink: &mut take,
            };
            v.write_json_flushed(&mut out, &|_| None, flush);
            let n = pieces.len();
            assert_eq!(pieces.concat() + &out, whole, "at {at}");
            // Pieces are handed over between members or items, each once it reached `at`.
            assert!(pieces.iter().all(|p| p.len() >= at), "at {at}");
            assert_eq!(n == 0, at > whole.len() - 1, "at {at}: {n} pieces");
        }
        // A sink that cannot take the text leaves it where it is: the result is then whole.
        let mut refuse = |_: &mut String| {};
        let mut out = String::new();
        v.write_json_flushed(
            &mut out,
            &|_| None,
            Flush {
                at: 1,
                sink: &mut refuse,
            },
        );
        assert_eq!(out, whole);
    }

    #[test]
    fn wire_text_reads_back() {
        let v = Obj::new()
            .k("a", Val::Undef)
            .k("b", Val::str("\u{0}x"))
            .k("c", Val::Event(3))
            .k("d", Val::arr(vec![Val::Undef, Val::str("\u{0}e")]))
            .into_val();
        let parsed: serde_json::Value =
            serde_json::from_str(&v.to_json()).unwrap_or(serde_json::Value::Null);
        assert!(deep_equal(&Val::from_wire_json(&parsed), &v));
        // Plain JSON reading keeps the markers as text.
        assert_eq!(
            Val::from_json(&parsed).get("a").and_then(Val::as_str),
            Some("\u{0}u")
        );
    }

    #[test]
    fn from_json_handles_deep_nesting_without_recursion() {
        let mut v = serde_json::Value::Null;
        for _ in 0..100_000 {
            v = serde_json::Value::Array(vec![v]);
        }
        let out = Val::from_json(&v);
        assert!(matches!(out, Val::Arr(_)));
        // Drop iteratively is not needed for the test's correctness; leak to avoid deep drop.
        std::mem::forget(out);
        std::mem::forget(v);
    }

    #[test]
    fn stringify_drops_undefined_members() {
        let v = Obj::new()
            .k("a", Val::Undef)
            .k("b", Val::arr(vec![Val::Undef, Val::Num(1.5)]))
            .into_val();
        assert_eq!(
            v.js_stringify(&mut |_, _| false).as_deref(),
            Some(r#"{"b":[null,1.5]}"#)
        );
    }
}

/// A JS `Map`/`Set` key (SameValueZero): primitives by value, objects and arrays by identity
/// (the `Rc` they live in, which the collection keeps alive beside the key), input events by
/// index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum JsKey {
    Undef,
    Null,
    Bool(bool),
    /// The bits of the number, `-0` as `+0` (NaN cannot come from JSON).
    Num(u64),
    Str(Rc<str>),
    Ref(usize),
    Event(u32),
    Made(Made),
}

impl Val {
    /// How an error message names the kind of value.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Undef => "undefined",
            Val::Null => "null",
            Val::Bool(_) => "a boolean",
            Val::Num(_) => "a number",
            Val::Str(_) => "a string",
            Val::Arr(_) => "an array",
            Val::Obj(_) | Val::Event(_) | Val::Made(_) => "an object",
        }
    }

    /// This value as a `Map`/`Set` key (see [`JsKey`]).
    pub fn key(&self) -> JsKey {
        match self {
            Val::Undef => JsKey::Undef,
            Val::Null => JsKey::Null,
            Val::Bool(b) => JsKey::Bool(*b),
            Val::Num(n) => JsKey::Num(if *n == 0.0 { 0 } else { n.to_bits() }),
            Val::Str(s) => JsKey::Str(s.clone()),
            Val::Arr(a) => JsKey::Ref(Rc::as_ptr(a) as *const u8 as usize),
            Val::Obj(o) => JsKey::Ref(Rc::as_ptr(o) as *const u8 as usize),
            Val::Event(i) => JsKey::Event(*i),
            Val::Made(m) => JsKey::Made(*m),
        }
    }

    /// JS `String(v)`, as a template literal or `Array.prototype.join` converts it: objects
    /// print `[object Object]`, arrays join their items with `,` (`null` and `undefined` items
    /// print empty). Arrays nested deeper than [`STRING_DEPTH`] print empty (JSON input never
    /// nests that deep through a projection).
    pub fn to_js_string(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Val::Str(s) => std::borrow::Cow::Borrowed(s),
            other => {
                let mut out = String::new();
                other.push_js_string(&mut out, STRING_DEPTH);
                std::borrow::Cow::Owned(out)
            }
        }
    }

    fn push_js_string(&self, out: &mut String, depth: usize) {
        match self {
            Val::Undef => out.push_str("undefined"),
            Val::Null => out.push_str("null"),
            Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Val::Num(n) => out.push_str(&js_number_to_string(*n)),
            Val::Str(s) => out.push_str(s),
            Val::Obj(_) | Val::Event(_) | Val::Made(_) => out.push_str("[object Object]"),
            Val::Arr(items) => {
                let Some(depth) = depth.checked_sub(1) else {
                    return;
                };
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if !x.is_nullish() {
                        x.push_js_string(out, depth);
                    }
                }
            }
        }
    }
}

/// Nesting depth [`Val::to_js_string`] follows into arrays.
pub const STRING_DEPTH: usize = 128;

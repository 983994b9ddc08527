//! The runtime event model: `AgentRuntimeExecutionEvent` (contracts.md §1.1).
//!
//! Events are kept as parsed JSON objects (`serde_json::Map`, key order preserved) so that every
//! field, known or unknown, survives untouched; `Ev` gives typed, JS-faithful read access, and
//! `Js` a field as the reference's JavaScript sees it (any JSON value, or `undefined`), so odd
//! events (a field of the wrong type) are read as the reference reads them. `Odd` is what the
//! reference's projection throws on. `check_carryable` is the boundary of the projection (an
//! object, nesting at most 64 levels); `check_event` the strict one (no non-empty string `id`,
//! a known field of the wrong JSON type), while contract-rule breaches (missing scope ids, secret
//! keys) are left to validation.

use serde_json::{Map, Value};

use super::js::{has_content, js_trim};
use super::val::Val;

use super::event_model::{FieldKind, EVENT_MODEL};

/// Every field of `AgentRuntimeExecutionEvent`, in declaration order (from the event model's
/// field table, [`EVENT_MODEL`]).
pub const EVENT_FIELDS: [&str; EVENT_MODEL.len()] = {
    let mut out = [""; EVENT_MODEL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = EVENT_MODEL[i].name;
        i += 1;
    }
    out
};

/// How many fields of the table are of `kind`.
const fn count_kind(kind: FieldKind) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < EVENT_MODEL.len() {
        if EVENT_MODEL[i].kind as u8 == kind as u8 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The names of the fields of `kind`, in declaration order.
const fn names_of_kind<const N: usize>(kind: FieldKind) -> [&'static str; N] {
    let mut out = [""; N];
    let mut n = 0;
    let mut i = 0;
    while i < EVENT_MODEL.len() {
        if EVENT_MODEL[i].kind as u8 == kind as u8 && n < N {
            out[n] = EVENT_MODEL[i].name;
            n += 1;
        }
        i += 1;
    }
    out
}

/// Fields whose value must be a string when present (null is tolerated as "no value").
pub const STRING_FIELDS: [&str; count_kind(FieldKind::Str)] = names_of_kind(FieldKind::Str);

/// The three reference arrays of an event.
pub const REF_FIELDS: [&str; count_kind(FieldKind::StrList)] = names_of_kind(FieldKind::StrList);

/// Maximum nesting depth of an event accepted by the projection (objects and arrays).
pub const MAX_EVENT_DEPTH: usize = 64;

/// Why an input could not be taken as an event.
#[derive(Debug, Clone, PartialEq)]
pub struct EventError {
    pub message: String,
}

impl std::fmt::Display for EventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EventError {}

/// The refusal of an event that is not an object.
pub fn not_an_object() -> EventError {
    err("Runtime event must be an object.")
}

fn err(msg: impl Into<String>) -> EventError {
    EventError {
        message: msg.into(),
    }
}

/// Nesting depth of a JSON value, computed without recursion.
pub fn json_depth(v: &Value) -> usize {
    let mut max = 0usize;
    let mut stack: Vec<(&Value, usize)> = vec![(v, 1)];
    while let Some((x, d)) = stack.pop() {
        match x {
            Value::Array(a) => {
                max = max.max(d);
                stack.extend(a.iter().map(|c| (c, d + 1)));
            }
            Value::Object(m) => {
                max = max.max(d);
                stack.extend(m.values().map(|c| (c, d + 1)));
            }
            _ => {}
        }
    }
    max
}

/// `FIELD_TABLE` of [`EVENT_FIELDS`] (see [`super::names`]).
const FIELD_TABLE: [u8; 128] = super::names::name_table(&EVENT_FIELDS);

/// Position of a known event field in [`EVENT_FIELDS`] (inlined: for a literal name it is
/// computed at compile time).
#[inline(always)]
pub fn field_slot(k: &str) -> Option<usize> {
    super::names::name_index(&EVENT_FIELDS, &FIELD_TABLE, k.as_bytes())
}

/// The slot of a field the table is known to hold (a compile-time error for any other name):
/// for tables of field names, whose readers then skip the name lookup ([`Ev::js_slot`]).
pub const fn slot_of(name: &str) -> usize {
    match super::names::const_position(&EVENT_FIELDS, name) {
        Some(slot) => slot,
        None => panic!("not a field of the event model"),
    }
}

/// The slots of a table of field names ([`slot_of`] of each).
pub const fn slots_of<const N: usize>(names: [&str; N]) -> [usize; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = slot_of(names[i]);
        i += 1;
    }
    out
}

const SLOT_SEQUENCE: usize = slot_of("sequence");
const SLOT_PAYLOAD: usize = slot_of("payload");
const SLOT_REFS: [usize; 3] = slots_of(REF_FIELDS);

/// Whether a value nests deeper than `limit` levels (the value itself is level 1). Recursion is
/// bounded by `limit + 1` frames.
pub(crate) fn deeper_than(v: &Value, limit: usize) -> bool {
    match v {
        Value::Array(a) => limit == 0 || a.iter().any(|c| deeper_than(c, limit - 1)),
        Value::Object(m) => limit == 0 || m.values().any(|c| deeper_than(c, limit - 1)),
        _ => false,
    }
}

/// Check that a parsed JSON value is a well-formed event for projection. One pass over the
/// event's members; when several fields are wrong, the error names the first in the order
/// id, the string fields (declaration order), sequence, the reference arrays, nesting.
pub fn check_event(v: &Value) -> Result<(), EventError> {
    let m = v.as_object().ok_or_else(not_an_object)?;
    // Rank of the first failure found so far (lower ranks are reported first).
    let mut worst: Option<(usize, usize)> = None;
    let mut fail = |rank: usize, slot: usize| match worst {
        Some((r, _)) if r <= rank => {}
        _ => worst = Some((rank, slot)),
    };
    let mut id_ok = false;
    let mut containers = false;
    for (k, x) in m {
        let Some(slot) = field_slot(k) else {
            containers |= matches!(x, Value::Array(_) | Value::Object(_));
            continue;
        };
        match slot {
            0 => id_ok = matches!(x, Value::String(s) if !s.is_empty()),
            SLOT_SEQUENCE => {
                if !matches!(x, Value::Null | Value::Number(_)) {
                    fail(100, slot);
                }
            }
            SLOT_PAYLOAD => containers |= matches!(x, Value::Array(_) | Value::Object(_)),
            s if SLOT_REFS.contains(&s) => match x {
                Value::Null => {}
                Value::Array(a) if a.iter().all(Value::is_string) => {}
                _ => fail(101 + s, slot),
            },
            _ => {
                if !matches!(x, Value::Null | Value::String(_)) {
                    fail(slot, slot);
                }
            }
        }
    }
    if !id_ok {
        return Err(err("Runtime event id must be a non-empty string."));
    }
    if let Some((rank, slot)) = worst {
        let f = EVENT_FIELDS.get(slot).copied().unwrap_or("");
        return Err(err(match rank {
            100 => "Runtime event field 'sequence' must be a number.".to_string(),
            r if r > 100 => format!("Runtime event field '{f}' must be an array of strings."),
            _ => format!("Runtime event field '{f}' must be a string."),
        }));
    }
    if containers && deeper_than(v, MAX_EVENT_DEPTH) {
        return Err(err(format!(
            "Runtime event nesting exceeds the limit of {MAX_EVENT_DEPTH} levels."
        )));
    }
    Ok(())
}

/// Parse JSON text (one event) and check it (`check_event`).
pub fn parse_event(text: &str) -> Result<Value, EventError> {
    let v: Value =
        super::json::parse_value(text).map_err(|e| err(format!("Invalid event JSON: {e}")))?;
    check_event(&v)?;
    Ok(v)
}

/// A value the projection cannot carry: what is refused whatever the mode (not an object, nesting
/// past [`MAX_EVENT_DEPTH`]). Returns the reason.
pub fn check_carryable(v: &Value) -> Result<(), EventError> {
    if !v.is_object() {
        return Err(not_an_object());
    }
    if deeper_than(v, MAX_EVENT_DEPTH) {
        return Err(too_deep());
    }
    Ok(())
}

/// The error of an event nested deeper than [`MAX_EVENT_DEPTH`] (also for text too deep to
/// parse).
pub fn too_deep() -> EventError {
    err(format!(
        "Runtime event nesting exceeds the limit of {MAX_EVENT_DEPTH} levels."
    ))
}

/// An event field as the reference's JavaScript reads it (`event.k`): any JSON value, or
/// `undefined` when absent.
#[derive(Clone, Copy, Debug)]
pub enum Js<'a> {
    Undef,
    Null,
    Bool(bool),
    Num(f64),
    Str(&'a str),
    Arr(&'a [Value]),
    Obj(&'a Map<String, Value>),
}

impl<'a> Js<'a> {
    pub fn of(v: Option<&'a Value>) -> Js<'a> {
        match v {
            None => Js::Undef,
            Some(Value::Null) => Js::Null,
            Some(Value::Bool(b)) => Js::Bool(*b),
            Some(Value::Number(n)) => Js::Num(n.as_f64().unwrap_or(f64::NAN)),
            Some(Value::String(s)) => Js::Str(s),
            Some(Value::Array(a)) => Js::Arr(a),
            Some(Value::Object(m)) => Js::Obj(m),
        }
    }

    /// `x == null`.
    pub fn is_nullish(self) -> bool {
        matches!(self, Js::Undef | Js::Null)
    }

    /// JS truthiness.
    pub fn truthy(self) -> bool {
        match self {
            Js::Undef | Js::Null => false,
            Js::Bool(b) => b,
            Js::Num(n) => n != 0.0 && !n.is_nan(),
            Js::Str(s) => !s.is_empty(),
            Js::Arr(_) | Js::Obj(_) => true,
        }
    }

    /// The string, when it is one (`typeof x === "string"`).
    pub fn as_str(self) -> Option<&'a str> {
        match self {
            Js::Str(s) => Some(s),
            _ => None,
        }
    }

    /// How an error message names the kind of value.
    pub fn type_name(self) -> &'static str {
        match self {
            Js::Undef => "undefined",
            Js::Null => "null",
            Js::Bool(_) => "a boolean",
            Js::Num(_) => "a number",
            Js::Str(_) => "a string",
            Js::Arr(_) => "an array",
            Js::Obj(_) => "an object",
        }
    }
}

/// How the reference's projection fails on an odd value: the native `TypeError` it throws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OddOp {
    /// A string method called on a value that is not a string (`value?.trim is not a function`).
    StringMethod,
    /// A value spread into a list that is not iterable (`[...value]`).
    Spread,
    /// `value?.forEach(...)` on a value that is not an array.
    ForEach,
}

/// Why the reference's projection throws on an event: the value it reads and what it does with
/// it. Such an event cannot be projected as the reference projects it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odd {
    /// Where the value comes from: an event field (`status`, `artifactRefs[1]`) or a value
    /// derived from one (`the text of its message part`).
    pub field: std::borrow::Cow<'static, str>,
    /// What it is (`a number`).
    pub found: &'static str,
    pub op: OddOp,
}

impl Odd {
    pub fn new(
        field: impl Into<std::borrow::Cow<'static, str>>,
        found: &'static str,
        op: OddOp,
    ) -> Odd {
        Odd {
            field: field.into(),
            found,
            op,
        }
    }
}

impl std::fmt::Display for Odd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.op {
            OddOp::StringMethod => "calls a string method on",
            OddOp::Spread => "spreads as a list",
            OddOp::ForEach => "calls forEach on",
        };
        write!(
            f,
            "the reference projection throws a TypeError on this event: it {what} {} ({})",
            self.field, self.found
        )
    }
}

/// Members of a small object are found by a linear scan (no key hashing); larger objects use
/// the map's index.
const SMALL_OBJECT: usize = 16;

/// `rec[k]` for a JSON object, cheap on the small objects events are made of.
#[inline]
pub fn obj_get<'a>(rec: &'a Map<String, Value>, k: &str) -> Option<&'a Value> {
    if rec.len() <= SMALL_OBJECT {
        rec.iter().find(|(kk, _)| kk.as_str() == k).map(|(_, v)| v)
    } else {
        rec.get(k)
    }
}

/// A field of an event as it was read: a string (borrowed from the event's text when a record
/// read it, [`super::record::EventRecord`]) or any other JSON value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Field<'a> {
    Str(&'a str),
    Json(&'a Value),
}

impl<'a> Field<'a> {
    /// The field as the reference's JavaScript sees it.
    pub fn js(self) -> Js<'a> {
        match self {
            Field::Str(s) => Js::Str(s),
            Field::Json(v) => Js::of(Some(v)),
        }
    }

    /// The string, when it is one.
    pub fn as_str(self) -> Option<&'a str> {
        match self {
            Field::Str(s) => Some(s),
            Field::Json(v) => v.as_str(),
        }
    }

    /// The JSON value, when it is not a string.
    pub fn json(self) -> Option<&'a Value> {
        match self {
            Field::Str(_) => None,
            Field::Json(v) => Some(v),
        }
    }

    pub fn is_null(self) -> bool {
        matches!(self, Field::Json(Value::Null))
    }

    pub fn as_f64(self) -> Option<f64> {
        self.json().and_then(Value::as_f64)
    }

    pub fn as_array(self) -> Option<&'a Vec<Value>> {
        self.json().and_then(Value::as_array)
    }

    pub fn as_object(self) -> Option<&'a Map<String, Value>> {
        self.json().and_then(Value::as_object)
    }

    /// The field as an output value.
    pub fn val(self) -> Val {
        match self {
            Field::Str(s) => Val::str(s),
            Field::Json(v) => Val::from_json(v),
        }
    }

    /// The field as a JSON value (a string field copied into one).
    #[cfg(test)]
    pub fn to_value(self) -> std::borrow::Cow<'a, Value> {
        match self {
            Field::Str(s) => std::borrow::Cow::Owned(Value::String(s.to_owned())),
            Field::Json(v) => std::borrow::Cow::Borrowed(v),
        }
    }
}

/// One event's known fields, located once (see [`Ev::indexed`]), and their output values made
/// once and shared by every view that copies them (one string allocation per field, not one
/// per view).
pub struct EvIndex<'a> {
    fields: [Option<Field<'a>>; EVENT_FIELDS.len()],
    vals: [std::cell::OnceCell<Val>; EVENT_FIELDS.len()],
}

impl<'a> EvIndex<'a> {
    pub fn new(map: &'a Map<String, Value>) -> EvIndex<'a> {
        let mut fields = [None; EVENT_FIELDS.len()];
        for (k, v) in map {
            if let Some(slot) = fields.get_mut(field_slot(k).unwrap_or(usize::MAX)) {
                *slot = Some(Field::Json(v));
            }
        }
        EvIndex::from_fields(fields)
    }

    /// The index of fields already located (a [`super::record::EventRecord`]'s slots).
    pub fn from_fields(fields: [Option<Field<'a>>; EVENT_FIELDS.len()]) -> EvIndex<'a> {
        EvIndex {
            fields,
            vals: std::array::from_fn(|_| std::cell::OnceCell::new()),
        }
    }
}

impl EvIndex<'_> {
    /// The field strings handed out by [`Ev::val`] so far: `(field name, shared string)`.
    pub fn shared_strings(&self) -> impl Iterator<Item = (&'static str, &std::rc::Rc<str>)> {
        EVENT_FIELDS
            .iter()
            .zip(self.vals.iter())
            .filter_map(|(f, cell)| match cell.get() {
                Some(Val::Str(s)) => Some((*f, s)),
                _ => None,
            })
    }
}

/// Typed read access to an event object, with the reference's JS semantics.
#[derive(Clone, Copy)]
pub struct Ev<'a> {
    pub map: &'a Map<String, Value>,
    index: Option<&'a EvIndex<'a>>,
}

impl std::fmt::Debug for Ev<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ev").field("map", self.map).finish()
    }
}

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

/// An empty record (what a value that is not an object reads as, as an event).
pub fn empty_record() -> &'static Map<String, Value> {
    EMPTY.get_or_init(Map::new)
}

/// `v` read as an event's record: its map, or [`empty_record`] when it is not an object.
pub fn record_of(v: &Value) -> &Map<String, Value> {
    v.as_object().unwrap_or_else(|| empty_record())
}

impl<'a> Ev<'a> {
    pub fn new(map: &'a Map<String, Value>) -> Ev<'a> {
        Ev { map, index: None }
    }

    /// An `Ev` whose field reads go through `index` (built over the same `map`).
    pub fn indexed(map: &'a Map<String, Value>, index: &'a EvIndex<'a>) -> Ev<'a> {
        Ev {
            map,
            index: Some(index),
        }
    }

    /// An `Ev` over a JSON value; non-objects read as an empty event.
    pub fn of(v: &'a Value) -> Ev<'a> {
        Ev::new(record_of(v))
    }

    /// `f` of `v` read as an event (a non-object as an empty one) whose fields are located once,
    /// as the projector reads its events: for a caller that reads many fields of each event.
    pub fn with_indexed<R>(v: &Value, f: impl FnOnce(Ev<'_>) -> R) -> R {
        let map = record_of(v);
        let index = EvIndex::new(map);
        f(Ev::indexed(map, &index))
    }

    // The accessors taking a field name are inlined so that, for the literal names the views
    // pass, `field_slot` folds to a constant at compile time: each read of a known field is
    // then one array load, with no name lookup at run time.

    /// Raw field value (`None` when absent).
    #[inline(always)]
    pub fn get(&self, k: &str) -> Option<Field<'a>> {
        self.get_at(field_slot(k), k)
    }

    /// `get` with the field's slot already resolved.
    fn get_at(&self, slot: Option<usize>, k: &str) -> Option<Field<'a>> {
        self.located(slot, k)
    }

    /// [`Self::get_at`], inlined into the few readers below: a located field is one load.
    #[inline(always)]
    fn located(&self, slot: Option<usize>, k: &str) -> Option<Field<'a>> {
        if let (Some(ix), Some(slot)) = (self.index, slot) {
            return ix.fields.get(slot).copied().flatten();
        }
        self.get_by_name(k)
    }

    /// A member read by name: an event whose fields are not located, or a name that is not a
    /// field of the model.
    #[inline(never)]
    fn get_by_name(&self, k: &str) -> Option<Field<'a>> {
        obj_get(self.map, k).map(Field::Json)
    }

    /// The field as an output value (`undefined` when absent); strings are shared between
    /// calls on an indexed event.
    #[inline(always)]
    pub fn val(&self, k: &str) -> Val {
        self.val_at(field_slot(k), k)
    }

    /// `val` of a field whose slot ([`slot_of`]) a table of names holds.
    pub fn val_slot(&self, slot: usize, k: &str) -> Val {
        self.val_at(Some(slot), k)
    }

    /// `val` with the field's slot already resolved.
    fn val_at(&self, slot: Option<usize>, k: &str) -> Val {
        if let (Some(ix), Some(slot)) = (self.index, slot) {
            let (Some(field), Some(cell)) = (ix.fields.get(slot), ix.vals.get(slot)) else {
                return Val::Undef;
            };
            return match field {
                None => Val::Undef,
                Some(v) => cell.get_or_init(|| v.val()).clone(),
            };
        }
        self.get(k).map_or(Val::Undef, Field::val)
    }

    /// Field if it is a string (`typeof === "string"`).
    #[inline(always)]
    pub fn str(&self, k: &str) -> Option<&'a str> {
        self.str_at(field_slot(k), k)
    }

    /// `str` with the field's slot already resolved.
    fn str_at(&self, slot: Option<usize>, k: &str) -> Option<&'a str> {
        self.located(slot, k).and_then(Field::as_str)
    }

    /// Field if it is a non-empty string (JS truthy string).
    #[inline(always)]
    pub fn truthy_str(&self, k: &str) -> Option<&'a str> {
        self.str(k).filter(|s| !s.is_empty())
    }

    /// JS truthiness of a field.
    #[inline(always)]
    pub fn truthy(&self, k: &str) -> bool {
        self.truthy_at(field_slot(k), k)
    }

    /// `truthy` with the field's slot already resolved.
    fn truthy_at(&self, slot: Option<usize>, k: &str) -> bool {
        self.js_at(slot, k).truthy()
    }

    pub fn id(&self) -> Option<&'a str> {
        self.str("id")
    }

    /// `ev.eventClass ?? ""` for string classes (non-strings read as "").
    pub fn cls(&self) -> &'a str {
        self.str("eventClass").unwrap_or("")
    }

    pub fn kind(&self) -> Option<&'a str> {
        self.str("kind")
    }

    pub fn status(&self) -> Option<&'a str> {
        self.str("status")
    }

    /// `ev.payload` if it is a record.
    pub fn payload(&self) -> Option<&'a Map<String, Value>> {
        self.get("payload").and_then(Field::as_object)
    }

    /// A payload field (payload must be a record).
    pub fn payload_get(&self, k: &str) -> Option<&'a Value> {
        self.payload().and_then(|p| obj_get(p, k))
    }

    /// `rawStr(ev, k1, k2, ...)`: first payload string with non-blank content, untrimmed.
    pub fn raw_str(&self, keys: &[&str]) -> Option<&'a str> {
        let p = self.payload()?;
        raw_str_in(p, keys)
    }

    /// The field as the reference reads it.
    #[inline(always)]
    pub fn js(&self, k: &str) -> Js<'a> {
        self.js_at(field_slot(k), k)
    }

    /// `js` of a field whose slot ([`slot_of`]) a table of names holds.
    pub fn js_slot(&self, slot: usize, k: &str) -> Js<'a> {
        self.js_at(Some(slot), k)
    }

    /// `js` with the field's slot already resolved.
    fn js_at(&self, slot: Option<usize>, k: &str) -> Js<'a> {
        self.located(slot, k).map_or(Js::Undef, Field::js)
    }

    /// `ev.k?.method()`: `None` when nullish, the string, or the odd value (a `TypeError` in the
    /// reference).
    #[inline(always)]
    pub fn str_op(&self, k: &'static str) -> Result<Option<&'a str>, Odd> {
        str_op(self.js(k), k)
    }

    /// `(ev.k ?? "").method()`: "" when nullish, the string, or the odd value.
    #[inline(always)]
    pub fn str_or_empty(&self, k: &'static str) -> Result<&'a str, Odd> {
        Ok(self.str_op(k)?.unwrap_or(""))
    }

    /// `ev.eventClass ?? ""` where the reference calls a string method on it.
    pub fn cls_op(&self) -> Result<&'a str, Odd> {
        self.str_or_empty("eventClass")
    }

    /// The items of `[...(ev.k ?? [])]` as output values: an array's items, a string's code
    /// points; other values are not iterable (a `TypeError` in the reference).
    pub fn spread(&self, k: &'static str, out: &mut Vec<Val>) -> Result<(), Odd> {
        self.spread_at(field_slot(k), k, out)
    }

    /// `spread` with the field's slot already resolved.
    fn spread_at(
        &self,
        slot: Option<usize>,
        k: &'static str,
        out: &mut Vec<Val>,
    ) -> Result<(), Odd> {
        match self.js_at(slot, k) {
            Js::Undef | Js::Null => Ok(()),
            Js::Arr(a) => {
                out.extend(a.iter().map(Val::from_json));
                Ok(())
            }
            Js::Str(s) => {
                out.extend(
                    s.char_indices()
                        .map(|(i, c)| Val::str(s.get(i..i + c.len_utf8()).unwrap_or_default())),
                );
                Ok(())
            }
            v => Err(Odd::new(k, v.type_name(), OddOp::Spread)),
        }
    }

    /// The items `ev.k?.forEach(...)` visits: an array's items; other values but `null` and
    /// `undefined` have no `forEach` (a `TypeError` in the reference).
    #[inline(always)]
    pub fn for_each(&self, k: &'static str) -> Result<&'a [Value], Odd> {
        match self.js(k) {
            Js::Undef | Js::Null => Ok(&[]),
            Js::Arr(a) => Ok(a),
            v => Err(Odd::new(k, v.type_name(), OddOp::ForEach)),
        }
    }

    /// `eventRefs(ev)` as the reference builds it (`[...refIds, ...artifactRefs,
    /// ...evidenceRefs]`, each `?? []`).
    pub fn refs(&self) -> Result<Vec<Val>, Odd> {
        let mut out = Vec::new();
        for (k, slot) in REF_FIELDS.into_iter().zip(SLOT_REFS) {
            self.spread_at(Some(slot), k, &mut out)?;
        }
        Ok(out)
    }
}

/// `v?.method()` for a value read from `field`: `None` when nullish, the string, or the odd
/// value (a `TypeError` in the reference).
pub fn str_op<'a>(v: Js<'a>, field: &'static str) -> Result<Option<&'a str>, Odd> {
    match v {
        Js::Undef | Js::Null => Ok(None),
        Js::Str(s) => Ok(Some(s)),
        v => Err(Odd::new(field, v.type_name(), OddOp::StringMethod)),
    }
}

/// First key of a record whose value is a string with non-blank content, untrimmed.
pub fn raw_str_in<'a>(rec: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    first_of(rec, keys, &|v| v.as_str().is_some_and(has_content)).and_then(Value::as_str)
}

/// `readStringField(rec, keys)`: first non-blank string, trimmed.
pub fn trim_str_in<'a>(rec: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    let blank = |s: &str| js_trim(s).is_empty();
    first_of(rec, keys, &|v| v.as_str().is_some_and(|s| !blank(s)))
        .and_then(Value::as_str)
        .map(js_trim)
}

/// The value of the first of `keys` (in their order) that `rec` holds and `takes` takes: the
/// readers of a field under any of its names. A small record's members are read once (the
/// names are many, the members few), a larger one's looked up by name.
pub fn first_of<'a>(
    rec: &'a Map<String, Value>,
    keys: &[&str],
    takes: &dyn Fn(&Value) -> bool,
) -> Option<&'a Value> {
    if rec.len() > SMALL_OBJECT {
        return keys.iter().filter_map(|k| rec.get(*k)).find(|v| takes(v));
    }
    // A record holds each name once: the member of the earliest name taken.
    let mut best: Option<(usize, &'a Value)> = None;
    for (k, v) in rec {
        let Some(at) = keys.iter().position(|x| *x == k.as_str()) else {
            continue;
        };
        if best.is_some_and(|(b, _)| b < at) || !takes(v) {
            continue;
        }
        if at == 0 {
            return Some(v);
        }
        best = Some((at, v));
    }
    best.map(|(_, v)| v)
}

#[cfg(test)]
mod field_slot_tests {
    use super::{field_slot, EVENT_FIELDS};

    #[test]
    fn every_field_name_finds_its_slot_and_nothing_else_does() {
        for (i, f) in EVENT_FIELDS.iter().enumerate() {
            assert_eq!(field_slot(f), Some(i), "{f}");
        }
        for k in [
            "",
            "i",
            "ID",
            "Id",
            "idx",
            "payloads",
            "turnid",
            "toolCallID",
            "détail",
            "\u{0}",
        ] {
            assert_eq!(field_slot(k), None, "{k:?}");
        }
        // Every prefix and suffix of a field name is not a field unless it is one.
        for f in EVENT_FIELDS {
            for cut in 0..f.len() {
                for k in [&f[..cut], &f[cut..]] {
                    assert_eq!(field_slot(k), EVENT_FIELDS.iter().position(|g| *g == k));
                }
            }
        }
    }
}

#[cfg(test)]
mod first_of_tests {
    use super::{first_of, Map, Value};

    /// The same value as looking each name up in turn, on records small and large (more than
    /// 16 members: the other path), whatever the order of the members and of the names.
    #[test]
    fn reads_as_a_lookup_per_name() {
        let small = r#"{"c":"  ","b":2,"a":"x","d":"y","e":true}"#;
        let mut large: Map<String, Value> =
            (0..20).map(|i| (format!("k{i}"), Value::from(i))).collect();
        large.insert("a".into(), Value::from("x"));
        large.insert("c".into(), Value::from(" "));
        let records: Vec<Map<String, Value>> = vec![
            serde_json::from_str(small).unwrap_or_default(),
            large,
            Map::new(),
        ];
        let names: [&[&str]; 6] = [
            &["a", "b", "c"],
            &["c", "d", "a"],
            &["z", "e", "k3", "a"],
            &["b", "b", "d"],
            &[],
            &["k19", "k0"],
        ];
        let takes: [&dyn Fn(&Value) -> bool; 3] = [
            &|v| v.as_str().is_some_and(|s| !s.trim().is_empty()),
            &Value::is_number,
            &|_| true,
        ];
        for rec in &records {
            for keys in names {
                for take in takes {
                    let each = keys.iter().filter_map(|k| rec.get(*k)).find(|v| take(v));
                    assert_eq!(first_of(rec, keys, take), each, "{keys:?} of {rec:?}");
                }
            }
        }
    }
}

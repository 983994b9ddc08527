//! Incremental output: the patch protocol of `docs/design.md` and dirty tracking for arrays.

use crate::contract::tape::{Tape, TapeTooLong, Writer};
use crate::contract::val::{Key, StrSource, Val};

/// One segment of a state path: an object key or an array index.
#[derive(Clone, Debug, PartialEq)]
pub enum Seg {
    Key(&'static str),
    /// An object key known only at run time.
    Name(std::rc::Rc<str>),
    Index(usize),
}

impl Seg {
    /// The segment of an object's key as the object keeps it (no copy of the name).
    pub fn of(k: &Key) -> Seg {
        match k {
            Key::S(s) => Seg::Key(s),
            Key::D(s) => Seg::Name(s.clone()),
        }
    }
}

/// One patch operation.
#[derive(Clone, Debug)]
pub enum PatchOp {
    /// Replace the value at `path`.
    Replace { path: Vec<Seg>, value: Val },
    /// The array at `path` becomes `len` long with the listed slots replaced.
    List {
        path: Vec<Seg>,
        len: usize,
        set: Vec<(usize, Val)>,
    },
    /// The string at `path` gets `suffix` (a `Val::Str`) appended: a streamed text grows by
    /// its delta, not by a second copy of all of it.
    Append { path: Vec<Seg>, suffix: Val },
    /// The object at `path` gets its keys in this order (those it has; any others after them):
    /// a state delta that replaces a key puts it last.
    Order {
        path: Vec<Seg>,
        keys: Vec<&'static str>,
    },
}

impl PatchOp {
    /// Where the op applies.
    pub fn path(&self) -> &[Seg] {
        match self {
            PatchOp::Replace { path, .. }
            | PatchOp::List { path, .. }
            | PatchOp::Append { path, .. }
            | PatchOp::Order { path, .. } => path,
        }
    }
}

/// What changed since the previous patch.
#[derive(Clone, Debug, Default)]
pub struct Patch {
    /// `ops` is a single replacement of the whole state.
    pub full: bool,
    pub ops: Vec<PatchOp>,
}

impl Patch {
    pub fn is_empty(&self) -> bool {
        !self.full && self.ops.is_empty()
    }

    /// The patch's JSON text (for tests and tools: the JS side reads its tape): the value
    /// [`Patch::write_tape`] writes.
    pub fn to_json(&self) -> String {
        let mut tape = Tape::default();
        match self.write_to(&mut tape, &|_| None) {
            Ok(()) => tape
                .read(&|_, _| Val::Undef)
                .map(|v| v.to_json())
                .unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// Onto `tape`, replacing what it held, with `field_of` for the values' long strings
    /// ([`Tape::write_with`]).
    pub fn write_to(&self, tape: &mut Tape, field_of: &StrSource<'_>) -> Result<(), TapeTooLong> {
        tape.clear();
        tape.append_by(field_of, |w| self.write_tape(w))
    }

    /// The patch as the value the JS side applies (`pkg-template/wire.js`, `applyPatch`):
    /// `{full, ops}`, each op `{p, v}` (replace), `{p, len, set: [[index, value], ...]}` (list),
    /// `{p, add}` (append) or `{p, order}` (key order), `p` the path's keys and indexes. Its
    /// values are the state's own, written as they are.
    pub fn write_tape(&self, w: &mut Writer<'_, '_>) -> Result<(), TapeTooLong> {
        w.object(2)?;
        w.static_name("full")?;
        w.value(&Val::Bool(self.full))?;
        w.static_name("ops")?;
        w.array(self.ops.len())?;
        for op in &self.ops {
            let path = op.path();
            w.object(if matches!(op, PatchOp::List { .. }) {
                3
            } else {
                2
            })?;
            w.static_name("p")?;
            w.array(path.len())?;
            for seg in path {
                match seg {
                    Seg::Key(k) => w.string(k)?,
                    Seg::Name(k) => w.string(k)?,
                    Seg::Index(n) => w.number(*n as f64)?,
                }
            }
            match op {
                PatchOp::Replace { value, .. } => {
                    w.static_name("v")?;
                    w.value(value)?;
                }
                PatchOp::List { len, set, .. } => {
                    w.static_name("len")?;
                    w.number(*len as f64)?;
                    w.static_name("set")?;
                    w.array(set.len())?;
                    for (i, v) in set {
                        w.array(2)?;
                        w.number(*i as f64)?;
                        w.value(v)?;
                    }
                }
                PatchOp::Append { suffix, .. } => {
                    w.static_name("add")?;
                    w.value(suffix)?;
                }
                PatchOp::Order { keys, .. } => {
                    w.static_name("order")?;
                    w.array(keys.len())?;
                    for k in keys {
                        w.string(k)?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl Patch {
    /// Apply this patch to `state` the way the JS wrapper does (`pkg-template/wire.js`), on
    /// `Val`s: the reference applier for tests and fuzzing. A missing object key on a path is
    /// created as `undefined`; `Err` names the first path that does not fit the state.
    pub fn apply_to(&self, state: &mut Val) -> Result<(), String> {
        for op in &self.ops {
            let path = op.path();
            let mut cur: &mut Val = state;
            for seg in path {
                cur = match (cur, seg) {
                    (Val::Obj(o), Seg::Key(k)) => {
                        let o = std::rc::Rc::make_mut(o);
                        if !o.contains_key(k) {
                            o.set(*k, Val::Undef);
                        }
                        o.get_mut(k)
                            .ok_or_else(|| format!("bad patch path {path:?}"))?
                    }
                    (Val::Obj(o), Seg::Name(k)) => {
                        let o = std::rc::Rc::make_mut(o);
                        if !o.contains_key(k) {
                            o.set_dyn(k, Val::Undef);
                        }
                        o.get_mut(k)
                            .ok_or_else(|| format!("bad patch path {path:?}"))?
                    }
                    (Val::Arr(a), Seg::Index(i)) => std::rc::Rc::make_mut(a)
                        .get_mut(*i)
                        .ok_or_else(|| format!("bad patch path {path:?}"))?,
                    _ => return Err(format!("bad patch path {path:?}")),
                };
            }
            match op {
                PatchOp::Replace { value, .. } => *cur = value.clone(),
                PatchOp::List { len, set, .. } => {
                    let mut items: Vec<Val> = cur.as_arr().map(<[Val]>::to_vec).unwrap_or_default();
                    items.resize(*len, Val::Undef);
                    for (i, v) in set {
                        let slot = items
                            .get_mut(*i)
                            .ok_or_else(|| format!("slot {i} past length {len}"))?;
                        *slot = v.clone();
                    }
                    *cur = Val::arr(items);
                }
                PatchOp::Append { suffix, .. } => {
                    let (Some(a), Some(b)) = (cur.as_str(), suffix.as_str()) else {
                        return Err(format!("append to a non-string at {path:?}"));
                    };
                    *cur = Val::string(format!("{a}{b}"));
                }
                PatchOp::Order { keys, .. } => {
                    let Val::Obj(o) = &*cur else {
                        return Err(format!("order of a non-object at {path:?}"));
                    };
                    let mut out = crate::contract::val::Obj::with_capacity(o.len());
                    for &k in keys {
                        if let Some(v) = o.get(k) {
                            out.push(k, v.clone());
                        }
                    }
                    for (k, v) in o.iter() {
                        if !keys.contains(&k) {
                            out.set_dyn(k, v.clone());
                        }
                    }
                    *cur = out.into_val();
                }
            }
        }
        Ok(())
    }
}

/// The patch that turns `before` into `after`: the values that differ, at the deepest path
/// where both sides are objects with the same keys in the same order (or arrays of the same
/// length); a whole
/// replacement when the roots themselves differ that way. Subtrees shared between the two
/// (`Rc`) cost nothing; the receiver keeps its own objects for every unchanged subtree.
pub fn diff_patch(before: &Val, after: &Val) -> Patch {
    let mut ops = Vec::new();
    if same_shape(before, after) {
        diff_into(before, after, &mut Vec::new(), &mut ops);
        Patch { full: false, ops }
    } else {
        Patch {
            full: true,
            ops: vec![PatchOp::Replace {
                path: Vec::new(),
                value: after.clone(),
            }],
        }
    }
}

/// The ops that turn `before`, the value the receiver holds at `path` (when it is known), into
/// `after`: what changed inside it, else `after` whole. Objects with the same keys in the same
/// order are compared key by key, arrays slot by slot over their common length, then resized
/// with their new slots (`List`); unchanged subtrees (`Rc` identity first) cost one comparison.
pub fn change_ops(mut path: Vec<Seg>, before: Option<&Val>, after: Val, out: &mut Vec<PatchOp>) {
    match (before, &after) {
        (Some(b), _) if same_shape(b, &after) => diff_into(b, &after, &mut path, out),
        (Some(Val::Arr(x)), Val::Arr(y)) => resize_into(x, y, &mut path, out),
        _ => out.push(PatchOp::Replace { path, value: after }),
    }
}

/// The ops that turn the array `x` at `path` into `y`, of another length: the slots of their
/// common length compared one by one, then the array resized with its new slots (`List`).
fn resize_into(x: &[Val], y: &[Val], path: &mut Vec<Seg>, out: &mut Vec<PatchOp>) {
    let common = x.len().min(y.len());
    for (i, (av, bv)) in x.iter().zip(y).enumerate() {
        path.push(Seg::Index(i));
        diff_child(av, bv, path, out);
        path.pop();
    }
    out.push(PatchOp::List {
        path: path.clone(),
        len: y.len(),
        set: y
            .iter()
            .enumerate()
            .skip(common)
            .map(|(i, v)| (i, v.clone()))
            .collect(),
    });
}

/// Both objects with the same keys in the same order (a key moved to the end is a change the
/// receiver could not make in place), or both arrays of the same length.
fn same_shape(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Obj(x), Val::Obj(y)) => x.len() == y.len() && x.keys().eq(y.keys()),
        (Val::Arr(x), Val::Arr(y)) => x.len() == y.len(),
        _ => false,
    }
}

/// Nesting is bounded by the documents' (the deltas' depth limit).
fn diff_into(a: &Val, b: &Val, path: &mut Vec<Seg>, out: &mut Vec<PatchOp>) {
    match (a, b) {
        (Val::Obj(x), Val::Obj(y)) => {
            if std::rc::Rc::ptr_eq(x, y) {
                return;
            }
            // Same shape: the same keys in the same order.
            for ((_, av), (k, bv)) in x.entries().zip(y.entries()) {
                path.push(Seg::of(k));
                diff_child(av, bv, path, out);
                path.pop();
            }
        }
        (Val::Arr(x), Val::Arr(y)) => {
            if std::rc::Rc::ptr_eq(x, y) {
                return;
            }
            for (i, (av, bv)) in x.iter().zip(y.iter()).enumerate() {
                path.push(Seg::Index(i));
                diff_child(av, bv, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn diff_child(a: &Val, b: &Val, path: &mut Vec<Seg>, out: &mut Vec<PatchOp>) {
    // Containers of one shape are compared member by member once (equal ones give no op); two
    // of different shapes are never equal.
    match (a, b) {
        _ if same_shape(a, b) => diff_into(a, b, path, out),
        (Val::Arr(x), Val::Arr(y)) => resize_into(x, y, path, out),
        _ if crate::contract::val::equal_in_order(a, b) => {}
        _ => out.push(PatchOp::Replace {
            path: path.clone(),
            value: b.clone(),
        }),
    }
}

/// Shortest text worth appending to rather than resending.
const MIN_APPEND_BYTES: usize = 64;

/// `y` starts with `x`, compared eight bytes at a time: a streamed text is compared with what
/// was sent of it on every patch, and the byte-wise `memcmp` of the wasm build made that the
/// largest cost of a long message's patches.
fn extends(y: &str, x: &str) -> bool {
    let Some(head) = y.as_bytes().get(..x.len()) else {
        return false;
    };
    let word = |c: &[u8]| <[u8; 8]>::try_from(c).map(u64::from_ne_bytes).ok();
    let (mut a, mut b) = (x.as_bytes().chunks_exact(8), head.chunks_exact(8));
    (&mut a).zip(&mut b).all(|(p, q)| word(p) == word(q)) && a.remainder() == b.remainder()
}

/// The ops that turn slot `i` of the array at `path`, last sent as `old`, into `new`, when both
/// are objects with the same keys in the same order: per changed key, a string that grew at its
/// end is an `Append`, an array that grew at its end a `List` of its new slots, anything else a
/// `Replace`. `false` (nothing pushed) when the slot must be sent whole. Compares each key's
/// values once (`Rc` identity first), so the cost is that of the changed values' old parts.
pub fn slot_ops(path: &[Seg], i: usize, old: &Val, new: &Val, out: &mut Vec<PatchOp>) -> bool {
    let (Val::Obj(a), Val::Obj(b)) = (old, new) else {
        return false;
    };
    if std::rc::Rc::ptr_eq(a, b) {
        return true;
    }
    if a.len() != b.len() || !a.keys().eq(b.keys()) {
        return false;
    }
    let at = |k: &Key| {
        let mut p = path.to_vec();
        p.push(Seg::Index(i));
        p.push(Seg::of(k));
        p
    };
    for ((k, av), (_, bv)) in a.entries().zip(b.entries()) {
        match (av, bv) {
            (Val::Str(x), Val::Str(y))
                if x.len() >= MIN_APPEND_BYTES && y.len() > x.len() && extends(y, x) =>
            {
                out.push(PatchOp::Append {
                    path: at(k),
                    suffix: Val::str(y.get(x.len()..).unwrap_or_default()),
                });
            }
            (Val::Arr(x), Val::Arr(y))
                if !std::rc::Rc::ptr_eq(x, y)
                    && y.len() >= x.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(p, q)| crate::contract::val::equal_in_order(p, q)) =>
            {
                if y.len() > x.len() {
                    out.push(PatchOp::List {
                        path: at(k),
                        len: y.len(),
                        set: (x.len()..y.len())
                            .filter_map(|j| y.get(j).map(|v| (j, v.clone())))
                            .collect(),
                    });
                }
            }
            _ => {
                if !crate::contract::val::equal_in_order(av, bv) {
                    out.push(PatchOp::Replace {
                        path: at(k),
                        value: bv.clone(),
                    });
                }
            }
        }
    }
    true
}

/// `change` of the array `items` at `path`, of which the receiver has the first `had` slots:
/// new slots whole, and a changed slot the receiver has as the ops `diff(i, ops)` pushes when
/// it can (else whole). Returns the slots the receiver now has anew, ascending (every slot
/// after a whole replacement).
pub fn list_ops_by_slot(
    path: &[Seg],
    change: ListChange,
    had: usize,
    items: &[Val],
    diff: &mut dyn FnMut(usize, &mut Vec<PatchOp>) -> bool,
    out: &mut Vec<PatchOp>,
) -> Vec<usize> {
    let ListChange::Slots { len, idx } = change else {
        let all = change == ListChange::All;
        out.extend(list_op(path, &[], change, items));
        return if all {
            (0..items.len()).collect()
        } else {
            Vec::new()
        };
    };
    let mut set = Vec::new();
    let mut nested = Vec::new();
    for &i in &idx {
        let Some(v) = items.get(i) else { continue };
        if i >= had || !diff(i, &mut nested) {
            set.push((i, v.clone()));
        }
    }
    if !set.is_empty() || len != had {
        out.push(PatchOp::List {
            path: path.to_vec(),
            len,
            set,
        });
    }
    out.extend(nested);
    idx
}

/// [`list_ops_by_slot`] for a list whose receiver's copy is `sent` (one value a slot, shared
/// with `items`, not copied): a changed slot as [`slot_ops`] gives it; `sent` follows.
pub fn list_ops_by_value(
    path: &[Seg],
    change: ListChange,
    sent: &mut Vec<Val>,
    items: &[Val],
    out: &mut Vec<PatchOp>,
) {
    let old = &*sent;
    let idx = list_ops_by_slot(
        path,
        change,
        old.len(),
        items,
        &mut |i, ops| match (old.get(i), items.get(i)) {
            (Some(a), Some(b)) => slot_ops(path, i, a, b, ops),
            _ => false,
        },
        out,
    );
    record_sent(sent, items.len(), &idx, |i| items.get(i).cloned());
}

/// Record in `sent` (the receiver's copy of a list, one entry a slot) the slots `idx` a
/// patch sent anew, for a list now `len` long; `now(i)` is slot `i`'s entry.
pub fn record_sent<T>(
    sent: &mut Vec<T>,
    len: usize,
    idx: &[usize],
    now: impl Fn(usize) -> Option<T>,
) {
    sent.truncate(len);
    for &i in idx {
        let Some(v) = now(i) else { continue };
        if let Some(s) = sent.get_mut(i) {
            *s = v;
        } else if i == sent.len() {
            sent.push(v);
        }
    }
}

/// An insertion-ordered set of values kept as an output list (JS `Set` semantics: strings and
/// numbers by value, objects by identity, the list keeping them alive), with dirty tracking of
/// the receiver's copy.
#[derive(Default)]
pub struct OrderedSet {
    pub items: Vec<Val>,
    seen: crate::contract::fxhash::HashSet<crate::contract::val::JsKey>,
    pub tracker: ListTracker,
}

impl OrderedSet {
    /// Add `v` unless the set holds it; whether it was added.
    pub fn insert(&mut self, v: Val) -> bool {
        if self.seen.insert(v.key()) {
            self.items.push(v);
            true
        } else {
            false
        }
    }

    /// The list's value.
    pub fn to_val(&self) -> Val {
        Val::arr(self.items.clone())
    }
}

/// Dirty tracking for one output array: which slots changed since the last `take`.
#[derive(Clone, Debug, Default)]
pub struct ListTracker {
    synced_len: usize,
    dirty: Vec<usize>,
    all: bool,
}

/// The changes of one array since the last `take`.
#[derive(Clone, Debug, PartialEq)]
pub enum ListChange {
    None,
    /// New length and the changed or appended slots, ascending, without duplicates.
    Slots {
        len: usize,
        idx: Vec<usize>,
    },
    /// Send the whole array.
    All,
}

impl ListTracker {
    /// Slot `i` changed (appended slots need not be touched).
    pub fn touch(&mut self, i: usize) {
        if !self.all && i < self.synced_len {
            self.dirty.push(i);
        }
    }

    /// The slots the next `take` reports as appended, given the array's current length (every
    /// slot of an array marked whole).
    pub fn sent_whole(&self, len: usize) -> std::ops::Range<usize> {
        (if self.all {
            0
        } else {
            self.synced_len.min(len)
        })..len
    }

    /// The array changed in a way that is cheaper to resend whole.
    pub fn mark_all(&mut self) {
        self.all = true;
        self.dirty.clear();
    }

    /// Forget everything: the receiver has the array as it is now (`len` slots).
    pub fn sync(&mut self, len: usize) {
        self.synced_len = len;
        self.dirty.clear();
        self.all = false;
    }

    /// The changes since the last take, given the array's current length.
    pub fn take(&mut self, len: usize) -> ListChange {
        if self.all {
            self.sync(len);
            return ListChange::All;
        }
        if self.dirty.is_empty() && self.synced_len == len {
            return ListChange::None;
        }
        let mut idx = std::mem::take(&mut self.dirty);
        idx.retain(|&i| i < len);
        idx.extend(self.synced_len.min(len)..len);
        crate::contract::order::sort_indexes(&mut idx);
        idx.dedup();
        let changed = !idx.is_empty() || len != self.synced_len;
        self.synced_len = len;
        if changed {
            ListChange::Slots { len, idx }
        } else {
            ListChange::None
        }
    }
}

/// Turn a `ListChange` over `items` into a patch op at the path `base` then `tail` (none when
/// nothing changed, and then no path is made).
pub fn list_op(base: &[Seg], tail: &[Seg], change: ListChange, items: &[Val]) -> Option<PatchOp> {
    let path = || [base, tail].concat();
    match change {
        ListChange::None => None,
        ListChange::All => Some(PatchOp::Replace {
            path: path(),
            value: Val::arr(items.to_vec()),
        }),
        ListChange::Slots { len, idx } => Some(PatchOp::List {
            path: path(),
            len,
            set: idx
                .into_iter()
                .filter_map(|i| items.get(i).map(|v| (i, v.clone())))
                .collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracker_reports_appends_and_touches_once() {
        let mut t = ListTracker::default();
        assert_eq!(
            t.take(2),
            ListChange::Slots {
                len: 2,
                idx: vec![0, 1]
            }
        );
        assert_eq!(t.take(2), ListChange::None);
        t.touch(0);
        t.touch(0);
        assert_eq!(
            t.take(3),
            ListChange::Slots {
                len: 3,
                idx: vec![0, 2]
            }
        );
        t.mark_all();
        assert_eq!(t.take(3), ListChange::All);
    }

    #[test]
    fn slot_ops_send_what_changed_in_a_slot() {
        let text = "x".repeat(MIN_APPEND_BYTES);
        let part = |t: &str, refs: Vec<Val>, state: &str| {
            crate::contract::val::Obj::new()
                .k("text", Val::str(t))
                .k("refs", Val::arr(refs))
                .k("state", Val::str(state))
                .into_val()
        };
        let old = part(&text, vec![Val::str("a")], "streaming");
        let new = part(
            &format!("{text} more"),
            vec![Val::str("a"), Val::str("b")],
            "final",
        );
        let path = [Seg::Key("messages")];
        let mut ops = Vec::new();
        assert!(slot_ops(&path, 1, &old, &new, &mut ops));
        let doc = |slot: &Val| {
            crate::contract::val::Obj::new()
                .k("messages", Val::arr(vec![Val::Null, slot.clone()]))
                .into_val()
        };
        let mut state = doc(&old);
        Patch {
            full: false,
            ops: ops.clone(),
        }
        .apply_to(&mut state)
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(crate::contract::val::deep_equal(&state, &doc(&new)));
        let text_json = Patch { full: false, ops }.to_json();
        assert!(
            text_json.contains(r#"{"p":["messages",1,"text"],"add":" more"}"#),
            "{text_json}"
        );
        assert!(text_json.contains(r#"{"p":["messages",1,"refs"],"len":2,"set":[[1,"b"]]}"#));
        assert!(text_json.contains(r#"{"p":["messages",1,"state"],"v":"final"}"#));
        // A short text is replaced, not appended to; other keys: the slot goes whole.
        let mut ops = Vec::new();
        assert!(slot_ops(
            &path,
            0,
            &part("ab", vec![], "s"),
            &part("abc", vec![], "s"),
            &mut ops
        ));
        assert!(matches!(ops.as_slice(), [PatchOp::Replace { .. }]));
        let other = crate::contract::val::Obj::new()
            .k("text", Val::str("ab"))
            .into_val();
        assert!(!slot_ops(&path, 0, &other, &new, &mut Vec::new()));
    }

    #[test]
    fn patch_json_shape() {
        let p = Patch {
            full: false,
            ops: vec![PatchOp::List {
                path: vec![Seg::Key("timeline")],
                len: 1,
                set: vec![(0, Val::Num(1.0))],
            }],
        };
        assert_eq!(
            p.to_json(),
            r#"{"full":false,"ops":[{"p":["timeline"],"len":1,"set":[[0,1]]}]}"#
        );
        // An order: the object at the path gets its keys in that order (others after them).
        let order = Patch {
            full: false,
            ops: vec![PatchOp::Order {
                path: vec![],
                keys: vec!["messages", "runtime"],
            }],
        };
        assert_eq!(
            order.to_json(),
            r#"{"full":false,"ops":[{"p":[],"order":["messages","runtime"]}]}"#
        );
        let mut state = crate::contract::val::Obj::new()
            .k("runtime", Val::Num(1.0))
            .k("c", Val::Num(3.0))
            .k("messages", Val::Num(2.0))
            .into_val();
        order.apply_to(&mut state).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(state.to_json(), r#"{"messages":2,"runtime":1,"c":3}"#);
    }
}

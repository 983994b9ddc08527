//! `state.delta` (spec §3.13): parsing, target normalization, supersession areas and the
//! copy-on-write application of repair patches on a document holding only the state units
//! the active deltas touch.

use crate::contract::fxhash::HashMap;
use std::borrow::Cow;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::events::Stored;
use super::view_rules::{is_action_terminal, STATE_DELTA_CLASS};
use crate::contract::event::{Ev, Js, Odd, MAX_EVENT_DEPTH};
use crate::contract::js::{is_array_index_key, js_number_to_string, replace_all};
use crate::contract::val::{write_json_str, Obj, Val};

/// The roots a delta may patch.
pub const PATCHABLE_ROOTS: [&str; 13] = [
    "runtime",
    "messages",
    "timeline",
    "graph",
    "tools",
    "actions",
    "artifacts",
    "evidence",
    "diagnostics",
    "subagents",
    "readModel",
    "hydration",
    "ephemeralUi",
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum OpKind {
    Add,
    Remove,
    Replace,
    Test,
    Move,
    Copy,
}

#[derive(Clone, Debug)]
struct Op {
    kind: OpKind,
    path: Vec<String>,
    from: Option<Vec<String>>,
    value: Val,
}

/// A `state.delta` event prepared once at accept time.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// `state-delta:<id>` diagnostics need the event id.
    pub event_id: Val,
    /// Ok(ops) or the message the application fails with before touching the state.
    ops: Result<Vec<Op>, String>,
    /// Supersession area (`None`: never superseded).
    pub area: Option<String>,
    /// State units the operations name (roots; `readModel.<key>`; `readModel.*`).
    pub units: Vec<String>,
    /// The delta event's index as the projector names it (set when it accepts the event).
    pub ext: u32,
}

fn decode_token(t: &str) -> String {
    if !t.contains('~') {
        return t.to_owned();
    }
    replace_all(&replace_all(t, "~1", "/"), "~0", "~")
}

fn encode_token(t: &str) -> String {
    t.replace('~', "~0").replace('/', "~1")
}

/// `pointerFromTokens`.
pub fn pointer(tokens: &[String]) -> String {
    let mut s = String::new();
    for t in tokens {
        s.push('/');
        s.push_str(&encode_token(t));
    }
    s
}

fn parse_pointer(path: &str) -> Result<Vec<String>, String> {
    if path.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(format!("JSON Pointer must start with \"/\": {path}"));
    };
    Ok(rest.split('/').map(decode_token).collect())
}

fn target_tokens(target: &str) -> Result<Vec<String>, String> {
    let split = |s: &str| -> Vec<String> {
        s.split('.')
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect()
    };
    Ok(match target {
        "projection" => Vec::new(),
        "readModel" => vec!["readModel".into()],
        "runtime" => vec!["runtime".into()],
        _ => {
            if let Some(r) = target.strip_prefix("projection.") {
                split(r)
            } else if let Some(r) = target.strip_prefix("readModel.") {
                let mut v = vec!["readModel".to_string()];
                v.extend(split(r));
                v
            } else if let Some(r) = target.strip_prefix("runtime.") {
                let mut v = vec!["runtime".to_string()];
                v.extend(split(r));
                v
            } else {
                return Err(format!("Unsupported state.delta target: {target}"));
            }
        }
    })
}

fn normalize_path(target: &str, path: &str) -> Result<Vec<String>, String> {
    let t = target_tokens(target)?;
    let p = parse_pointer(path)?;
    let Some(last) = t.last() else { return Ok(p) };
    if p.first().map(String::as_str) == Some("items") {
        let mut r = t.clone();
        r.extend(p.into_iter().skip(1));
        return Ok(r);
    }
    if p.first() == Some(last) {
        let mut r: Vec<String> = t[..t.len() - 1].to_vec();
        r.extend(p);
        return Ok(r);
    }
    let mut r = t;
    r.extend(p);
    Ok(r)
}

/// Where a `state.delta` event holds its delta: `payload[STATE_DELTA_RECORD_KEY]` when that is
/// a record, else the payload itself; its operations under the first of [`STATE_DELTA_PATCH_KEYS`]
/// that is not nullish (a non-array there does not fall back to the next).
pub const STATE_DELTA_RECORD_KEY: &str = "stateDelta";
pub const STATE_DELTA_PATCH_KEYS: [&str; 2] = ["patch", "ops"];

/// The valid operations (spec §3.13.1): `(op, member, string)`: the op needs an own `member`
/// (a string when `string`; nothing when `member` is empty). Any other `op` is invalid. The JS
/// wrapper's `readAgentRuntimeStateDelta` evaluates the same table (`rules_json`).
pub const STATE_DELTA_OPS: [(&str, &str, bool); 6] = [
    ("add", "value", false),
    ("replace", "value", false),
    ("test", "value", false),
    ("remove", "", false),
    ("move", "from", true),
    ("copy", "from", true),
];

fn valid_op(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    let (Some(op), Some(_)) = (
        o.get("op").and_then(Value::as_str),
        o.get("path").and_then(Value::as_str),
    ) else {
        return false;
    };
    match STATE_DELTA_OPS.iter().find(|(name, _, _)| *name == op) {
        Some((_, "", _)) => true,
        Some((_, member, string)) => match o.get(*member) {
            Some(x) => !string || x.is_string(),
            None => false,
        },
        None => false,
    }
}

/// The delta of a `state.delta` event as application needs it (spec §3.13.1): (target, ops);
/// `None` when `ev` is not a `state.delta` event with a valid delta.
fn read_delta<'a>(ev: Ev<'a>) -> Option<(&'a str, &'a Vec<Value>)> {
    if ev.cls() != STATE_DELTA_CLASS {
        return None;
    }
    let payload = ev.payload()?;
    let cand: &Map<String, Value> = payload
        .get(STATE_DELTA_RECORD_KEY)
        .and_then(Value::as_object)
        .unwrap_or(payload);
    let target = cand.get("target").and_then(Value::as_str)?;
    if !crate::contract::js::has_content(target) {
        return None;
    }
    let [first, second] = STATE_DELTA_PATCH_KEYS;
    let patch = match cand.get(first) {
        None | Some(Value::Null) => cand.get(second)?,
        Some(p) => p,
    };
    let arr = patch.as_array()?;
    if !arr.iter().all(valid_op) {
        return None;
    }
    Some((target, arr))
}

fn unit_of(tokens: &[String]) -> Option<String> {
    let root = tokens.first()?;
    if !PATCHABLE_ROOTS.contains(&root.as_str()) {
        return None;
    }
    if root == "readModel" {
        return Some(match tokens.get(1) {
            Some(k) => format!("readModel.{k}"),
            None => "readModel.*".into(),
        });
    }
    Some(root.clone())
}

/// Prepare a `state.delta` event (any event whose class is `state.delta`); `None` otherwise.
pub fn prepare(ev: Ev<'_>) -> Option<Prepared> {
    if ev.cls() != STATE_DELTA_CLASS {
        return None;
    }
    let event_id = ev.val("id");
    let Some((target, raw_ops)) = read_delta(ev) else {
        return Some(Prepared {
            ext: 0,
            event_id,
            ops: Err("Missing or invalid state.delta payload.".into()),
            area: None,
            units: Vec::new(),
        });
    };
    let area = raw_ops.first().and_then(|op| {
        let path = op.get("path").and_then(Value::as_str)?;
        let t = normalize_path(target, path).ok()?;
        let root = t.first().filter(|r| !r.is_empty())?;
        Some(if root == "readModel" {
            format!("readModel.{}", t.get(1).map(String::as_str).unwrap_or("*"))
        } else {
            root.clone()
        })
    });
    let mut units: Vec<String> = Vec::new();
    let mut ops = Vec::new();
    let mut err = None;
    for op in raw_ops {
        let kind = match op.get("op").and_then(Value::as_str) {
            Some("add") => OpKind::Add,
            Some("remove") => OpKind::Remove,
            Some("replace") => OpKind::Replace,
            Some("test") => OpKind::Test,
            Some("move") => OpKind::Move,
            _ => OpKind::Copy,
        };
        let path =
            match normalize_path(target, op.get("path").and_then(Value::as_str).unwrap_or("")) {
                Ok(p) => p,
                Err(e) => {
                    err = Some(e);
                    break;
                }
            };
        let from = if matches!(kind, OpKind::Move | OpKind::Copy) {
            match normalize_path(target, op.get("from").and_then(Value::as_str).unwrap_or("")) {
                Ok(p) => Some(p),
                Err(e) => {
                    err = Some(e);
                    break;
                }
            }
        } else {
            None
        };
        for t in std::iter::once(&path).chain(from.iter()) {
            if let Some(u) = unit_of(t) {
                if !units.contains(&u) {
                    units.push(u);
                }
            }
        }
        let value = op.get("value").map(Val::from_json).unwrap_or(Val::Undef);
        ops.push(Op {
            kind,
            path,
            from,
            value,
        });
    }
    Some(Prepared {
        ext: 0,
        event_id,
        ops: match err {
            Some(e) => Err(e),
            None => Ok(ops),
        },
        area,
        units,
    })
}

/// The event fields [`touches`] reads: an event's other fields never decide whether it
/// supersedes a delta (the JS wrapper sends only these of the events that are not deltas, in
/// this order, by a reader the package build writes from this list: scripts/assemble-pkg.mjs).
/// The graph's id fields are [`super::graph::ID_FIELDS`].
pub const SUPERSESSION_FIELDS: [&str; 14] = {
    let id = super::graph::ID_FIELDS;
    [
        "eventClass",
        "kind",
        "status",
        id[0],
        "workerId",
        id[1],
        id[2],
        id[3],
        id[4],
        id[5],
        id[6],
        id[7],
        "artifactRefs",
        "evidenceRefs",
    ]
};

/// Does a later (non-`state.delta`) event touch `area`? Reads only [`SUPERSESSION_FIELDS`].
pub fn touches(ev: Ev<'_>, area: &str) -> Result<bool, Odd> {
    let cls = ev.cls();
    if cls == STATE_DELTA_CLASS {
        return Ok(false);
    }
    let kind = ev.kind().unwrap_or("");
    let st = ev.status();
    // `Boolean(event.k?.length)`.
    let has_length = |k: &str| match ev.js(k) {
        Js::Arr(a) => !a.is_empty(),
        Js::Str(s) => !s.is_empty(),
        Js::Obj(o) => Js::of(o.get("length")).truthy(),
        _ => false,
    };
    // `eventClass.startsWith(p)` for `eventClass = event.eventClass ?? ""` (the reference
    // throws on a class that is not a string).
    let starts = |p: &str| -> Result<bool, Odd> { Ok(ev.cls_op()?.starts_with(p)) };
    Ok(match area {
        "runtime" | "timeline" | "readModel.events" | "readModel.visibleEvents" => true,
        "messages" => {
            matches!(kind, "model" | "note" | "draft" | "evidence")
                || starts("model.")?
                || starts("reasoning.")?
                || matches!(
                    cls,
                    "tool.result"
                        | "tool.failed"
                        | "artifact.changed"
                        | "evidence.changed"
                        | "runtime.error"
                )
                || matches!(st, Some("failed" | "blocked"))
        }
        "graph" => super::graph::ID_FIELDS.iter().any(|k| ev.truthy(k)),
        "tools" => kind == "tool" || starts("tool.")?,
        "actions" => kind == "action" || starts("action.")?,
        "artifacts" => kind == "draft" || cls == "artifact.changed" || has_length("artifactRefs"),
        "evidence" => kind == "evidence" || cls == "evidence.changed" || has_length("evidenceRefs"),
        "diagnostics" => matches!(st, Some("failed" | "blocked")) || cls == "runtime.error",
        "subagents" => {
            ev.truthy("subagentId")
                || ev.truthy("workerId")
                || starts("subagent.")?
                || starts("channel.")?
                || starts("handoff.")?
                || starts("review.")?
                || matches!(
                    cls,
                    "agent.spawned" | "agent.completed" | "agent.changed" | "agent.handoff"
                )
        }
        "readModel.pendingActions" | "readModel.inputSourceRecovery" => {
            cls == "action.required" || is_action_terminal(cls)
        }
        "readModel.taskRefs" => ev.truthy("taskId"),
        "readModel.artifactRefs" => has_length("artifactRefs"),
        "readModel.evidenceRefs" => has_length("evidenceRefs"),
        _ => false,
    })
}

/// The fields [`touches`] reads for each area an event can touch (an area not listed: none
/// can). The package build writes it into the view rules (`areaReads`): the JS wrapper sends
/// only these fields of the events after a list's last delta, for the areas of the deltas not
/// superseded yet ([`DeltaList::later_areas`]).
pub const AREA_READS: [(&str, &[&str]); 17] = {
    let class_kind: &[&str] = &["eventClass", "kind"];
    [
        ("runtime", &[]),
        ("timeline", &[]),
        ("readModel.events", &[]),
        ("readModel.visibleEvents", &[]),
        ("messages", &["eventClass", "kind", "status"]),
        ("graph", &super::graph::ID_FIELDS),
        ("tools", class_kind),
        ("actions", class_kind),
        ("artifacts", &["eventClass", "kind", "artifactRefs"]),
        ("evidence", &["eventClass", "kind", "evidenceRefs"]),
        ("diagnostics", &["eventClass", "status"]),
        ("subagents", &["eventClass", "subagentId", "workerId"]),
        ("readModel.pendingActions", &["eventClass"]),
        ("readModel.inputSourceRecovery", &["eventClass"]),
        ("readModel.taskRefs", &["taskId"]),
        ("readModel.artifactRefs", &["artifactRefs"]),
        ("readModel.evidenceRefs", &["evidenceRefs"]),
    ]
};

/// Access to input events by external index, for `Val::Event` values inside the document.
pub struct EventLookup<'a> {
    pub events: &'a [Stored<'a>],
    pub pos_of_ext: &'a HashMap<u32, usize>,
    /// What a placeholder of the document holds where it stands for an object the re-sync
    /// reads (`WholeStatePass::run`): the members it reads, by the placeholder's index.
    pub held: Option<&'a Held>,
}

/// The members of objects that crossed as placeholders (`Val::Event`) beside them: a ref view's
/// item as its `id`, a subagent thread as its `threadId` and `status` (the paths flagged 2 in
/// [`WholeStatePass::needed_json`]).
pub type Held = HashMap<u32, Rc<Obj>>;

impl EventLookup<'_> {
    /// Member `key` of `v` as the re-sync reads it: an object's own, or what a placeholder
    /// holds.
    fn member(&self, v: &Val, key: &str) -> Option<Val> {
        match v {
            Val::Event(i) => self.held?.get(i)?.get(key).cloned(),
            _ => v.get(key).cloned(),
        }
    }

    fn get(&self, ext: u32) -> Option<std::borrow::Cow<'_, Value>> {
        self.pos_of_ext
            .get(&ext)
            .and_then(|&p| self.events.get(p))
            .and_then(Stored::value)
    }

    fn materialize(&self, v: &mut Val) {
        if let Val::Event(i) = v {
            if let Some(e) = self.get(*i) {
                *v = Val::from_json(&e);
            }
        }
    }

    fn stringify(&self, v: &Val) -> Option<String> {
        v.js_stringify(&mut |i, out| match self.get(i) {
            Some(e) => {
                if let Some(s) = Val::from_json(&e).js_stringify(&mut |_, _| false) {
                    out.push_str(&s);
                }
                true
            }
            None => false,
        })
    }
}

fn array_index(tok: &str, len: usize, allow_append: bool) -> Result<usize, String> {
    if tok == "-" && allow_append {
        return Ok(len);
    }
    let ok = !tok.is_empty()
        && tok.bytes().all(|b| b.is_ascii_digit())
        && (tok == "0" || !tok.starts_with('0'));
    if !ok {
        return Err(format!("Invalid array index: {tok}"));
    }
    match tok.parse::<u64>() {
        Ok(n) if n <= 9_007_199_254_740_991 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        _ => Err(format!("Invalid array index: {tok}")),
    }
}

fn value_at(doc: &Val, tokens: &[String], lk: &EventLookup<'_>) -> Result<Val, String> {
    let missing = || format!("Path does not exist: {}", pointer(tokens));
    let mut cur = doc.clone();
    for t in tokens {
        lk.materialize(&mut cur);
        let next = match &cur {
            Val::Arr(a) => {
                let i = array_index(t, a.len(), false)?;
                a.get(i).cloned().ok_or_else(missing)?
            }
            Val::Obj(o) => o.get(t).cloned().ok_or_else(missing)?,
            _ => return Err(missing()),
        };
        cur = next;
    }
    Ok(cur)
}

fn set_key(o: &mut Obj, k: &str, v: Val) {
    o.set_dyn(k, v);
}

fn add_value(
    doc: &mut Val,
    tokens: &[String],
    value: Val,
    lk: &EventLookup<'_>,
) -> Result<(), String> {
    let mut cur: &mut Val = doc;
    for (depth, t) in tokens.iter().enumerate() {
        let last = depth + 1 == tokens.len();
        let here = || pointer(&tokens[depth..]);
        lk.materialize(cur);
        match cur {
            Val::Arr(a) => {
                let a = Rc::make_mut(a);
                let i = array_index(t, a.len(), last)?;
                if last {
                    if i > a.len() {
                        return Err(format!("Array index out of range: {t}"));
                    }
                    a.insert(i, value);
                    return Ok(());
                }
                if i >= a.len() {
                    return Err(format!("Path does not exist: {}", here()));
                }
                cur = &mut a[i];
            }
            Val::Obj(o) => {
                let o = Rc::make_mut(o);
                if last {
                    set_key(o, t, value);
                    return Ok(());
                }
                match o.get_mut(t) {
                    Some(v) => cur = v,
                    None => return Err(format!("Path does not exist: {}", here())),
                }
            }
            _ => return Err(format!("Cannot add into non-object path: {}", here())),
        }
    }
    *cur = value;
    Ok(())
}

fn remove_value(doc: &mut Val, tokens: &[String], lk: &EventLookup<'_>) -> Result<(), String> {
    let mut cur: &mut Val = doc;
    for (depth, t) in tokens.iter().enumerate() {
        let last = depth + 1 == tokens.len();
        let here = || pointer(&tokens[depth..]);
        lk.materialize(cur);
        match cur {
            Val::Arr(a) => {
                let a = Rc::make_mut(a);
                let i = array_index(t, a.len(), false)?;
                if i >= a.len() {
                    return Err(format!("Array index out of range: {t}"));
                }
                if last {
                    a.remove(i);
                    return Ok(());
                }
                cur = &mut a[i];
            }
            Val::Obj(o) if o.contains_key(t) => {
                let o = Rc::make_mut(o);
                if last {
                    o.remove(t);
                    return Ok(());
                }
                match o.get_mut(t) {
                    Some(v) => cur = v,
                    None => return Err(format!("Path does not exist: {}", here())),
                }
            }
            _ => return Err(format!("Path does not exist: {}", here())),
        }
    }
    Ok(())
}

fn assert_allowed(tokens: &[String]) -> Result<(), String> {
    let root = tokens.first().map(String::as_str);
    match root {
        Some(r) if PATCHABLE_ROOTS.contains(&r) => {}
        _ => {
            return Err(format!(
                "state.delta cannot patch unknown projection root: /{}",
                root.unwrap_or("")
            ))
        }
    }
    if root == Some("readModel") {
        match tokens.get(1).map(String::as_str) {
            Some(s @ ("events" | "visibleEvents")) => {
                return Err(format!(
                    "state.delta cannot patch runtime fact projections at /readModel/{s}"
                ))
            }
            Some("pendingActions") => {
                return Err(
                    "state.delta cannot patch pending action facts at /readModel/pendingActions"
                        .into(),
                )
            }
            _ => {}
        }
    }
    Ok(())
}

/// Deepest nesting a delta may build in the state document (path tokens + value depth).
pub const MAX_DELTA_DEPTH: usize = 128;

/// Nesting depth of `v` (a scalar is 0, a container 1 + its deepest child), walked
/// iteratively; stops early once it exceeds `cap`. An input event object (`Val::Event`)
/// counts as deep as the event depth limit.
fn val_depth(v: &Val, cap: usize) -> usize {
    let mut max = 0;
    let mut stack: Vec<(&Val, usize)> = vec![(v, 1)];
    while let Some((x, d)) = stack.pop() {
        let here = match x {
            Val::Arr(a) => {
                stack.extend(a.iter().map(|c| (c, d + 1)));
                d
            }
            Val::Obj(o) => {
                stack.extend(o.iter().map(|(_, c)| (c, d + 1)));
                d
            }
            Val::Event(_) => d + MAX_EVENT_DEPTH - 1,
            _ => d - 1,
        };
        max = max.max(here);
        if max > cap {
            return max;
        }
    }
    max
}

/// Insert `value` at `tokens` unless the result would nest deeper than `MAX_DELTA_DEPTH`.
fn add_checked(
    doc: &mut Val,
    tokens: &[String],
    value: Val,
    lk: &EventLookup<'_>,
) -> Result<(), String> {
    let room = MAX_DELTA_DEPTH.saturating_sub(tokens.len());
    if tokens.len() > MAX_DELTA_DEPTH || val_depth(&value, room) > room {
        return Err(format!(
            "state.delta value nesting exceeds {MAX_DELTA_DEPTH} levels at {}",
            pointer(tokens)
        ));
    }
    add_value(doc, tokens, value, lk)
}

fn apply_op(doc: &mut Val, op: &Op, lk: &EventLookup<'_>) -> Result<(), String> {
    assert_allowed(&op.path)?;
    match op.kind {
        OpKind::Add => add_checked(doc, &op.path, op.value.clone(), lk),
        OpKind::Remove => remove_value(doc, &op.path, lk),
        OpKind::Replace => {
            value_at(doc, &op.path, lk)?;
            remove_value(doc, &op.path, lk)?;
            add_checked(doc, &op.path, op.value.clone(), lk)
        }
        OpKind::Test => {
            let cur = value_at(doc, &op.path, lk)?;
            if lk.stringify(&cur) != lk.stringify(&op.value) {
                return Err(format!("JSON Patch test failed at {}", pointer(&op.path)));
            }
            Ok(())
        }
        OpKind::Move | OpKind::Copy => {
            let from = op.from.as_deref().unwrap_or(&[]);
            assert_allowed(from)?;
            let value = value_at(doc, from, lk)?;
            if op.kind == OpKind::Copy {
                return add_checked(doc, &op.path, value, lk);
            }
            if from.len() < op.path.len() && op.path.starts_with(from) {
                return Err(format!(
                    "Cannot move {} into its descendant {}",
                    pointer(from),
                    pointer(&op.path)
                ));
            }
            remove_value(doc, from, lk)?;
            add_checked(doc, &op.path, value, lk)
        }
    }
}

fn type_of_nullish(v: &Val) -> &'static str {
    if matches!(v, Val::Null) {
        "null"
    } else {
        "undefined"
    }
}

/// `syncRefs(refs, ids)` with the reference's TypeError messages.
fn sync_refs(refs: &Val, ids: &Val, lk: &EventLookup<'_>) -> Result<Val, String> {
    let list = match refs {
        Val::Arr(a) => a,
        v if v.is_nullish() => {
            return Err(format!(
                "Cannot read properties of {} (reading 'map')",
                type_of_nullish(v)
            ))
        }
        _ => return Err("refs.map is not a function".into()),
    };
    let mut out: Vec<Val> = Vec::with_capacity(list.len());
    let mut by_id: HashMap<Rc<str>, usize> = HashMap::default();
    // The id's type, then its text.
    let key = |v: &Val| -> Option<String> {
        let (tag, text) = match v {
            Val::Undef => ('u', Cow::Borrowed("")),
            Val::Null => ('n', Cow::Borrowed("")),
            Val::Bool(b) => ('b', Cow::Borrowed(if *b { "true" } else { "false" })),
            // Equal numbers (0 and -0 too) print the same, distinct ones differently.
            Val::Num(n) => ('d', Cow::Owned(js_number_to_string(*n))),
            Val::Str(s) => ('s', Cow::Borrowed(&**s)),
            // A record or a list: the reference's Map compares it by identity; here by its text,
            // as a view and the read model's list hold the same event's value.
            Val::Obj(_) | Val::Arr(_) => ('o', Cow::Owned(v.to_json())),
            _ => return None,
        };
        let mut k = String::with_capacity(text.len() + 1);
        k.push(tag);
        k.push_str(&text);
        Some(k)
    };
    for r in list.iter() {
        let id = match r {
            Val::Undef | Val::Null => {
                return Err(format!(
                    "Cannot read properties of {} (reading 'id')",
                    type_of_nullish(r)
                ))
            }
            _ => lk.member(r, "id").unwrap_or_default(),
        };
        let k = key(&id);
        match k.as_ref().and_then(|k| by_id.get(k.as_str()).copied()) {
            Some(p) => {
                if let Some(s) = out.get_mut(p) {
                    *s = r.clone();
                }
            }
            None => {
                if let Some(k) = k {
                    by_id.insert(Rc::from(k), out.len());
                }
                out.push(r.clone());
            }
        }
    }
    let ids = match ids {
        Val::Arr(a) => a,
        v if v.is_nullish() => {
            return Err(format!(
                "Cannot read properties of {} (reading 'forEach')",
                type_of_nullish(v)
            ))
        }
        _ => return Err("ids.forEach is not a function".into()),
    };
    for id in ids.iter() {
        let k = key(id);
        if k.as_ref()
            .map(|k| by_id.contains_key(k.as_str()))
            .unwrap_or(false)
        {
            continue;
        }
        if let Some(k) = k {
            by_id.insert(Rc::from(k), out.len());
        }
        out.push(
            Obj::new()
                .k("id", id.clone())
                .k("sourceEventId", id.clone())
                .into_val(),
        );
    }
    Ok(Val::arr(out))
}

fn is_failed_terminal(s: &str) -> bool {
    matches!(
        s,
        "failed" | "canceled" | "cancelled" | "aborted" | "closed" | "not_found"
    )
}

/// The subagents re-sync of step 6.
fn sync_subagents(sub: &Val, lk: &EventLookup<'_>) -> Result<Val, String> {
    let threads = match sub {
        Val::Undef | Val::Null => {
            return Err(format!(
                "Cannot read properties of {} (reading 'threads')",
                type_of_nullish(sub)
            ))
        }
        Val::Obj(o) => o.get("threads").cloned().unwrap_or_default(),
        _ => Val::Undef,
    };
    let list = match &threads {
        Val::Arr(a) => a.clone(),
        v if v.is_nullish() => {
            return Err(format!(
                "Cannot read properties of {} (reading 'length')",
                type_of_nullish(v)
            ))
        }
        _ => return Err("state.subagents.threads.filter is not a function".into()),
    };
    for t in list.iter() {
        if t.is_nullish() {
            return Err(format!(
                "Cannot read properties of {} (reading 'status')",
                type_of_nullish(t)
            ));
        }
    }
    let pick = |f: &dyn Fn(&str) -> bool| {
        Val::arr(
            list.iter()
                .filter(|t| {
                    lk.member(t, "status")
                        .as_ref()
                        .and_then(Val::as_str)
                        .is_some_and(f)
                })
                .map(|t| lk.member(t, "threadId").unwrap_or_default())
                .collect(),
        )
    };
    let mut o = sub.as_obj().cloned().unwrap_or_default();
    o.set("hasSubagents", Val::Bool(!list.is_empty()));
    o.set(
        "activeThreadIds",
        pick(&|s| matches!(s, "pending" | "running" | "blocked")),
    );
    o.set("completedThreadIds", pick(&|s| s == "completed"));
    o.set("failedThreadIds", pick(&is_failed_terminal));
    Ok(o.into_val())
}

/// JS object spread `{...v}` of any value.
fn spread(v: &Val) -> Obj {
    match v {
        Val::Obj(o) => (**o).clone(),
        Val::Arr(a) => {
            let mut o = Obj::new();
            for (i, x) in a.iter().enumerate() {
                o.set_dyn(&i.to_string(), x.clone());
            }
            o
        }
        Val::Str(s) => {
            let mut o = Obj::new();
            let units: Vec<u16> = s.encode_utf16().collect();
            for (i, u) in units.iter().enumerate() {
                o.set_dyn(&i.to_string(), Val::string(String::from_utf16_lossy(&[*u])));
            }
            o
        }
        _ => Obj::new(),
    }
}

/// Outcome of running the active deltas.
pub struct Outcome {
    /// The document: top-level units (and `readModel` with placeholders for keys not in units).
    pub doc: Obj,
    /// Failure diagnostics not stored in the document (diagnostics not a unit), in order.
    pub side_failures: Vec<Val>,
    /// A failure happened and `hydration` is not a unit: the output status is "stale".
    pub side_stale: bool,
    /// The whole state's root keys in order (the document holds only the units).
    pub order: Vec<&'static str>,
    /// The reference's projection throws at this delta (its `ext`) with this message: a failed
    /// delta's diagnostic cannot join the state's `diagnostics` (not a list, a nullish item).
    pub throws: Option<(u32, String)>,
}

/// The root keys of the whole state in order after one delta, whose operations are `ops` when
/// it applied (`None`: it failed). The reference's patch copies put a root key an operation
/// replaces (removes, then adds) last, drop one it removes, append one it adds if absent (an
/// existing one keeps its place), and append the `hydration` it rewrites after each delta (and
/// the `diagnostics` of a failure) if gone.
fn reorder(order: &mut Vec<&'static str>, ops: Option<&[Op]>) {
    let root = |p: &[String]| match p {
        [k] => super::state::STATE_KEYS.iter().copied().find(|s| s == k),
        _ => None,
    };
    let put = |order: &mut Vec<&'static str>, k: &'static str| {
        if !order.contains(&k) {
            order.push(k);
        }
    };
    let Some(ops) = ops else {
        put(order, "diagnostics");
        put(order, "hydration");
        return;
    };
    for op in ops {
        let from = match op.kind {
            OpKind::Remove | OpKind::Replace => Some(op.path.as_slice()),
            OpKind::Move => op.from.as_deref(),
            OpKind::Add | OpKind::Copy | OpKind::Test => None,
        };
        if let Some(k) = from.and_then(root) {
            order.retain(|x| *x != k);
        }
        if let Some(k) =
            root(&op.path).filter(|_| !matches!(op.kind, OpKind::Remove | OpKind::Test))
        {
            put(order, k);
        }
    }
    put(order, "hydration");
}

/// The diagnostic of a delta that failed with `msg` (§3.13.4), and its id.
fn failure_diagnostic(d: &Prepared, msg: String) -> (String, Val) {
    let id_str = d.event_id.to_js_string();
    let diag_id = format!("state-delta:{id_str}");
    let failure = Obj::new()
        .k("id", Val::str(&diag_id))
        .k("sourceEventId", d.event_id.clone())
        .k("title", Val::str("state.delta apply failed"))
        .k("detail", Val::string(msg))
        .k("status", Val::str("failed"))
        .into_val();
    (diag_id, failure)
}

/// Run `deltas` in order on `doc` (the units), per §3.13.3 / §3.13.4.
pub fn run(
    mut doc: Obj,
    deltas: &[&Prepared],
    event_count: f64,
    lk: &EventLookup<'_>,
    diag_unit: bool,
    hydration_unit: bool,
    mut order: Vec<&'static str>,
) -> Outcome {
    let mut side_failures = Vec::new();
    let mut side_stale = false;
    let mut throws = None;
    for d in deltas {
        let result = match &d.ops {
            Err(e) => Err(e.clone()),
            Ok(ops) => apply_all(&doc, ops, event_count, lk),
        };
        reorder(&mut order, d.ops.as_deref().ok().filter(|_| result.is_ok()));
        match result {
            Ok(next) => doc = next,
            Err(msg) => {
                let (diag_id, failure) = failure_diagnostic(d, msg);
                if diag_unit {
                    let mut list = match diagnostics_without(doc.get("diagnostics"), &diag_id) {
                        Ok(list) => list,
                        Err(msg) => {
                            throws = Some((d.ext, msg));
                            break;
                        }
                    };
                    list.push(failure);
                    doc.set("diagnostics", Val::arr(list));
                } else {
                    side_failures.push(failure);
                }
                if hydration_unit {
                    let mut o = spread(&doc.get("hydration").cloned().unwrap_or_default());
                    o.set("status", Val::str("stale"));
                    doc.set("hydration", o.into_val());
                } else {
                    side_stale = true;
                }
            }
        }
    }
    Outcome {
        doc,
        side_failures,
        side_stale,
        order,
        throws,
    }
}

fn apply_all(doc: &Obj, ops: &[Op], event_count: f64, lk: &EventLookup<'_>) -> Result<Obj, String> {
    let had_hydration = doc.contains_key("hydration");
    let mut v = Obj::clone(doc).into_val();
    for op in ops {
        apply_op(&mut v, op, lk)?;
    }
    let Val::Obj(rc) = v else {
        return Err("state.delta patch must keep projection state as an object".into());
    };
    let mut d = Rc::try_unwrap(rc).unwrap_or_else(|rc| (*rc).clone());
    // Step 6 on the units present in the document.
    let was = |d: &Obj, k: &str| doc.contains_key(k) || d.contains_key(k);
    let rm_in = was(&d, "readModel");
    let rm = d.get("readModel").cloned().unwrap_or_default();
    let read_rm = |k: &str| -> Result<Val, String> {
        if rm.is_nullish() {
            return Err(format!(
                "Cannot read properties of {} (reading '{k}')",
                type_of_nullish(&rm)
            ));
        }
        Ok(rm.get(k).cloned().unwrap_or_default())
    };
    for (unit, key) in super::refs::REF_VIEWS {
        let unit_in = was(&d, unit);
        if unit_in || rm_in {
            let refs = d.get(unit).cloned().unwrap_or_default();
            let ids = read_rm(key)?;
            if unit_in {
                let synced = sync_refs(&refs, &ids, lk)?;
                d.set(unit, synced);
            }
        }
    }
    if let Some(sub) = d.get("subagents").cloned() {
        let synced = sync_subagents(&sub, lk)?;
        d.set("subagents", synced);
    } else if doc_removed(doc, &d, "subagents") {
        return Err("Cannot read properties of undefined (reading 'threads')".into());
    }
    if had_hydration || d.contains_key("hydration") {
        let mut h = spread(&d.get("hydration").cloned().unwrap_or_default());
        h.set("eventCount", Val::Num(event_count));
        d.set("hydration", h.into_val());
    }
    Ok(d)
}

fn doc_removed(before: &Obj, after: &Obj, k: &str) -> bool {
    before.contains_key(k) && !after.contains_key(k)
}

/// Is `k` a canonical array index key? (re-export for callers building documents)
pub fn index_key(k: &str) -> bool {
    is_array_index_key(k).is_some()
}

// ---- the exported functions, over a whole state ----------------------------------------------

/// The deltas the exported `applyAgentRuntimeStateDelta(s)ToProjectionState` apply to a
/// projection state given whole (spec §2.8), prepared once.
///
/// The caller hands over only what [`WholeStatePass::needed_json`] names; every other value may
/// stand for itself as a placeholder (`Val::Event`), which the pass does not read, and an item
/// the re-sync alone reads may be a placeholder with the members it reads beside it ([`Held`]).
/// A failing
/// delta writes `diagnostics` and reads each item's `id`: where the list or one of those is a
/// placeholder, the run stops ([`PassError::NeedsDiagnostics`]) and is asked again with the
/// list whole.
pub struct WholeStatePass {
    deltas: Vec<Prepared>,
}

/// Why a [`WholeStatePass`] gave no state.
#[derive(Debug, PartialEq)]
pub enum PassError {
    /// The reference throws out of the function with this message (a failure cannot be
    /// recorded: `diagnostics` is not an array).
    Throws(String),
    /// A delta failed and the state's `diagnostics` was left out (a placeholder): run again
    /// with it ([`WholeStatePass::needed_json`] `with_diagnostics`).
    NeedsDiagnostics,
}

/// What a [`WholeStatePass`] made of a state.
pub struct WholeOutcome {
    pub state: Val,
    /// The last delta applied without error.
    pub applied: bool,
    /// The last delta's error.
    pub error: Option<String>,
}

/// `{...v, k: x}` key order: an existing key keeps its place.
fn with_key(v: &Val, k: &str, x: Val) -> Val {
    let mut o = spread(v);
    o.set_dyn(k, x);
    o.into_val()
}

/// `state.diagnostics.filter((item) => item.id !== id)` of the reference's `upsertDiagnostic`
/// (a failed delta's diagnostic replaces its earlier one), with its TypeErrors (`Err`): a list
/// that is not an array, a nullish item.
fn diagnostics_without(list: Option<&Val>, id: &str) -> Result<Vec<Val>, String> {
    let list = match list {
        Some(Val::Arr(a)) => a,
        Some(v @ (Val::Null | Val::Undef)) => {
            return Err(format!(
                "Cannot read properties of {} (reading 'filter')",
                type_of_nullish(v)
            ))
        }
        None => return Err("Cannot read properties of undefined (reading 'filter')".into()),
        Some(_) => return Err("state.diagnostics.filter is not a function".into()),
    };
    for x in list.iter() {
        read_prop(x, "id")?;
    }
    Ok(list
        .iter()
        .filter(|x| x.get("id").and_then(Val::as_str) != Some(id))
        .cloned()
        .collect())
}

/// `v.k` for the reference's property reads, with its TypeError message on a nullish `v`.
fn read_prop(v: &Val, k: &str) -> Result<Val, String> {
    if v.is_nullish() {
        return Err(format!(
            "Cannot read properties of {} (reading '{k}')",
            type_of_nullish(v)
        ));
    }
    Ok(v.get(k).cloned().unwrap_or_default())
}

impl WholeStatePass {
    /// `applyAgentRuntimeStateDeltaToProjectionState`: `None` when `event` is not a
    /// `state.delta` event (the state is returned as it is).
    pub fn of_event(event: Ev<'_>) -> Option<WholeStatePass> {
        prepare(event).map(|p| WholeStatePass { deltas: vec![p] })
    }

    pub fn is_empty(&self) -> bool {
        self.deltas.is_empty()
    }

    /// What of the state the pass reads or writes, as JSON text: a list of paths, each
    /// `[whole, token, ...]`: the containers on the path are needed (their members, each of
    /// which may otherwise stand for itself), and the value at its end when `whole` is 1 or 2
    /// (2: read by the re-sync, which takes the object holding it as a placeholder and [`Held`]
    /// members where no path of another kind names that object or goes through it). A
    /// token `*` is any member (an array's items). The re-sync after each patch reads each ref
    /// view's `id` and the read model's lists of its ids, the subagents' threads' `threadId`
    /// and `status`, and `hydration`; an operation needs the containers on its paths, and the
    /// value itself where it reads one (`test`; the source of `move` and `copy`). An array
    /// index is any item where an operation adds or removes one (it may shift the items
    /// another one reads). Paths are cut at [`NEED_DEPTH`] tokens (the value there whole). A
    /// failure writes `diagnostics`: it is needed only `with_diagnostics` (without it, a run
    /// that fails says so: [`PassError::NeedsDiagnostics`]).
    pub fn needed_json(&self, with_diagnostics: bool) -> String {
        let mut out = String::from("[[1,\"hydration\"]");
        for (unit, key) in super::refs::REF_VIEWS {
            need_path(&mut out, Need::Held, [unit, "*", "id"].into_iter());
            need_path(&mut out, Need::Whole, ["readModel", key].into_iter());
        }
        for key in ["threadId", "status"] {
            need_path(
                &mut out,
                Need::Held,
                ["subagents", "threads", "*", key].into_iter(),
            );
        }
        if with_diagnostics {
            out.push_str(",[1,\"diagnostics\"]");
        }
        let ops = || {
            self.deltas
                .iter()
                .filter_map(|d| d.ops.as_ref().ok())
                .flatten()
        };
        let item = |t: &str| t == "-" || index_key(t);
        // The same container, any index for any index (a shift may change which index names a
        // list).
        let same = |a: &[String], b: &[String]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y || (item(x) && item(y)))
        };
        // The containers whose items may shift: where an operation adds or removes one, and
        // the ref views (the re-sync drops an item whose id an earlier one has).
        let mut shifting: Vec<&[String]> = Vec::new();
        for op in ops() {
            let moved: Option<&Vec<String>> = match op.kind {
                OpKind::Add | OpKind::Copy | OpKind::Remove => None,
                OpKind::Move => op.from.as_ref(),
                OpKind::Replace | OpKind::Test => continue,
            };
            for path in std::iter::once(&op.path).chain(moved) {
                if let Some((last, head)) = path.split_last() {
                    if item(last) {
                        shifting.push(head);
                    }
                }
            }
        }
        // Past this many, any index names any item.
        let every = shifting.len() > SHIFTING_LIMIT;
        for op in ops() {
            let from = op.from.iter().map(|f| (true, f));
            for (whole, path) in std::iter::once((op.kind == OpKind::Test, &op.path)).chain(from) {
                let tokens = path.iter().take(NEED_DEPTH).enumerate().map(|(i, t)| {
                    let head = path.get(..i).unwrap_or_default();
                    let ref_view = || match head {
                        [root] => super::refs::REF_VIEWS.iter().any(|(u, _)| root == u),
                        _ => false,
                    };
                    let shifts = || ref_view() || every || shifting.iter().any(|c| same(c, head));
                    if item(t) && shifts() {
                        "*"
                    } else {
                        t.as_str()
                    }
                });
                let whole = whole || path.len() > NEED_DEPTH;
                need_path(
                    &mut out,
                    if whole { Need::Whole } else { Need::Part },
                    tokens,
                );
            }
        }
        out.push(']');
        out
    }

    /// Run the deltas in order over `state` (§3.13.3, §3.13.4).
    /// `held`: what the placeholders of `state` that stand for objects the re-sync reads hold.
    pub fn run(&self, state: &Val, held: &Held) -> Result<WholeOutcome, PassError> {
        let lk = EventLookup {
            events: &[],
            pos_of_ext: &HashMap::default(),
            held: Some(held),
        };
        let mut doc = state.clone();
        let mut applied = false;
        let mut error = None;
        for d in &self.deltas {
            let result = match &d.ops {
                Err(e) => Err(e.clone()),
                Ok(ops) => apply_whole(&doc, ops, &lk),
            };
            match result {
                Ok(next) => {
                    doc = next;
                    applied = true;
                    error = None;
                }
                Err(msg) => {
                    let (diag_id, failure) = failure_diagnostic(d, msg.clone());
                    // A list, item or id that crossed as a placeholder (an operation named the
                    // list) needs the list whole.
                    let held = doc.get("diagnostics");
                    let placeholder = |x: &Val| matches!(x, Val::Event(_));
                    if held.is_some_and(placeholder)
                        || held.and_then(Val::as_arr).is_some_and(|a| {
                            a.iter()
                                .any(|x| placeholder(x) || x.get("id").is_some_and(placeholder))
                        })
                    {
                        return Err(PassError::NeedsDiagnostics);
                    }
                    let mut list =
                        diagnostics_without(held, &diag_id).map_err(PassError::Throws)?;
                    list.push(failure);
                    let hydration = with_key(
                        &doc.get("hydration").cloned().unwrap_or_default(),
                        "status",
                        Val::str("stale"),
                    );
                    let mut o = spread(&doc);
                    o.set("diagnostics", Val::arr(list));
                    o.set("hydration", hydration);
                    doc = o.into_val();
                    applied = false;
                    error = Some(msg);
                }
            }
        }
        Ok(WholeOutcome {
            state: doc,
            applied,
            error,
        })
    }
}

/// The deltas not yet superseded, by the area each patches (their places in a list of
/// deltas): a later event that [`touches`] an area supersedes its deltas.
#[derive(Default)]
pub struct ActiveAreas {
    by_area: HashMap<String, Vec<usize>>,
}

impl ActiveAreas {
    /// Delta `i` patches `area`.
    pub fn add(&mut self, area: &str, i: usize) {
        self.by_area.entry(area.to_owned()).or_default().push(i);
    }

    /// The areas a later event (not a delta) touches. `Err`: the reference throws on it.
    pub fn touched(&self, ev: Ev<'_>) -> Result<Vec<String>, Odd> {
        let mut hit = Vec::new();
        for a in self.by_area.keys() {
            if touches(ev, a)? {
                hit.push(a.clone());
            }
        }
        Ok(hit)
    }

    /// The deltas of `area`, superseded: the area holds none after.
    pub fn supersede(&mut self, area: &str) -> Vec<usize> {
        self.by_area.remove(area).unwrap_or_default()
    }
}

/// The deltas of a list (`applyAgentRuntimeStateDeltasToProjectionState`: every `state.delta`
/// event but those superseded by a later event, §3.13.2), read one event after another: the
/// caller may read its events in any form an [`Ev`] reads.
#[derive(Default)]
pub struct DeltaList {
    prepared: Vec<Option<Prepared>>,
    /// The deltas not yet superseded (their places in `prepared`).
    active: ActiveAreas,
}

impl DeltaList {
    /// The next event: a delta joins the list; another event supersedes the active deltas of
    /// the areas it touches. `Err`: the reference throws on it.
    pub fn push(&mut self, ev: Ev<'_>) -> Result<(), Odd> {
        if let Some(p) = prepare(ev) {
            if let Some(a) = &p.area {
                self.active.add(a, self.prepared.len());
            }
            self.prepared.push(Some(p));
            return Ok(());
        }
        for a in self.active.touched(ev)? {
            for i in self.active.supersede(&a) {
                if let Some(slot) = self.prepared.get_mut(i) {
                    *slot = None;
                }
            }
        }
        Ok(())
    }

    /// [`Self::push`] of each of `events` in turn. `Err` names the event by its position there.
    pub fn push_values(&mut self, events: &[Value]) -> Result<(), (usize, Odd)> {
        for (pos, e) in events.iter().enumerate() {
            self.push(Ev::of(e)).map_err(|o| (pos, o))?;
        }
        Ok(())
    }

    /// The areas of the deltas read so far that are not superseded yet, as a JSON array of
    /// their names: only while one is can a later event that is not a delta change the pass (or
    /// throw, as the reference does reading it for one), and only by the fields [`AREA_READS`]
    /// gives for them.
    pub fn later_areas(&self) -> String {
        let mut out = String::from("[");
        for (i, area) in self.active.by_area.keys().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_json_str(area, &mut out);
        }
        out.push(']');
        out
    }

    /// The pass of the deltas left.
    pub fn finish(self) -> WholeStatePass {
        WholeStatePass {
            deltas: self.prepared.into_iter().flatten().collect(),
        }
    }
}

/// Past this depth a path's value is needed whole ([`WholeStatePass::needed_json`]).
const NEED_DEPTH: usize = 32;

/// Past this many lists an operation may shift, an index on any path names any item
/// ([`WholeStatePass::needed_json`]: the check is per token and list).
const SHIFTING_LIMIT: usize = 64;

/// How a path of [`WholeStatePass::needed_json`] needs the value at its end.
#[derive(Clone, Copy)]
enum Need {
    /// Only the containers on the path (flag 0).
    Part,
    /// The value whole (flag 1).
    Whole,
    /// The value whole, read by the re-sync from the object that holds it, which may cross as
    /// a placeholder with the members such paths name beside it ([`Held`]) where no other path
    /// names it (flag 2).
    Held,
}

/// `,[flag, token, ...]` of [`WholeStatePass::needed_json`].
fn need_path<'t>(out: &mut String, need: Need, tokens: impl Iterator<Item = &'t str>) {
    out.push_str(match need {
        Need::Part => ",[0",
        Need::Whole => ",[1",
        Need::Held => ",[2",
    });
    for t in tokens {
        out.push(',');
        write_json_str(t, out);
    }
    out.push(']');
}

/// One delta over a whole state: the operations, the re-sync of refs and subagents, and the
/// pre-delta event count (§3.13.3 steps 4-7).
fn apply_whole(doc: &Val, ops: &[Op], lk: &EventLookup<'_>) -> Result<Val, String> {
    let mut v = doc.clone();
    for op in ops {
        apply_op(&mut v, op, lk)?;
    }
    let Val::Obj(rc) = v else {
        return Err("state.delta patch must keep projection state as an object".into());
    };
    let mut d = Rc::try_unwrap(rc).unwrap_or_else(|rc| (*rc).clone());
    let rm = d.get("readModel").cloned().unwrap_or_default();
    for (unit, key) in super::refs::REF_VIEWS {
        let refs = d.get(unit).cloned().unwrap_or_default();
        let ids = read_prop(&rm, key)?;
        d.set_dyn(unit, sync_refs(&refs, &ids, lk)?);
    }
    let sub = d.get("subagents").cloned().unwrap_or_default();
    d.set("subagents", sync_subagents(&sub, lk)?);
    let count = read_prop(doc.get("hydration").unwrap_or(&Val::Undef), "eventCount")?;
    let hydration = with_key(
        &d.get("hydration").cloned().unwrap_or_default(),
        "eventCount",
        count,
    );
    d.set("hydration", hydration);
    Ok(d.into_val())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two keys a failed delta adds back stand where the reference's state has them.
    #[test]
    fn reorder_positions() {
        use crate::projection::state::STATE_KEYS;
        assert_eq!(STATE_KEYS.get(10), Some(&"diagnostics"));
        assert_eq!(STATE_KEYS.get(13), Some(&"hydration"));
    }

    #[test]
    fn supersession_reads_only_its_fields() {
        let mut areas: Vec<String> = PATCHABLE_ROOTS.iter().map(|r| r.to_string()).collect();
        for k in crate::projection::read_model::READ_MODEL_KEYS {
            areas.push(format!("readModel.{k}"));
        }
        areas.push("readModel.*".into());
        for (area, fields) in AREA_READS {
            assert!(areas.iter().any(|a| a == area), "{area}");
            assert!(
                fields.iter().all(|f| SUPERSESSION_FIELDS.contains(f)),
                "{area}"
            );
        }
        let opts =
            serde_json::json!({"actionRate": 0.5, "subagentRate": 0.5, "stateDeltaRate": 0.2});
        let opts = crate::generator::GenOptions::from_json(&opts).unwrap_or_default();
        let events = crate::generator::generate(600, 7, &opts);
        // Each event as it is, and every tenth with each supersession field set to odd values
        // in turn (`null`, a number, a string, a record with a length, lists).
        let odd = [
            Value::Null,
            serde_json::json!(5),
            serde_json::json!(""),
            serde_json::json!("tool.x"),
            serde_json::json!({"length": 1}),
            serde_json::json!([]),
            serde_json::json!(["a"]),
        ];
        let mut cases: Vec<Value> = events.clone();
        for e in events.iter().step_by(10) {
            for field in SUPERSESSION_FIELDS {
                for v in &odd {
                    let mut changed = e.clone();
                    if let Some(m) = changed.as_object_mut() {
                        m.insert(field.to_string(), v.clone());
                    }
                    cases.push(changed);
                }
            }
        }
        let read = |ev: Ev<'_>, a: &str| touches(ev, a).map_err(|o| o.to_string());
        for e in &cases {
            let Some(map) = e.as_object() else { continue };
            let picked: Map<String, Value> = map
                .iter()
                .filter(|(k, _)| SUPERSESSION_FIELDS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let picked = Value::Object(picked);
            for a in &areas {
                assert_eq!(read(Ev::of(e), a), read(Ev::of(&picked), a), "{a} {e}");
                // Only the fields `AREA_READS` gives for the area decide it (the JS wrapper sends
                // no others of the events after a list's last delta); an area it does not list,
                // none.
                let Some((_, fields)) = AREA_READS.iter().find(|(area, _)| area == a) else {
                    assert_eq!(read(Ev::of(e), a), Ok(false), "{a} {e}");
                    continue;
                };
                let only: Map<String, Value> = map
                    .iter()
                    .filter(|(k, _)| fields.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                assert_eq!(
                    read(Ev::of(e), a),
                    read(Ev::of(&Value::Object(only)), a),
                    "{a} {e}"
                );
            }
        }
    }
}

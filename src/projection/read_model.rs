//! `readModel` (spec §3.1) and the `tools` / `actions` buckets (§3.2): the read-model
//! accumulator, kept incrementally (projections appended, earlier `action.required`
//! projections re-projected in place when their resolution arrives).

use crate::contract::fxhash::{HashMap, HashSet};

use serde_json::Value;

use super::events::{EventsByPos, Stored};
use super::normalization::{ev_val, record};
use super::patch::{list_op, ListTracker, Patch, PatchOp, Seg};
use super::templates;
use crate::contract::event::{Ev, Odd};
use crate::contract::js::js_string_to_number;
use crate::contract::val::{JsKey, Obj, Val};

use super::view_rules::{
    self, ACTION_KIND_KEY, ACTION_REQUIRED_CLASS, ACTION_RESOLVED_KEY, CONTROLS_KEY,
    CONTROL_LABEL_PREFIX, RESOLVED_FROM_KEY, TARGET_MODULE_KEY,
};
pub use super::view_rules::{is_action_terminal, status_key};

/// `agentEventDisplayStatusKey(ev)`.
pub fn display_status_key(ev: Ev<'_>) -> &'static str {
    view_rules::display_status_key(ev.cls(), ev.status())
}

/// `agentEventActionKind(ev)`: `payload.actionKind` if a string, else "".
pub fn action_kind(ev: Ev<'_>) -> &str {
    ev.payload_get(ACTION_KIND_KEY)
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// `agentEventTargetModule(ev)`.
pub fn target_module(ev: Ev<'_>) -> &str {
    ev.payload_get(TARGET_MODULE_KEY)
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// `projectAgentRuntimeAction(ev)`: actionKind, targetModule, labelKey, decision.
pub fn project_action(ev: Ev<'_>) -> (&str, &str, &'static str, &'static str) {
    let tm = target_module(ev);
    let (ak, label, decision) = view_rules::action_of(action_kind(ev), tm);
    (ak, tm, label, decision)
}

/// `agentEventSurface(ev)`. `Err` where the reference throws: an `eventClass` that is not a
/// string reaches `eventClass?.startsWith(...)` unless the kind decides first.
pub fn surface(ev: Ev<'_>) -> Result<&'static str, Odd> {
    let s = view_rules::surface_of(ev.cls(), ev.kind(), ev.str("phase"));
    if !matches!(s, "human-action" | "permission") {
        ev.cls_op()?;
    }
    Ok(s)
}

/// `isAgentInputSourceRecoveryEvent(ev)`.
pub fn is_input_source_recovery(ev: Ev<'_>) -> bool {
    view_rules::is_input_source_recovery(ev.cls(), action_kind(ev), target_module(ev))
}

fn action_val(ak: &str, tm: &str, label: &str, decision: &str) -> Val {
    Obj::with_capacity(4)
        .k("actionKind", Val::str(ak))
        .k("targetModule", Val::str(tm))
        .k("labelKey", Val::str(label))
        .k("decision", Val::str(decision))
        .into_val()
}

/// The `action` and `actions` of an open action request's projection:
/// `projectAgentRuntimeAction(ev)` and one action per control (non-blank strings, first
/// occurrence kept; none: the action alone). Built natively only where a projection is read in
/// Rust ([`templates::build`]); the wire sends the projection as a template.
pub fn open_action_vals(ev: Ev<'_>) -> (Val, Val) {
    let (ak, tm, label, decision) = project_action(ev);
    let base = action_val(ak, tm, label, decision);
    let mut controls: Vec<&str> = Vec::new();
    if let Some(Value::Array(items)) = ev.payload_get(CONTROLS_KEY) {
        for it in items {
            if let Some(s) = it.as_str() {
                if crate::contract::js::has_content(s) && !controls.contains(&s) {
                    controls.push(s);
                }
            }
        }
    }
    let list = if controls.is_empty() {
        vec![base.clone()]
    } else {
        controls
            .iter()
            .map(|c| action_val(ak, tm, &format!("{CONTROL_LABEL_PREFIX}{c}"), c))
            .collect()
    };
    (base, Val::arr(list))
}

/// `projectAgentRuntimeEvent(ev, ctx)` (§3.1.2): the 13-key projection, made by the JS side
/// from the event (`templates::EVENT_PROJECTION`, or `templates::OPEN_ACTION_PROJECTION` for an
/// open action request). Returns it and whether it carries an action (`p.action` truthy).
pub fn project_event(ev: Ev<'_>, ext: u32, resolved: bool, surf: &'static str) -> (Val, bool) {
    let required = ev.cls() == ACTION_REQUIRED_CLASS;
    let open = required && !resolved;
    let display = if resolved {
        ACTION_RESOLVED_KEY
    } else {
        display_status_key(ev)
    };
    let codes = [
        templates::code_of(&templates::SURFACES, surf),
        templates::code_of(&templates::DISPLAY_KEYS, display),
        u8::from(required && resolved),
    ];
    let template = if open {
        templates::OPEN_ACTION_PROJECTION
    } else {
        templates::EVENT_PROJECTION
    };
    (templates::made(template, ext, codes), open)
}

/// `visible(p)` (§3.1.3).
fn is_visible(ev: Ev<'_>, open: bool, resolved: bool, surf: &str) -> bool {
    let cls = ev.cls();
    if open || resolved {
        return true;
    }
    if matches!(ev.status(), Some("blocked" | "failed" | "canceled")) {
        return true;
    }
    if surf == "artifact" || surf == "evidence" {
        return true;
    }
    if is_action_terminal(cls) || cls == "model.completed" || cls == "model.failed" {
        return true;
    }
    if cls == "tool.catalog.resolved" {
        let n = match ev.payload().and_then(|p| p.get("skillCount")) {
            None | Some(Value::Null) => 0.0,
            Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
            Some(Value::Bool(b)) => f64::from(u8::from(*b)),
            Some(Value::String(s)) => js_string_to_number(s),
            Some(Value::Array(a)) => match a.len() {
                0 => 0.0,
                1 => match &a[0] {
                    Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
                    Value::String(s) => js_string_to_number(s),
                    Value::Null => 0.0,
                    _ => f64::NAN,
                },
                _ => f64::NAN,
            },
            Some(Value::Object(_)) => f64::NAN,
        };
        return n > 0.0;
    }
    false
}

/// Insertion-ordered set of values kept as an output list (JS `Set` semantics: strings and
/// numbers by value, objects by identity, the list keeping them alive).
#[derive(Default)]
pub struct OrderedSet {
    pub items: Vec<Val>,
    seen: HashSet<JsKey>,
    pub tracker: ListTracker,
}

impl OrderedSet {
    pub fn insert(&mut self, v: Val) -> bool {
        if self.seen.insert(v.key()) {
            self.items.push(v);
            true
        } else {
            false
        }
    }
}

/// A key that later events can look up: objects and arrays never equal another event's value,
/// so they get none.
fn lookup_key(v: &Val) -> Option<JsKey> {
    match v {
        Val::Arr(_) | Val::Obj(_) | Val::Event(_) => None,
        other => Some(other.key()),
    }
}

/// The read-model accumulator.
pub struct ReadModelAcc {
    pub source_count: Val,
    /// `events`: one projection per accepted event.
    pub projections: Vec<Val>,
    /// Per projection: index in the `tools` or `actions` bucket.
    bucket: Vec<Option<(bool, usize)>>,
    ext: Vec<u32>,
    pub tools: Vec<Val>,
    pub actions: Vec<Val>,
    /// Per projection: the surface, and the key of its id in `pending` (an object id is its
    /// own key, the same for every projection of that event).
    surfaces: Vec<&'static str>,
    id_keys: Vec<JsKey>,
    visible: Vec<usize>,
    pending: Vec<Option<(JsKey, usize)>>,
    pending_pos: HashMap<JsKey, usize>,
    required_by_event: HashMap<String, usize>,
    required_by_action: HashMap<JsKey, Vec<usize>>,
    resolved_actions: HashSet<JsKey>,
    resolved_events: HashSet<String>,
    /// Fresh keys of object ids.
    next_object_key: usize,
    pub artifact_refs: OrderedSet,
    pub evidence_refs: OrderedSet,
    pub task_refs: OrderedSet,
    pub input_source_recovery: bool,
    pub t_events: ListTracker,
    pub t_tools: ListTracker,
    pub t_actions: ListTracker,
    visible_dirty: bool,
    pending_dirty: bool,
    scalars_dirty: bool,
}

impl ReadModelAcc {
    pub fn new(source_count: Val) -> ReadModelAcc {
        ReadModelAcc {
            source_count,
            projections: Vec::new(),
            bucket: Vec::new(),
            ext: Vec::new(),
            tools: Vec::new(),
            actions: Vec::new(),
            surfaces: Vec::new(),
            id_keys: Vec::new(),
            next_object_key: 0,
            visible: Vec::new(),
            pending: Vec::new(),
            pending_pos: HashMap::default(),
            required_by_event: HashMap::default(),
            required_by_action: HashMap::default(),
            resolved_actions: HashSet::default(),
            resolved_events: HashSet::default(),
            artifact_refs: OrderedSet::default(),
            evidence_refs: OrderedSet::default(),
            task_refs: OrderedSet::default(),
            input_source_recovery: false,
            t_events: ListTracker::default(),
            t_tools: ListTracker::default(),
            t_actions: ListTracker::default(),
            visible_dirty: false,
            pending_dirty: false,
            scalars_dirty: false,
        }
    }

    fn is_resolved(&self, ev: Ev<'_>) -> bool {
        if ev.cls() != ACTION_REQUIRED_CLASS {
            return false;
        }
        let action = ev.js("actionId").truthy()
            && lookup_key(&ev_val(ev, "actionId"))
                .is_some_and(|k| self.resolved_actions.contains(&k));
        action || ev.id().is_some_and(|i| self.resolved_events.contains(i))
    }

    fn pending_set(&mut self, id: JsKey, idx: usize) {
        if let Some(&slot) = self.pending_pos.get(&id) {
            if let Some(e) = self.pending.get_mut(slot) {
                *e = Some((id, idx));
            }
        } else {
            self.pending_pos.insert(id.clone(), self.pending.len());
            self.pending.push(Some((id, idx)));
        }
        self.pending_dirty = true;
    }

    fn pending_delete(&mut self, id: &JsKey) {
        if let Some(slot) = self.pending_pos.remove(id) {
            if let Some(e) = self.pending.get_mut(slot) {
                *e = None;
            }
            self.pending_dirty = true;
            if self.pending.len() > 32 && self.pending_pos.len() * 2 < self.pending.len() {
                self.pending.retain(Option::is_some);
                for (i, (k, _)) in self.pending.iter().flatten().enumerate() {
                    self.pending_pos.insert(k.clone(), i);
                }
            }
        }
    }

    fn store(&mut self, idx: usize, p: Val, open: bool) {
        if let Some(slot) = self.projections.get_mut(idx) {
            *slot = p.clone();
            self.t_events.touch(idx);
        }
        if let Some(Some((is_tool, b))) = self.bucket.get(idx).copied() {
            if is_tool {
                if let Some(s) = self.tools.get_mut(b) {
                    *s = p;
                    self.t_tools.touch(b);
                }
            } else if let Some(s) = self.actions.get_mut(b) {
                *s = p;
                self.t_actions.touch(b);
            }
        }
        let Some(id) = self.id_keys.get(idx).cloned() else {
            return;
        };
        if open {
            self.pending_set(id, idx);
        } else {
            self.pending_delete(&id);
        }
    }

    /// What the reference reads of an event that can make it throw: the surface and the two ref
    /// lists it walks (`forEach`). `Ok` means [`Self::apply`] projects it.
    pub fn check(ev: Ev<'_>) -> Result<&'static str, Odd> {
        ev.for_each("artifactRefs")?;
        ev.for_each("evidenceRefs")?;
        surface(ev)
    }

    /// Accumulator `apply(ev)` (§3.1.1) of an event whose surface is `surf` (from
    /// [`Self::check`]). `events` gives access to earlier events by index (read only when a
    /// later event resolves an earlier one: one compiled copy serves every kind of list).
    pub fn apply(&mut self, ev: Ev<'_>, surf: &'static str, ext: u32, events: &dyn EventsByPos) {
        let cls = ev.cls();
        if is_action_terminal(cls) {
            let mut targets: Vec<usize> = Vec::new();
            if ev.js("actionId").truthy() {
                if let Some(a) = lookup_key(&ev_val(ev, "actionId")) {
                    if let Some(list) = self.required_by_action.get(&a) {
                        targets.extend(list.iter().copied());
                    }
                    self.resolved_actions.insert(a);
                }
            }
            if let Some(r) = ev
                .payload_get(RESOLVED_FROM_KEY)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
            {
                self.resolved_events.insert(r.to_string());
                if let Some(&i) = self.required_by_event.get(r) {
                    targets.push(i);
                }
            }
            for j in targets {
                let Some(old) = events.event_at(j) else {
                    continue;
                };
                let oev = Ev::of(&old);
                let resolved = self.is_resolved(oev);
                let ext_j = self.ext.get(j).copied().unwrap_or(0);
                let surf_j = self.surfaces.get(j).copied().unwrap_or("message");
                let (p, open) = project_event(oev, ext_j, resolved, surf_j);
                self.store(j, p, open);
                self.visible_dirty = true;
            }
        }
        let resolved = self.is_resolved(ev);
        let (p, open) = project_event(ev, ext, resolved, surf);
        let idx = self.projections.len();
        let id = ev_val(ev, "id");
        let id_key = match id.key() {
            JsKey::Ref(_) => {
                self.next_object_key += 1;
                JsKey::Ref(usize::MAX - self.next_object_key)
            }
            k => k,
        };
        self.projections.push(p.clone());
        self.ext.push(ext);
        self.surfaces.push(surf);
        self.id_keys.push(id_key.clone());
        let b = match surf {
            "tool" => {
                self.tools.push(p.clone());
                Some((true, self.tools.len() - 1))
            }
            "human-action" => {
                self.actions.push(p.clone());
                Some((false, self.actions.len() - 1))
            }
            _ => None,
        };
        self.bucket.push(b);
        if is_visible(ev, open, cls == ACTION_REQUIRED_CLASS && resolved, surf) {
            self.visible.push(idx);
            self.visible_dirty = true;
        }
        if open {
            self.pending_set(id_key, idx);
        } else {
            self.pending_delete(&id_key);
        }
        if cls == ACTION_REQUIRED_CLASS {
            if let Some(id) = ev.id() {
                self.required_by_event.insert(id.to_string(), idx);
            }
            if ev.js("actionId").truthy() {
                if let Some(a) = lookup_key(&ev_val(ev, "actionId")) {
                    self.required_by_action.entry(a).or_default().push(idx);
                }
            }
        }
        for r in ev.for_each("artifactRefs").unwrap_or_default() {
            self.artifact_refs.insert(Val::from_json(r));
        }
        for r in ev.for_each("evidenceRefs").unwrap_or_default() {
            self.evidence_refs.insert(Val::from_json(r));
        }
        if ev.js("taskId").truthy() {
            self.task_refs.insert(ev_val(ev, "taskId"));
        }
        if !self.input_source_recovery && is_input_source_recovery(ev) {
            self.input_source_recovery = true;
            self.scalars_dirty = true;
        }
        let _ = record(None);
    }

    pub fn visible_val(&self) -> Val {
        let start = self.visible.len().saturating_sub(8);
        Val::arr(
            self.visible[start..]
                .iter()
                .filter_map(|&i| self.projections.get(i).cloned())
                .collect(),
        )
    }

    pub fn pending_val(&self) -> Val {
        Val::arr(
            self.pending
                .iter()
                .flatten()
                .filter_map(|(_, i)| self.projections.get(*i).cloned())
                .collect(),
        )
    }

    /// One key of the read-model object.
    pub fn key_val(&self, k: &str) -> Val {
        match k {
            "events" => Val::arr(self.projections.clone()),
            "visibleEvents" => self.visible_val(),
            "pendingActions" => self.pending_val(),
            "inputSourceRecovery" => Val::Bool(self.input_source_recovery),
            "sourceCount" => self.source_count.clone(),
            "artifactRefs" => Val::arr(self.artifact_refs.items.clone()),
            "evidenceRefs" => Val::arr(self.evidence_refs.items.clone()),
            "taskRefs" => Val::arr(self.task_refs.items.clone()),
            _ => Val::Undef,
        }
    }

    /// The read-model object (§3.1.4).
    pub fn model(&self) -> Val {
        let mut o = Obj::with_capacity(8);
        for k in READ_MODEL_KEYS {
            o.push(k, self.key_val(k));
        }
        o.into_val()
    }

    /// Patch ops for the read-model keys not in `skip` (keys sent whole elsewhere), at paths
    /// under `base` (the read model's own path).
    pub fn patch_ops(&mut self, base: &[Seg], skip: &dyn Fn(&str) -> bool, out: &mut Vec<PatchOp>) {
        let p = |k: &'static str| {
            let mut path = base.to_vec();
            path.push(Seg::Key(k));
            path
        };
        if !skip("events") {
            let ch = self.t_events.take(self.projections.len());
            out.extend(list_op(p("events"), ch, &self.projections));
        }
        if !skip("visibleEvents") && self.visible_dirty {
            out.push(PatchOp::Replace {
                path: p("visibleEvents"),
                value: self.visible_val(),
            });
        }
        if !skip("pendingActions") && self.pending_dirty {
            out.push(PatchOp::Replace {
                path: p("pendingActions"),
                value: self.pending_val(),
            });
        }
        if !skip("inputSourceRecovery") && self.scalars_dirty {
            out.push(PatchOp::Replace {
                path: p("inputSourceRecovery"),
                value: Val::Bool(self.input_source_recovery),
            });
        }
        for (k, set) in [
            ("artifactRefs", &mut self.artifact_refs),
            ("evidenceRefs", &mut self.evidence_refs),
            ("taskRefs", &mut self.task_refs),
        ] {
            if !skip(k) {
                let ch = set.tracker.take(set.items.len());
                out.extend(list_op(p(k), ch, &set.items));
            }
        }
        self.visible_dirty = false;
        self.pending_dirty = false;
        self.scalars_dirty = false;
    }

    /// Bucket list ops (`tools`, `actions`).
    pub fn bucket_ops(&mut self, tools: bool, actions: bool, out: &mut Vec<PatchOp>) {
        if tools {
            let ch = self.t_tools.take(self.tools.len());
            out.extend(list_op(vec![Seg::Key("tools")], ch, &self.tools));
        }
        if actions {
            let ch = self.t_actions.take(self.actions.len());
            out.extend(list_op(vec![Seg::Key("actions")], ch, &self.actions));
        }
    }

    /// The receiver has everything as it is now.
    pub fn sync(&mut self) {
        self.t_events.sync(self.projections.len());
        self.t_tools.sync(self.tools.len());
        self.t_actions.sync(self.actions.len());
        self.artifact_refs
            .tracker
            .sync(self.artifact_refs.items.len());
        self.evidence_refs
            .tracker
            .sync(self.evidence_refs.items.len());
        self.task_refs.tracker.sync(self.task_refs.items.len());
        self.visible_dirty = false;
        self.pending_dirty = false;
        self.scalars_dirty = false;
    }

    /// Resync one key's tracker after it was sent whole.
    pub fn sync_key(&mut self, k: &str) {
        match k {
            "events" => self.t_events.sync(self.projections.len()),
            "artifactRefs" => self
                .artifact_refs
                .tracker
                .sync(self.artifact_refs.items.len()),
            "evidenceRefs" => self
                .evidence_refs
                .tracker
                .sync(self.evidence_refs.items.len()),
            "taskRefs" => self.task_refs.tracker.sync(self.task_refs.items.len()),
            "visibleEvents" => self.visible_dirty = false,
            "pendingActions" => self.pending_dirty = false,
            "inputSourceRecovery" => self.scalars_dirty = false,
            _ => {}
        }
    }
}

/// The read-model keys in reference order.
pub const READ_MODEL_KEYS: [&str; 8] = [
    "events",
    "visibleEvents",
    "pendingActions",
    "inputSourceRecovery",
    "sourceCount",
    "artifactRefs",
    "evidenceRefs",
    "taskRefs",
];

/// A read model's `sourceCount` from the value given (`input?.sourceCount ?? 0`): none gives 0,
/// any value is kept as it is, a string or a record too, as the reference keeps it. (The wrapper
/// sends none for `null` and `undefined`; a `null` here is what JSON made of `NaN`.)
pub fn source_count_of(given: Option<&Value>) -> Val {
    given.map_or(Val::Num(0.0), Val::from_json)
}

/// `projectAgentRuntimeReadModel({executionEvents, sourceCount})`: the read model alone.
/// `source` values are `Val::Event(i)`, `i` the index in `events`. Duplicate ids are kept
/// (the reference accumulator does not dedupe).
pub fn project_agent_runtime_read_model(
    events: &[Value],
    source_count: Val,
) -> Result<Val, (usize, Odd)> {
    let mut acc = ReadModelAcc::new(source_count);
    for (i, e) in events.iter().enumerate() {
        Ev::with_indexed(e, |ev| {
            let surf = ReadModelAcc::check(ev).map_err(|o| (i, o))?;
            acc.apply(ev, surf, i as u32, &&events[..i]);
            Ok(())
        })?;
    }
    Ok(acc.model())
}

/// The exported read-model accumulator (`createAgentRuntimeReadModelAccumulator`): every event
/// is applied, duplicates included (as in the reference), and kept as its JSON text for the
/// re-projection of action requests their resolution updates. Event `i` (for `Val::Event(i)`)
/// is the `i`-th event applied since construction or `reset`.
pub struct ReadModelAccumulator {
    acc: ReadModelAcc,
    events: Vec<Stored<'static>>,
    /// The next patch replaces the whole model.
    full: bool,
}

impl ReadModelAccumulator {
    /// `sourceCount` as given (the reference's default, 0, applies only when it is absent).
    pub fn new(source_count: Val) -> ReadModelAccumulator {
        ReadModelAccumulator {
            acc: ReadModelAcc::new(source_count),
            events: Vec::new(),
            full: true,
        }
    }

    /// Apply an event, parsed from `text` when there is one. `Err` (nothing changed) where the
    /// reference throws on it.
    pub fn apply(&mut self, event: Value, text: Option<&str>) -> Result<(), Odd> {
        let ext = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
        let (acc, events) = (&mut self.acc, &self.events);
        Ev::with_indexed(&event, |ev| {
            let surf = ReadModelAcc::check(ev)?;
            acc.apply(ev, surf, ext, &events.as_slice());
            Ok::<(), Odd>(())
        })?;
        self.events.push(match text {
            Some(t) => Stored::Text(t.into()),
            None => Stored::Value(Box::new(std::borrow::Cow::Owned(event))),
        });
        Ok(())
    }

    /// Forget every event; the next patch replaces the whole model.
    pub fn reset(&mut self, source_count: Val) {
        *self = ReadModelAccumulator::new(source_count);
    }

    /// The read model.
    pub fn model(&self) -> Val {
        self.acc.model()
    }

    /// What changed since the previous patch (the whole model after `new`/`reset`), at paths
    /// relative to the read model.
    pub fn take_patch(&mut self) -> Patch {
        if self.full {
            self.full = false;
            self.acc.sync();
            return Patch {
                full: true,
                ops: vec![PatchOp::Replace {
                    path: Vec::new(),
                    value: self.acc.model(),
                }],
            };
        }
        let mut ops = Vec::new();
        self.acc.patch_ops(&[], &|_| false, &mut ops);
        Patch { full: false, ops }
    }

    /// `getEventsBySurface(surface)`: the projections on `surface`, in event order.
    pub fn surface_events(&self, surface: &str) -> Val {
        Val::arr(
            self.acc
                .projections
                .iter()
                .zip(&self.acc.surfaces)
                .filter(|(_, s)| **s == surface)
                .map(|(p, _)| p.clone())
                .collect(),
        )
    }
}

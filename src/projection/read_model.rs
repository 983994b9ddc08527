//! `readModel` (spec §3.1) and the `tools` / `actions` buckets (§3.2): the read-model
//! accumulator, kept incrementally (projections appended, earlier `action.required`
//! projections re-projected in place when their resolution arrives).

use crate::contract::fxhash::{HashMap, HashSet};

use serde_json::Value;

use super::normalization::record;
use super::patch::{list_op, ListTracker, OrderedSet, PatchOp, Seg};
use super::templates;
use crate::contract::event::{Ev, Odd};
use crate::contract::js::js_string_to_number;
use crate::contract::val::{JsKey, Obj, Val};

use super::view_rules::{
    self, ACTION_KIND_KEY, ACTION_REQUIRED_CLASS, ACTION_RESOLVED_KEY, CONTROLS_KEY,
    CONTROL_LABEL_PREFIX, RESOLVED_FROM_KEY, TARGET_MODULE_KEY,
};
pub use super::view_rules::{is_action_terminal, status_key};

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

/// What the read model takes of an event's `eventClass` and `status` (a pure function of the
/// two; the JS wrapper asks for it once per pair, [`ClassFacts::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassFacts {
    /// `agentEventDisplayStatusKey(ev)` (unresolved).
    pub display: &'static str,
    /// An action request (`action.required`).
    pub required: bool,
    /// An action resolution (`isActionTerminalEventClass`).
    pub terminal: bool,
    /// Shown in `visibleEvents` for its status or class alone.
    pub shown: bool,
    /// Shown when its `payload.skillCount` is positive.
    pub counted: bool,
}

impl ClassFacts {
    pub fn of(cls: &str, status: Option<&str>) -> ClassFacts {
        let terminal = is_action_terminal(cls);
        ClassFacts {
            display: view_rules::display_status_key(cls, status),
            required: cls == ACTION_REQUIRED_CLASS,
            terminal,
            shown: matches!(status, Some("blocked" | "failed" | "canceled"))
                || terminal
                || cls == "model.completed"
                || cls == "model.failed",
            counted: cls == "tool.catalog.resolved",
        }
    }

    /// As a number: the display key's code (low byte), then one bit per flag from bit 8 (the
    /// JS wrapper reads `required`, `terminal` and `counted`: pkg-template/read-model.js).
    pub fn code(self) -> u16 {
        u16::from(templates::code_of(&templates::DISPLAY_KEYS, self.display))
            | u16::from(self.required) << 8
            | u16::from(self.terminal) << 9
            | u16::from(self.shown) << 10
            | u16::from(self.counted) << 11
    }

    pub fn from_code(code: u16) -> ClassFacts {
        let display = templates::DISPLAY_KEYS
            .get(usize::from(code & 0xff))
            .copied()
            .unwrap_or(ACTION_RESOLVED_KEY);
        ClassFacts {
            display,
            required: code & 1 << 8 != 0,
            terminal: code & 1 << 9 != 0,
            shown: code & 1 << 10 != 0,
            counted: code & 1 << 11 != 0,
        }
    }
}

/// Everything the read-model accumulator reads of an event (spec §3.1.1): taken from a parsed
/// event by [`ReadFacts::of`], or from the caller's own object by the JS wrapper (ids and refs
/// as the numbers it gives their values).
pub struct ReadFacts {
    pub class: ClassFacts,
    pub surface: &'static str,
    /// `Number(payload?.skillCount ?? 0) > 0` (read only for a counted class).
    pub count_positive: bool,
    /// `isAgentInputSourceRecoveryEvent(ev)`.
    pub recovery: bool,
    /// The key of its `id` (an object id's is made unique by the accumulator).
    pub id: JsKey,
    /// The key of a truthy `actionId` (an action request or resolution's only).
    pub action: Option<JsKey>,
    /// A resolution's non-empty string `payload.resolvedFromEventId`.
    pub resolved_from: Option<JsKey>,
    pub artifact_refs: Vec<Val>,
    pub evidence_refs: Vec<Val>,
    /// A truthy `taskId`.
    pub task: Option<Val>,
}

impl ReadFacts {
    /// The facts of a parsed event whose surface is `surface` ([`ReadModelAcc::check`]).
    pub fn of(ev: Ev<'_>, surface: &'static str) -> ReadFacts {
        let class = ClassFacts::of(ev.cls(), ev.status());
        let action = if (class.required || class.terminal) && ev.js("actionId").truthy() {
            lookup_key(&ev.val("actionId"))
        } else {
            None
        };
        let resolved_from = if class.terminal {
            ev.payload_get(RESOLVED_FROM_KEY)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(|r| Val::str(r).key())
        } else {
            None
        };
        let refs = |items: Result<&[Value], Odd>| {
            items
                .unwrap_or_default()
                .iter()
                .map(Val::from_json)
                .collect()
        };
        ReadFacts {
            class,
            surface,
            count_positive: class.counted && skill_count(ev) > 0.0,
            recovery: (class.required || class.terminal) && is_input_source_recovery(ev),
            id: ev.val("id").key(),
            action,
            resolved_from,
            artifact_refs: refs(ev.for_each("artifactRefs")),
            evidence_refs: refs(ev.for_each("evidenceRefs")),
            task: ev.js("taskId").truthy().then(|| ev.val("taskId")),
        }
    }
}

/// `projectAgentRuntimeEvent(ev, ctx)` (§3.1.2): the 13-key projection, made by the JS side
/// from the event (`templates::EVENT_PROJECTION`, or `templates::OPEN_ACTION_PROJECTION` for an
/// open action request) of the class `class` on `surface`. Returns it and whether it carries an
/// action (`p.action` truthy).
pub fn project_event(class: ClassFacts, ext: u32, resolved: bool, surface: &str) -> (Val, bool) {
    let open = class.required && !resolved;
    let display = if resolved {
        ACTION_RESOLVED_KEY
    } else {
        class.display
    };
    let codes = [
        templates::code_of(&templates::SURFACES, surface),
        templates::code_of(&templates::DISPLAY_KEYS, display),
        u8::from(class.required && resolved),
    ];
    let template = if open {
        templates::OPEN_ACTION_PROJECTION
    } else {
        templates::EVENT_PROJECTION
    };
    (templates::made(template, ext, codes), open)
}

/// Whether a projection of `f`'s event is visible (§3.1.3) whatever its resolution: `visible(p)`
/// is this, or the projection is an open or a resolved action request.
fn shown(f: &ReadFacts) -> bool {
    f.class.shown || f.surface == "artifact" || f.surface == "evidence" || f.count_positive
}

/// `Number(payload?.skillCount ?? 0)`.
fn skill_count(ev: Ev<'_>) -> f64 {
    match ev.payload().and_then(|p| p.get("skillCount")) {
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

/// What the accumulator keeps of a projection's event.
struct Slot {
    /// The event's name in the projections (`Val::Made`).
    ext: u32,
    surface: &'static str,
    /// The key of its id in `pending` (an object id is its own key, the same for every
    /// projection of that event).
    id: JsKey,
    /// Its index in the `tools` or `actions` bucket.
    bucket: Option<(bool, usize)>,
}

/// The read-model accumulator.
pub struct ReadModelAcc {
    pub source_count: Val,
    /// `events`: one projection per accepted event.
    pub projections: Vec<Val>,
    /// Per projection: what a later resolution reads of its event, and its bucket slot.
    slots: Vec<Slot>,
    pub tools: Vec<Val>,
    pub actions: Vec<Val>,
    visible: Vec<usize>,
    pending: Vec<Option<(JsKey, usize)>>,
    pending_pos: HashMap<JsKey, usize>,
    required_by_event: HashMap<JsKey, usize>,
    required_by_action: HashMap<JsKey, Vec<usize>>,
    resolved_actions: HashSet<JsKey>,
    resolved_events: HashSet<JsKey>,
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
            slots: Vec::new(),
            tools: Vec::new(),
            actions: Vec::new(),
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
        let Some(slot) = self.slots.get(idx) else {
            return;
        };
        let id = slot.id.clone();
        if let Some((is_tool, b)) = slot.bucket {
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

    /// Accumulator `apply(ev)` (§3.1.1) of an event's facts; `ext` names the event in the
    /// projections (`Val::Made`).
    pub fn apply(&mut self, f: ReadFacts, ext: u32) {
        if f.class.terminal {
            let mut targets: Vec<usize> = Vec::new();
            if let Some(a) = f.action.clone() {
                if let Some(list) = self.required_by_action.get(&a) {
                    targets.extend(list.iter().copied());
                }
                self.resolved_actions.insert(a);
            }
            if let Some(r) = f.resolved_from.clone() {
                if let Some(&i) = self.required_by_event.get(&r) {
                    targets.push(i);
                }
                self.resolved_events.insert(r);
            }
            // The requests a resolution names are resolved by it: their actionId or their id is
            // now among the resolved ones, whatever else they carry.
            let request = ClassFacts::of(ACTION_REQUIRED_CLASS, None);
            for j in targets {
                let Some(slot) = self.slots.get(j) else {
                    continue;
                };
                let (p, open) = project_event(request, slot.ext, true, slot.surface);
                self.store(j, p, open);
                self.visible_dirty = true;
            }
        }
        let shown = shown(&f);
        let id_key = match f.id {
            JsKey::Ref(_) => {
                self.next_object_key += 1;
                JsKey::Ref(usize::MAX - self.next_object_key)
            }
            k => k,
        };
        let resolved = f.class.required
            && (f
                .action
                .as_ref()
                .is_some_and(|a| self.resolved_actions.contains(a))
                || self.resolved_events.contains(&id_key));
        let (p, open) = project_event(f.class, ext, resolved, f.surface);
        let idx = self.projections.len();
        self.projections.push(p.clone());
        let b = match f.surface {
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
        self.slots.push(Slot {
            ext,
            surface: f.surface,
            id: id_key.clone(),
            bucket: b,
        });
        if shown || open || resolved {
            self.visible.push(idx);
            self.visible_dirty = true;
        }
        if open {
            self.pending_set(id_key.clone(), idx);
        } else {
            self.pending_delete(&id_key);
        }
        if f.class.required {
            self.required_by_event.insert(id_key, idx);
            if let Some(a) = f.action {
                self.required_by_action.entry(a).or_default().push(idx);
            }
        }
        for r in f.artifact_refs {
            self.artifact_refs.insert(r);
        }
        for r in f.evidence_refs {
            self.evidence_refs.insert(r);
        }
        if let Some(t) = f.task {
            self.task_refs.insert(t);
        }
        if !self.input_source_recovery && f.recovery {
            self.input_source_recovery = true;
            self.scalars_dirty = true;
        }
        let _ = record(None);
    }

    /// The projections `visibleEvents` holds (the last eight visible), by index.
    pub fn visible_indices(&self) -> &[usize] {
        &self.visible[self.visible.len().saturating_sub(8)..]
    }

    /// The projections `pendingActions` holds, by index.
    pub fn pending_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.pending.iter().flatten().map(|(_, i)| *i)
    }

    /// Whether `visibleEvents`, `pendingActions` and `inputSourceRecovery` changed since the
    /// last call (or the last patch).
    pub fn take_dirty(&mut self) -> [bool; 3] {
        let dirty = [self.visible_dirty, self.pending_dirty, self.scalars_dirty];
        self.visible_dirty = false;
        self.pending_dirty = false;
        self.scalars_dirty = false;
        dirty
    }

    pub fn visible_val(&self) -> Val {
        self.list_of(self.visible_indices().iter().copied())
    }

    pub fn pending_val(&self) -> Val {
        self.list_of(self.pending_indices())
    }

    fn list_of(&self, indices: impl Iterator<Item = usize>) -> Val {
        Val::arr(
            indices
                .filter_map(|i| self.projections.get(i).cloned())
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
            out.extend(list_op(base, &[Seg::Key("events")], ch, &self.projections));
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
                out.extend(list_op(base, &[Seg::Key(k)], ch, &set.items));
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
            out.extend(list_op(&[], &[Seg::Key("tools")], ch, &self.tools));
        }
        if actions {
            let ch = self.t_actions.take(self.actions.len());
            out.extend(list_op(&[], &[Seg::Key("actions")], ch, &self.actions));
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
            acc.apply(ReadFacts::of(ev, surf), i as u32);
            Ok(())
        })?;
    }
    Ok(acc.model())
}

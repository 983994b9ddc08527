//! The `subagents` field: subagent threads, delegation calls and activities
//! (projection spec §3.11).
//!
//! An event is a subagent event when it names a subagent thread (`subagentId`, `workerId` or a
//! payload thread id). Each such event merges into its thread, appends one activity and, for
//! spawn/handoff-like classes, records a delegation call. The accumulator is incremental: the
//! work per event is proportional to the event, and `patch_ops` reports only what changed since
//! the previous call (a new activity is one list slot, a thread update is a few key
//! replacements plus appended reference slots).

use crate::contract::fxhash::HashMap;
use std::rc::Rc;

use serde_json::Value;

use crate::contract::event::{first_of, slots_of, Ev, Field, Js, Odd, OddOp};
use crate::contract::js::{includes, utf16_len, utf16_prefix};
use crate::contract::val::{JsKey, Obj, Val};
use crate::projection::collaboration::{build_collaboration_payload_metadata, CollabInput};
use crate::projection::patch::{list_op, ListTracker, OrderedSet, Patch, PatchOp, Seg};
use crate::projection::view_rules::{SUBAGENT_THREAD_FIELDS, SUBAGENT_THREAD_PAYLOAD_KEYS};

/// Thread keys other than the three reference lists, `isolation` and `collaboration`, in the
/// reference's key order.
const SCALAR_KEYS: [&str; 15] = [
    "threadId",
    "subagentId",
    "parentThreadId",
    "parentTaskId",
    "taskId",
    "taskPath",
    "role",
    "nickname",
    "status",
    "title",
    "summary",
    "promptPreview",
    "lastActivityAt",
    "createdAt",
    "completedAt",
];
const S_THREAD_ID: usize = 0;
const S_SUBAGENT_ID: usize = 1;
const S_PARENT_THREAD_ID: usize = 2;
const S_PARENT_TASK_ID: usize = 3;
const S_TASK_ID: usize = 4;
const S_TASK_PATH: usize = 5;
const S_ROLE: usize = 6;
const S_NICKNAME: usize = 7;
const S_STATUS: usize = 8;
const S_TITLE: usize = 9;
const S_SUMMARY: usize = 10;
const S_PROMPT_PREVIEW: usize = 11;
const S_LAST_ACTIVITY_AT: usize = 12;
const S_CREATED_AT: usize = 13;
const S_COMPLETED_AT: usize = 14;

/// Statuses that end a thread.
pub fn is_terminal_status(s: Option<&str>) -> bool {
    matches!(
        s,
        Some(
            "completed" | "failed" | "canceled" | "cancelled" | "aborted" | "closed" | "not_found"
        )
    )
}

/// Terminal statuses other than `completed`.
pub fn is_failed_terminal_status(s: Option<&str>) -> bool {
    s != Some("completed") && is_terminal_status(s)
}

fn is_active_status(s: Option<&str>) -> bool {
    matches!(s, Some("pending" | "running" | "blocked"))
}

/// JS `a ?? b`.
fn or_else(a: Val, b: impl FnOnce() -> Val) -> Val {
    if a.is_nullish() {
        b()
    } else {
        a
    }
}

/// A string field under JS `??`: `Some` for strings (even empty), `None` for absent or null.
fn str_field<'a>(ev: Ev<'a>, k: &str) -> Option<&'a str> {
    ev.str(k)
}

/// The slots of [`SUBAGENT_THREAD_FIELDS`] (read for every event, without a name lookup).
const THREAD_SLOTS: [usize; SUBAGENT_THREAD_FIELDS.len()] = slots_of(SUBAGENT_THREAD_FIELDS);

/// The event's [`SUBAGENT_THREAD_FIELDS`], in order, with their names.
fn thread_fields<'a>(ev: Ev<'a>) -> impl Iterator<Item = (&'static str, Js<'a>)> {
    SUBAGENT_THREAD_FIELDS
        .into_iter()
        .zip(THREAD_SLOTS)
        .map(move |(k, slot)| (k, ev.js_slot(slot, k)))
}

/// The subagent thread an event belongs to: `subagentId ?? workerId ?? payload thread id`.
/// Only a non-empty string selects a thread.
pub fn subagent_thread_id<'a>(ev: Ev<'a>) -> Option<&'a str> {
    let field = thread_fields(ev).find(|(_, v)| !v.is_nullish());
    let chosen = match field {
        Some((_, v)) => v.as_str(),
        None => ev.raw_str(&SUBAGENT_THREAD_PAYLOAD_KEYS),
    };
    chosen.filter(|s| !s.is_empty())
}

/// Where the reference throws on an event of the subagents model: a class that is not a string
/// (read as one by every subagent event, and by any event without a thread), a thread id that
/// is not a string, refs that are not lists, or a non-string value its collaboration view trims
/// (phase, status, taskId, parent thread, handoffId). Stateless: `Ok` means
/// [`SubagentsAcc::apply`] takes the event.
pub fn check(ev: Ev<'_>) -> Result<(), Odd> {
    let named = thread_fields(ev).find(|(_, v)| !v.is_nullish());
    let thread = match named {
        Some((_, v)) => v.truthy(),
        None => ev.raw_str(&SUBAGENT_THREAD_PAYLOAD_KEYS).is_some(),
    };
    if !thread {
        ev.cls_op()?;
        return Ok(());
    }
    if let Some((k, v)) = named {
        if v.as_str().is_none() {
            return Err(Odd::new(k, v.type_name(), OddOp::StringMethod));
        }
    }
    ev.cls_op()?;
    let mut refs = Vec::new();
    ev.spread("artifactRefs", &mut refs)?;
    ev.spread("evidenceRefs", &mut refs)?;
    ev.str_op("phase")?;
    ev.str_op("status")?;
    ev.str_op("taskId")?;
    if ev
        .raw_str(&["parentThreadId", "parent_thread_id"])
        .is_none()
    {
        ev.str_op("threadId")?;
    }
    ev.str_op("handoffId")?;
    Ok(())
}

/// `payload.parentThreadId ?? payload.parent_thread_id ?? ev.threadId`.
fn parent_thread_id(ev: Ev<'_>) -> Val {
    match ev.raw_str(&["parentThreadId", "parent_thread_id"]) {
        Some(s) => Val::str(s),
        None => ev.val("threadId"),
    }
}

fn parent_thread_str<'a>(ev: Ev<'a>) -> Option<&'a str> {
    ev.raw_str(&["parentThreadId", "parent_thread_id"])
        .or_else(|| str_field(ev, "threadId"))
}

fn payload_num(ev: Ev<'_>, keys: &[&str]) -> Val {
    let Some(p) = ev.payload() else {
        return Val::Undef;
    };
    first_of(p, keys, &|v| v.as_f64().is_some_and(f64::is_finite))
        .and_then(Value::as_f64)
        .map(Val::Num)
        .unwrap_or(Val::Undef)
}

fn payload_bool(ev: Ev<'_>, keys: &[&str]) -> Val {
    let Some(p) = ev.payload() else {
        return Val::Undef;
    };
    first_of(p, keys, &Value::is_boolean)
        .and_then(Value::as_bool)
        .map(Val::Bool)
        .unwrap_or(Val::Undef)
}

fn raw(ev: Ev<'_>, keys: &[&str]) -> Val {
    Val::opt_str(ev.raw_str(keys))
}

/// A preview of at most 280 UTF-16 units (277 + "...").
fn preview280(s: Option<&str>) -> Val {
    match s {
        None | Some("") => Val::Undef,
        Some(s) if utf16_len(s) > 280 => Val::string(format!("{}...", utf16_prefix(s, 277))),
        Some(s) => Val::str(s),
    }
}

fn prompt_preview(ev: Ev<'_>) -> Val {
    preview280(ev.raw_str(&["promptPreview", "prompt_preview", "prompt", "input"]))
}

/// The collaboration view of one event (§3.11.4 inputs).
fn collaboration(ev: Ev<'_>) -> Val {
    let payload = ev
        .get("payload")
        .and_then(Field::json)
        .filter(|p| p.is_object());
    let metadata = payload
        .and_then(|p| p.get("metadata"))
        .filter(|m| m.is_object());
    let input = CollabInput {
        source_type: str_field(ev, "eventClass"),
        collaboration_kind: ev.raw_str(&["collaborationKind", "collaboration_kind"]),
        surface: ev.raw_str(&["collaborationSurface", "collaboration_surface"]),
        phase: match ev.get("phase") {
            Some(v) if !v.is_null() => v.as_str(),
            _ => ev.raw_str(&["collaborationPhase", "collaboration_phase"]),
        },
        status: str_field(ev, "status"),
        runtime_entity: ev.raw_str(&["runtimeEntity", "runtime_entity"]),
        runtime_status: ev.raw_str(&["runtimeStatus", "runtime_status"]),
        latest_turn_status: ev.raw_str(&["latestTurnStatus", "latest_turn_status"]),
        task_id: match ev.get("taskId") {
            Some(v) if !v.is_null() => v.as_str(),
            _ => ev.raw_str(&["taskId", "task_id"]),
        },
        agent_id: match ev.get("subagentId") {
            Some(v) if !v.is_null() => v.as_str(),
            _ => str_field(ev, "workerId"),
        },
        parent_thread_id: parent_thread_str(ev),
        transcript_ref: ev.raw_str(&["transcriptRef", "transcript_ref"]),
        handoff_id: str_field(ev, "handoffId"),
        metadata,
        payload,
        ..Default::default()
    };
    build_collaboration_payload_metadata(&input)
}

fn isolation(ev: Ev<'_>) -> Val {
    let o = Obj::new()
        .c(
            "runtimeProfileId",
            raw(ev, &["runtimeProfileId", "runtime_profile_id"]),
        )
        .c(
            "modelProfileId",
            raw(ev, &["modelProfileId", "model_profile_id"]),
        )
        .c(
            "isolationProfileId",
            raw(ev, &["isolationProfileId", "isolation_profile_id"]),
        )
        .c(
            "workspaceRef",
            raw(ev, &["workspaceRef", "workspace_ref", "cwdRef"]),
        )
        .c(
            "permissionProfile",
            raw(ev, &["permissionProfile", "permission_profile"]),
        )
        .c(
            "sandboxProfile",
            raw(ev, &["sandboxProfile", "sandbox_profile"]),
        )
        .c("forkPolicy", raw(ev, &["forkPolicy", "fork_policy"]))
        .c("depth", payload_num(ev, &["depth", "subagentDepth"]))
        .c(
            "canDelegate",
            payload_bool(ev, &["canDelegate", "can_delegate"]),
        );
    if o.is_empty() {
        Val::Undef
    } else {
        o.into_val()
    }
}

fn is_delegation(cls: &str) -> bool {
    cls.starts_with("subagent.")
        || cls.starts_with("handoff.")
        || cls == "agent.spawned"
        || cls == "agent.handoff"
}

/// Whether an event may change an existing thread's status.
fn sets_status(cls: &str, status: Option<&str>) -> bool {
    cls.starts_with("subagent.")
        || cls.starts_with("task.")
        || matches!(
            cls,
            "agent.spawned" | "agent.completed" | "agent.changed" | "agent.handoff"
        )
        || (cls == "handoff.requested" && status == Some("blocked"))
}

fn activity_kind(cls: &str, status: Option<&str>) -> &'static str {
    if includes(cls, "started") || cls == "agent.spawned" {
        "started"
    } else if includes(cls, "cancel")
        || includes(cls, "abort")
        || includes(cls, "interrupt")
        || includes(cls, "closed")
        || matches!(
            status,
            Some("canceled" | "cancelled" | "aborted" | "closed")
        )
    {
        "interrupted"
    } else if includes(cls, "completed") {
        "completed"
    } else if includes(cls, "failed") {
        "failed"
    } else if cls.starts_with("handoff.") {
        "handoff"
    } else if cls.starts_with("review.") {
        "review"
    } else if cls.starts_with("channel.")
        || cls.starts_with("tool.")
        || cls.starts_with("model.")
        || cls.starts_with("artifact.")
    {
        "interacted"
    } else {
        "updated"
    }
}

fn delegation_action(cls: &str) -> &'static str {
    if cls.starts_with("handoff.") || cls == "agent.handoff" {
        "handoff"
    } else if includes(cls, "wait") {
        "wait"
    } else if includes(cls, "interrupt") {
        "interrupt"
    } else if includes(cls, "close") {
        "close"
    } else if includes(cls, "send") || includes(cls, "input") {
        "send_input"
    } else {
        "spawn"
    }
}

/// What the receiver holds for one thread (the scalar keys and the two objects).
struct SentThread {
    scalars: [Val; 15],
    isolation: Val,
    collaboration: Val,
}

struct Thread {
    scalars: [Val; 15],
    artifact_refs: OrderedSet,
    evidence_refs: OrderedSet,
    source_event_ids: OrderedSet,
    isolation: Val,
    collaboration: Val,
    /// `None` until the receiver has this thread.
    sent: Option<SentThread>,
    /// Queued in `SubagentsAcc::dirty` since the last patch.
    dirty: bool,
}

impl Thread {
    fn status(&self) -> Option<&str> {
        self.scalars[S_STATUS].as_str()
    }

    /// The model's clone of the thread: compacted scalar keys, the three lists, then
    /// `isolation` and `collaboration` (appended as `undefined` when they have no value).
    fn to_val(&self) -> Val {
        let mut o = Obj::with_capacity(20);
        for (k, v) in SCALAR_KEYS.iter().zip(self.scalars.iter()) {
            if !v.is_undef() {
                o.push(*k, v.clone());
            }
        }
        o.push("artifactRefs", self.artifact_refs.to_val());
        o.push("evidenceRefs", self.evidence_refs.to_val());
        o.push("sourceEventIds", self.source_event_ids.to_val());
        if !self.isolation.is_undef() {
            o.push("isolation", self.isolation.clone());
        }
        if !self.collaboration.is_undef() {
            o.push("collaboration", self.collaboration.clone());
        }
        if self.isolation.is_undef() {
            o.push("isolation", Val::Undef);
        }
        if self.collaboration.is_undef() {
            o.push("collaboration", Val::Undef);
        }
        o.into_val()
    }

    /// Which keys are present, as a bit mask (a change of shape resends the thread whole,
    /// keeping the reference's key order on the receiver).
    fn shape(scalars: &[Val; 15], isolation: &Val, collaboration: &Val) -> u32 {
        let mut m = 0u32;
        for (i, v) in scalars.iter().enumerate() {
            if !v.is_undef() {
                m |= 1 << i;
            }
        }
        if !isolation.is_undef() {
            m |= 1 << 15;
        }
        if !collaboration.is_undef() {
            m |= 1 << 16;
        }
        m
    }

    fn mark_sent(&mut self) {
        self.sent = Some(SentThread {
            scalars: self.scalars.clone(),
            isolation: self.isolation.clone(),
            collaboration: self.collaboration.clone(),
        });
        for l in [
            &mut self.artifact_refs,
            &mut self.evidence_refs,
            &mut self.source_event_ids,
        ] {
            let n = l.items.len();
            l.tracker.sync(n);
        }
    }
}

/// Same value as far as the receiver is concerned (strings by content, shared values by
/// identity).
fn same(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Undef, Val::Undef) | (Val::Null, Val::Null) => true,
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Num(x), Val::Num(y)) => x == y,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Obj(x), Val::Obj(y)) => Rc::ptr_eq(x, y),
        (Val::Arr(x), Val::Arr(y)) => Rc::ptr_eq(x, y),
        (Val::Event(x), Val::Event(y)) => x == y,
        _ => false,
    }
}

/// Identifiers of the threads in one status group, in thread order: kept sorted by thread index
/// and updated for the one thread an event touches (no walk over every thread).
#[derive(Default)]
struct IdList {
    entries: Vec<(usize, Rc<str>)>,
    /// Changed since the receiver last got the list.
    changed: bool,
}

impl IdList {
    /// Make thread `idx` (identifier `id`) a member of the list or not.
    fn set(&mut self, idx: usize, id: Option<&str>, member: bool) {
        match (self.entries.binary_search_by_key(&idx, |e| e.0), id) {
            (Ok(p), Some(id)) if member => {
                if let Some(e) = self.entries.get_mut(p) {
                    if *e.1 != *id {
                        e.1 = Rc::from(id);
                        self.changed = true;
                    }
                }
            }
            (Ok(p), _) => {
                self.entries.remove(p);
                self.changed = true;
            }
            (Err(p), Some(id)) if member => {
                self.entries.insert(p, (idx, Rc::from(id)));
                self.changed = true;
            }
            (Err(_), _) => {}
        }
    }

    fn val(&self) -> Val {
        Val::arr(self.entries.iter().map(|e| Val::Str(e.1.clone())).collect())
    }
}

/// The three status groups of the model.
#[derive(Default)]
struct IdLists {
    active: IdList,
    completed: IdList,
    failed: IdList,
}

/// The incremental subagents accumulator (the reference's
/// `createAgentUiSubagentsModelAccumulator`).
#[derive(Default)]
pub struct SubagentsAcc {
    threads: Vec<Thread>,
    thread_index: HashMap<Rc<str>, usize>,
    delegations: Vec<Val>,
    delegation_index: HashMap<JsKey, usize>,
    activities: Vec<Val>,
    ids: IdLists,

    // What the receiver has.
    sent_has_subagents: bool,
    sent_threads: usize,
    dirty: Vec<usize>,
    delegation_tracker: ListTracker,
    activity_tracker: ListTracker,
}

impl SubagentsAcc {
    pub fn new() -> Self {
        Self::default()
    }

    /// Apply one event; `true` when it is a subagent event (the model changed).
    pub fn apply(&mut self, ev: Ev<'_>) -> bool {
        let Some(tid) = subagent_thread_id(ev) else {
            return false;
        };
        let cls = ev.cls();
        let status = ev.status();
        let collab = collaboration(ev);

        let idx = match self.thread_index.get(tid) {
            Some(&i) => i,
            None => {
                let key: Rc<str> = Rc::from(tid);
                let i = self.threads.len();
                self.threads.push(Thread {
                    scalars: Default::default(),
                    artifact_refs: OrderedSet::default(),
                    evidence_refs: OrderedSet::default(),
                    source_event_ids: OrderedSet::default(),
                    isolation: Val::Undef,
                    collaboration: Val::Undef,
                    sent: None,
                    dirty: false,
                });
                self.thread_index.insert(key, i);
                i
            }
        };
        let is_new = self
            .threads
            .get(idx)
            .map(|t| t.scalars[S_THREAD_ID].is_undef());
        let Some(is_new) = is_new else {
            return false;
        };
        let status_before = self
            .threads
            .get(idx)
            .and_then(|t| t.status().map(str::to_owned));
        if let Some(t) = self.threads.get_mut(idx) {
            merge_thread(t, ev, tid, is_new, collab.clone());
            if idx < self.sent_threads && !t.dirty {
                t.dirty = true;
                self.dirty.push(idx);
            }
        }
        let status_after = self
            .threads
            .get(idx)
            .and_then(|t| t.status().map(str::to_owned));
        if is_new || status_before != status_after {
            self.update_ids(idx);
        }

        self.activities.push(
            Obj::new()
                .c("activityId", ev.val("id"))
                .c("threadId", Val::str(tid))
                .c("sourceEventId", ev.val("id"))
                .c("kind", Val::lit(activity_kind(cls, status)))
                .c("status", ev.val("status"))
                .c("title", ev.val("title"))
                .c("createdAt", ev.val("createdAt"))
                .k("collaboration", collab.clone())
                .into_val(),
        );

        if is_delegation(cls) {
            let parent = parent_thread_id(ev);
            let call_id = or_else(ev.val("handoffId"), || {
                match ev.raw_str(&["callId", "delegationCallId"]) {
                    Some(s) => Val::str(s),
                    None => {
                        let p = match &parent {
                            Val::Str(s) => s.to_string(),
                            v if v.is_nullish() => "root".to_owned(),
                            v => v.to_json(),
                        };
                        Val::string(format!("{p}:delegation:{tid}"))
                    }
                }
            });
            let d = Obj::new()
                .c("callId", call_id.clone())
                .c("sourceEventId", ev.val("id"))
                .c("action", Val::lit(delegation_action(cls)))
                .c("parentThreadId", parent)
                .c("targetThreadIds", Val::arr(vec![Val::str(tid)]))
                .c("status", ev.val("status"))
                .c("title", ev.val("title"))
                .c("promptPreview", prompt_preview(ev))
                .c("createdAt", ev.val("createdAt"))
                .c("completedAt", ev.val("completedAt"))
                .k("collaboration", collab)
                .into_val();
            let key = call_id.key();
            match self.delegation_index.get(&key) {
                Some(&i) => {
                    if let Some(slot) = self.delegations.get_mut(i) {
                        *slot = d;
                        self.delegation_tracker.touch(i);
                    }
                }
                None => {
                    self.delegation_index.insert(key, self.delegations.len());
                    self.delegations.push(d);
                }
            }
        }
        true
    }

    /// Put thread `idx` in the status groups its status says (the groups of the other threads
    /// are unchanged by an event of this one).
    fn update_ids(&mut self, idx: usize) {
        let Some(t) = self.threads.get(idx) else {
            return;
        };
        let id = t.scalars[S_THREAD_ID].as_str();
        let s = t.status();
        self.ids.active.set(idx, id, is_active_status(s));
        self.ids.completed.set(idx, id, s == Some("completed"));
        self.ids.failed.set(idx, id, is_failed_terminal_status(s));
    }

    /// The full model (§3.11.3), 7 keys.
    pub fn model(&self) -> Val {
        Obj::with_capacity(7)
            .k("hasSubagents", Val::Bool(!self.threads.is_empty()))
            .k(
                "threads",
                Val::arr(self.threads.iter().map(Thread::to_val).collect()),
            )
            .k("delegationCalls", Val::arr(self.delegations.clone()))
            .k("activities", Val::arr(self.activities.clone()))
            .k("activeThreadIds", self.ids.active.val())
            .k("completedThreadIds", self.ids.completed.val())
            .k("failedThreadIds", self.ids.failed.val())
            .into_val()
    }

    /// Append the changes since the previous call (or `sync`) as ops under `base`.
    pub fn patch_ops(&mut self, base: &[Seg], out: &mut Vec<PatchOp>) {
        let path = |tail: &[Seg]| -> Vec<Seg> {
            let mut p = base.to_vec();
            p.extend_from_slice(tail);
            p
        };
        let has = !self.threads.is_empty();
        if has != self.sent_has_subagents {
            out.push(PatchOp::Replace {
                path: path(&[Seg::Key("hasSubagents")]),
                value: Val::Bool(has),
            });
            self.sent_has_subagents = has;
        }

        // Threads: changed existing threads key by key, new threads as appended slots.
        let dirty = std::mem::take(&mut self.dirty);
        for i in dirty {
            let Some(t) = self.threads.get_mut(i) else {
                continue;
            };
            t.dirty = false;
            let tp = |tail: &[Seg]| {
                let mut p = path(&[Seg::Key("threads"), Seg::Index(i)]);
                p.extend_from_slice(tail);
                p
            };
            let resend = match &t.sent {
                None => true,
                Some(s) => {
                    Thread::shape(&s.scalars, &s.isolation, &s.collaboration)
                        != Thread::shape(&t.scalars, &t.isolation, &t.collaboration)
                }
            };
            if resend {
                out.push(PatchOp::Replace {
                    path: tp(&[]),
                    value: t.to_val(),
                });
                t.mark_sent();
                continue;
            }
            if let Some(s) = &t.sent {
                for (k, (a, b)) in SCALAR_KEYS
                    .iter()
                    .zip(s.scalars.iter().zip(t.scalars.iter()))
                {
                    if !same(a, b) {
                        out.push(PatchOp::Replace {
                            path: tp(&[Seg::Key(k)]),
                            value: b.clone(),
                        });
                    }
                }
                if !same(&s.isolation, &t.isolation) {
                    out.push(PatchOp::Replace {
                        path: tp(&[Seg::Key("isolation")]),
                        value: t.isolation.clone(),
                    });
                }
                if !same(&s.collaboration, &t.collaboration) {
                    out.push(PatchOp::Replace {
                        path: tp(&[Seg::Key("collaboration")]),
                        value: t.collaboration.clone(),
                    });
                }
            }
            let thread = tp(&[]);
            for (k, l) in [
                ("artifactRefs", &mut t.artifact_refs),
                ("evidenceRefs", &mut t.evidence_refs),
                ("sourceEventIds", &mut t.source_event_ids),
            ] {
                let change = l.tracker.take(l.items.len());
                out.extend(list_op(&thread, &[Seg::Key(k)], change, &l.items));
            }
            t.sent = Some(SentThread {
                scalars: t.scalars.clone(),
                isolation: t.isolation.clone(),
                collaboration: t.collaboration.clone(),
            });
        }
        let n = self.threads.len();
        if n != self.sent_threads {
            let from = self.sent_threads.min(n);
            let set: Vec<(usize, Val)> = (from..n)
                .filter_map(|i| self.threads.get(i).map(|t| (i, t.to_val())))
                .collect();
            for t in self.threads.iter_mut().skip(from) {
                t.mark_sent();
            }
            out.push(PatchOp::List {
                path: path(&[Seg::Key("threads")]),
                len: n,
                set,
            });
            self.sent_threads = n;
        }

        let change = self.delegation_tracker.take(self.delegations.len());
        out.extend(list_op(
            base,
            &[Seg::Key("delegationCalls")],
            change,
            &self.delegations,
        ));
        let change = self.activity_tracker.take(self.activities.len());
        out.extend(list_op(
            base,
            &[Seg::Key("activities")],
            change,
            &self.activities,
        ));

        for (key, list) in [
            ("activeThreadIds", &mut self.ids.active),
            ("completedThreadIds", &mut self.ids.completed),
            ("failedThreadIds", &mut self.ids.failed),
        ] {
            if list.changed {
                out.push(PatchOp::Replace {
                    path: path(&[Seg::Key(key)]),
                    value: list.val(),
                });
                list.changed = false;
            }
        }
    }

    /// The receiver now holds `model()` as it is: forget pending changes.
    pub fn sync(&mut self) {
        for t in self.threads.iter_mut() {
            t.dirty = false;
            t.mark_sent();
        }
        self.dirty.clear();
        self.sent_threads = self.threads.len();
        self.sent_has_subagents = !self.threads.is_empty();
        self.delegation_tracker.sync(self.delegations.len());
        self.activity_tracker.sync(self.activities.len());
        self.ids.active.changed = false;
        self.ids.completed.changed = false;
        self.ids.failed.changed = false;
    }
}

/// The reference's `mergeThread`: fold one event into a thread (new when `is_new`).
fn merge_thread(t: &mut Thread, ev: Ev<'_>, tid: &str, is_new: bool, collab: Val) {
    let s = &mut t.scalars;
    // "first": keep the current value unless it is nullish.
    fn first(cur: &mut Val, next: impl FnOnce() -> Val) {
        if cur.is_nullish() {
            *cur = next();
        }
    }
    s[S_THREAD_ID] = Val::str(tid);
    let sub = std::mem::take(&mut s[S_SUBAGENT_ID]);
    s[S_SUBAGENT_ID] = or_else(ev.val("subagentId"), || or_else(sub, || Val::str(tid)));
    first(&mut s[S_PARENT_THREAD_ID], || parent_thread_id(ev));
    first(&mut s[S_PARENT_TASK_ID], || {
        raw(ev, &["parentTaskId", "parent_task_id"])
    });
    first(&mut s[S_TASK_ID], || ev.val("taskId"));
    first(&mut s[S_TASK_PATH], || {
        raw(ev, &["taskPath", "task_path", "agentPath", "agent_path"])
    });
    first(&mut s[S_ROLE], || {
        raw(ev, &["role", "agentRole", "agent_role"])
    });
    first(&mut s[S_NICKNAME], || {
        raw(ev, &["nickname", "agentNickname", "agent_nickname"])
    });
    if is_new || sets_status(ev.cls(), ev.status()) {
        s[S_STATUS] = ev.val("status");
    }
    first(&mut s[S_TITLE], || ev.val("title"));
    if let Some(sum) = ev.raw_str(&["summary", "resultSummary", "outputSummary"]) {
        s[S_SUMMARY] = Val::str(sum);
    }
    first(&mut s[S_PROMPT_PREVIEW], || prompt_preview(ev));
    let last = std::mem::take(&mut s[S_LAST_ACTIVITY_AT]);
    s[S_LAST_ACTIVITY_AT] = or_else(ev.val("completedAt"), || {
        or_else(ev.val("createdAt"), || last)
    });
    first(&mut s[S_CREATED_AT], || ev.val("createdAt"));
    let done = std::mem::take(&mut s[S_COMPLETED_AT]);
    s[S_COMPLETED_AT] = or_else(ev.val("completedAt"), || {
        if is_terminal_status(ev.status()) {
            ev.val("createdAt")
        } else {
            done
        }
    });
    let mut refs = Vec::new();
    let _ = ev.spread("artifactRefs", &mut refs);
    for r in refs.drain(..) {
        t.artifact_refs.insert(r);
    }
    let _ = ev.spread("evidenceRefs", &mut refs);
    for r in refs {
        t.evidence_refs.insert(r);
    }
    t.source_event_ids.insert(ev.val("id"));
    first(&mut t.isolation, || isolation(ev));
    if !collab.is_undef() {
        t.collaboration = collab;
    }
}

/// `buildAgentUiSubagentsModel`: the model after every event, in order (no deduplication).
/// `Err` names the first event the reference throws on.
pub fn build_agent_ui_subagents_model(events: &[Value]) -> Result<Val, (usize, Odd)> {
    let mut acc = SubagentsAcc::new();
    for (i, e) in events.iter().enumerate() {
        Ev::with_indexed(e, |ev| {
            check(ev).map_err(|o| (i, o))?;
            acc.apply(ev);
            Ok(())
        })?;
    }
    Ok(acc.model())
}

/// The exported subagents accumulator (`createAgentUiSubagentsModelAccumulator`), sending what
/// changed since the previous patch.
#[derive(Default)]
pub struct SubagentsAccumulator {
    acc: SubagentsAcc,
    /// The next patch replaces the whole model.
    sent: bool,
}

impl SubagentsAccumulator {
    pub fn new() -> Self {
        Self::default()
    }

    /// Apply one event; `true` when it is a subagent event (the model changed). `Err` (nothing
    /// changed) where the reference throws on it.
    pub fn apply(&mut self, ev: Ev<'_>) -> Result<bool, Odd> {
        check(ev)?;
        Ok(self.acc.apply(ev))
    }

    /// Forget everything; the next patch replaces the whole model.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    pub fn model(&self) -> Val {
        self.acc.model()
    }

    /// What changed since the previous patch (the whole model after `new`/`reset`), at paths
    /// relative to the model.
    pub fn take_patch(&mut self) -> Patch {
        if !self.sent {
            self.sent = true;
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
        self.acc.patch_ops(&[], &mut ops);
        Patch { full: false, ops }
    }
}

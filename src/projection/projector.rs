//! The `Projector` (incremental) and `project` (batch): one set of accumulators, fed event by
//! event; the state document is event-only state plus the active `state.delta` repairs.

use crate::contract::fxhash::{HashMap, HashSet};
use crate::contract::tape::{Tape, TapeTooLong};
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;

use super::diagnostics::diagnostic;
use super::events::Stored;
use super::graph::{GraphAcc, GraphChange};
use super::messages::{MessageChange, MessagesAcc};
use super::patch::{change_ops, list_op, ListChange, ListTracker, Patch, PatchOp, Seg};
use super::read_model::{ReadFacts, ReadModelAcc, READ_MODEL_KEYS};
use super::refs::{RefViews, REF_VIEWS};
use super::runtime::RuntimeAcc;
use super::state::{hydration, static_key, STATE_KEYS};
use super::state_delta::{self, EventLookup, Prepared};
use super::subagents::{self, SubagentsAcc};
use super::templates;
use super::timeline;
use super::tool_surface::{ToolChange, ToolSurfaceAcc};
use crate::contract::event::{check_carryable, check_event, Ev, EvIndex, EventError, Odd, OddOp};
use crate::contract::order::OrdSet;
use crate::contract::record::{EventRecord, MaybeRecord};
use crate::contract::val::{deep_equal, equal_in_order, Flush, Obj, Val, MIN_FIELD_REF_LEN};

/// Placeholder values for read-model keys a delta document does not need (never reachable by
/// a delta path; swapped back for the real values on output).
const SENTINEL_BASE: u32 = u32::MAX - 16;

/// The incremental projector (see docs/design.md), owning its events.
pub type Projector = ProjectorCore<'static>;

/// The projector over events it owns (`Projector`) or borrows from the caller (batch
/// `project`, which so never copies an event).
pub struct ProjectorCore<'a> {
    events: Vec<Stored<'a>>,
    pos_of_ext: HashMap<u32, usize>,
    seen: HashSet<String>,
    rm: ReadModelAcc,
    runtime: RuntimeAcc,
    messages: MessagesAcc,
    timeline: Vec<Val>,
    t_timeline: ListTracker,
    graph: GraphAcc,
    artifacts: RefViews,
    evidence: RefViews,
    diags: Vec<Val>,
    t_diags: ListTracker,
    tools: ToolSurfaceAcc,
    subagents: SubagentsAcc,
    deltas: Vec<Prepared>,
    active: OrdSet<usize>,
    active_areas: state_delta::ActiveAreas,
    /// Bumped whenever an active delta is superseded (the active set shrank).
    supersede_epoch: u64,
    /// The last overlay and what it was computed from (F2: re-run only what changed).
    overlay_cache: RefCell<Option<OverlayCache>>,
    // Patch bookkeeping.
    full_pending: bool,
    changed: bool,
    prev_units: Vec<String>,
    prev_failures: Vec<Val>,
    prev_diag_len: usize,
    prev_stale: bool,
    /// The key order of the root the receiver's state has.
    sent_root: Vec<&'static str>,
    /// The key order of the read model the receiver's state has.
    sent_rm: Vec<&'static str>,
    /// Whole-unit replacements of the previous patch (an identical one is not sent again).
    prev_sent: Vec<(String, Val)>,
    /// Long event-field strings shared into the state, by address: (ext, field). The strings
    /// are kept alive here, so an address is never reused for another string while listed.
    field_strings: HashMap<usize, (u32, &'static str)>,
    field_strings_kept: Vec<Rc<str>>,
    /// Refuse what `check_event` refuses.
    strict: bool,
    /// Errors name events by input index (batch).
    batch_names: bool,
}

/// What one event changes, computed before anything changes (see `prepare_last`).
struct Prepared2 {
    surface: &'static str,
    entry: Val,
    message: MessageChange,
    graph: Option<GraphChange>,
    tool: Option<ToolChange>,
    delta: Option<Prepared>,
    /// Areas of active deltas this event supersedes.
    superseded: Vec<String>,
}

/// Where an event given to a call is.
#[derive(Clone, Copy)]
pub(crate) enum Named {
    /// Element `i` of a list.
    Listed(usize),
    /// Applied alone, to become accepted event `ext`.
    Applied(u32),
}

/// How error messages name an event given to a call: `events[i]` in a list, `event <ext>`
/// applied alone; with its `id` when that is a string (kept apart from the event, which is
/// moved on, so the name is only formatted when an error needs it).
pub(crate) fn name_with_id(id: Option<&str>, at: Named) -> String {
    let id = id
        .map(|i| format!(" (id {})", json_quote(i)))
        .unwrap_or_default();
    match at {
        Named::Listed(i) => format!("events[{i}]{id}: "),
        Named::Applied(ext) => format!("event {ext}{id}: "),
    }
}

/// The error of an event the reference throws on: `odd`, named as `name_with_id` names it.
#[inline(never)]
fn odd_error(id: Option<&str>, at: Named, odd: Odd) -> EventError {
    EventError {
        message: format!("{}{odd}", name_with_id(id, at)),
    }
}

/// The string id of an event, kept for naming it in an error after the event is moved.
fn id_of(event: &Value) -> Option<Box<str>> {
    event.get("id").and_then(Value::as_str).map(Box::from)
}

/// JSON text of a string (for error messages).
fn json_quote(s: &str) -> String {
    let mut out = String::new();
    crate::contract::val::write_json_str(s, &mut out);
    out
}

/// An overlay and its inputs: valid for a later call when no delta was superseded since, the
/// units are the same and their event-only values are equal; then only deltas accepted after
/// `next_delta` need to run, on the cached document.
struct OverlayCache {
    epoch: u64,
    next_delta: usize,
    inputs: Vec<Val>,
    overlay: Rc<Overlay>,
}

/// What the active deltas produce, ready to overlay on the event-only state.
struct Overlay {
    units: Vec<String>,
    /// What the active deltas made of the units: their side failures and staleness over all of
    /// them, the root order and the throw after the last.
    out: state_delta::Outcome,
}

/// Record a whole-unit replacement of `k` by `v` in `now`; false when the previous patch sent
/// the same value for `k` (the receiver has it already).
fn fresh_replace(prev: &[(String, Val)], now: &mut Vec<(String, Val)>, k: &str, v: &Val) -> bool {
    now.push((k.to_string(), v.clone()));
    !prev.iter().any(|(pk, pv)| pk == k && equal_in_order(pv, v))
}

/// What the previous patch sent whole for `k` (the receiver holds it), if it did.
fn sent_before<'p>(prev: &'p [(String, Val)], k: &str) -> Option<&'p Val> {
    prev.iter().find(|(pk, _)| pk == k).map(|(_, v)| v)
}

fn ptr_keys(path: &[&'static str]) -> Vec<Seg> {
    path.iter().map(|k| Seg::Key(k)).collect()
}

impl<'a> ProjectorCore<'a> {
    pub fn new(source_count: Option<f64>) -> ProjectorCore<'a> {
        Self::counted(Val::Num(source_count.unwrap_or(0.0)))
    }

    /// [`Self::new`] with the read model's `sourceCount` as given (any value, see
    /// [`crate::projection::read_model::source_count_of`]).
    pub fn counted(sc: Val) -> ProjectorCore<'a> {
        ProjectorCore {
            events: Vec::new(),
            pos_of_ext: HashMap::default(),
            seen: HashSet::default(),
            rm: ReadModelAcc::new(sc),
            runtime: RuntimeAcc::default(),
            messages: MessagesAcc::default(),
            timeline: Vec::new(),
            t_timeline: ListTracker::default(),
            graph: GraphAcc::default(),
            artifacts: RefViews::default(),
            evidence: RefViews::default(),
            diags: Vec::new(),
            t_diags: ListTracker::default(),
            tools: ToolSurfaceAcc::default(),
            subagents: SubagentsAcc::new(),
            deltas: Vec::new(),
            active: OrdSet::new(),
            active_areas: state_delta::ActiveAreas::default(),
            supersede_epoch: 0,
            overlay_cache: RefCell::new(None),
            full_pending: true,
            changed: false,
            prev_units: Vec::new(),
            prev_failures: Vec::new(),
            prev_diag_len: 0,
            prev_stale: false,
            sent_root: STATE_KEYS.to_vec(),
            sent_rm: READ_MODEL_KEYS.to_vec(),
            prev_sent: Vec::new(),
            field_strings: HashMap::default(),
            field_strings_kept: Vec::new(),
            strict: false,
            batch_names: false,
        }
    }

    /// The read model's `sourceCount` as given ([`crate::projection::read_model::source_count_of`]:
    /// a value that is not a number too), in place of the number `new` took; before the first
    /// patch or state is taken.
    pub fn set_source_count(&mut self, source_count: Val) {
        self.rm.source_count = source_count;
    }

    /// Refuse what [`check_event`] refuses (today's boundary) instead of projecting every
    /// event JSON can carry as the reference does.
    pub fn set_strict(&mut self, strict: bool) {
        self.strict = strict;
    }

    /// Whether this projector refuses events outside [`check_event`]'s boundary.
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// Name accepted event `ext` as `events[ext]` (batch projections, where it is the input
    /// index) rather than as the n-th accepted event.
    pub fn name_events_by_index(&mut self, on: bool) {
        self.batch_names = on;
    }

    /// The boundary check of the mode: what cannot be carried (and, strict, what
    /// [`check_event`] refuses).
    fn check_input(&self, event: &Value) -> Result<(), EventError> {
        if self.strict {
            check_event(event)
        } else {
            check_carryable(event)
        }
    }

    /// Apply one event. `ext` is the index the caller uses for `Val::Event(ext)`.
    /// Ok(true) accepted, Ok(false) duplicate id (nothing changed), Err refused (nothing
    /// changed): it cannot be carried, strict mode refuses it, or the reference's projection
    /// throws on it whatever follows.
    pub fn apply(&mut self, event: Value, ext: u32) -> Result<bool, EventError> {
        self.apply_cow(Cow::Owned(event), ext)
    }

    /// `apply` of an event given as its JSON text, read as a record ([`EventRecord`]) and kept
    /// as that text once applied (live projectors: see [`super::events`]). `None` when the
    /// text is not an object the projection can carry: the caller then parses it as usual, for
    /// the error it gives.
    pub fn apply_text(&mut self, text: &str, ext: u32) -> Option<Result<bool, EventError>> {
        let record = EventRecord::carryable(text)?;
        // Strict: what `check_event` refuses, read from the parsed event.
        if self.strict {
            if let Some(Err(e)) = crate::contract::json::parse_value(text)
                .ok()
                .map(|v| check_event(&v))
            {
                return Some(Err(e));
            }
        }
        let applied = self.apply_record(&record, Stored::Text(text.into()), ext);
        Some(applied.map_err(|odd| odd_error(record.id(), Named::Applied(ext), odd)))
    }

    /// `apply` of an event that passed the boundary check (callers that check a whole list
    /// before applying any of it), kept as `text` when there is one.
    fn apply_checked_keeping(
        &mut self,
        event: Value,
        text: Option<&str>,
        ext: u32,
    ) -> Result<bool, Odd> {
        let accepted = self.apply_checked(Cow::Owned(event), ext)?;
        if let (true, Some(text), Some(last)) = (accepted, text, self.events.last_mut()) {
            *last = Stored::Text(text.into());
        }
        Ok(accepted)
    }

    /// `apply` for an owned or a borrowed event.
    pub fn apply_cow(&mut self, event: Cow<'a, Value>, ext: u32) -> Result<bool, EventError> {
        self.check_input(&event)?;
        let id = id_of(&event);
        self.apply_checked(event, ext)
            .map_err(|odd| odd_error(id.as_deref(), Named::Applied(ext), odd))
    }

    /// The boundary check of a list, before any of it is applied: `Err` names the first event
    /// that cannot be carried (strict: that [`check_event`] refuses).
    pub fn check_list(&self, events: &[Value]) -> Result<(), EventError> {
        for (i, e) in events.iter().enumerate() {
            self.check_input(e).map_err(|err| EventError {
                message: format!("events[{i}]: {}", err.message),
            })?;
        }
        Ok(())
    }

    /// Apply `events` in order (event `i` kept as `texts[i]` when given); accepted events get
    /// `first_ext`, `first_ext + 1`, ... One flag per event applied (1 accepted, 0 duplicate
    /// id). Nothing is applied when an event cannot be carried; the events before one the
    /// reference throws on stay applied, and the error names it.
    pub fn apply_many(
        &mut self,
        events: Vec<Value>,
        texts: &[&str],
        first_ext: u32,
    ) -> (Vec<u8>, Option<EventError>) {
        if let Err(e) = self.check_list(&events) {
            return (Vec::new(), Some(e));
        }
        let mut flags = Vec::with_capacity(events.len());
        let mut ext = first_ext;
        for (i, e) in events.into_iter().enumerate() {
            let id = id_of(&e);
            match self.apply_checked_keeping(e, texts.get(i).copied(), ext) {
                Ok(accepted) => {
                    if accepted {
                        ext = ext.saturating_add(1);
                    }
                    flags.push(u8::from(accepted));
                }
                Err(odd) => return (flags, Some(odd_error(id.as_deref(), Named::Listed(i), odd))),
            }
        }
        (flags, None)
    }

    /// Replace everything with `events` (event `i` kept as `texts[i]` when given; accepted
    /// events get `0, 1, ...`): one flag per event (1 accepted, 0 duplicate id). All or
    /// nothing: an event that cannot be carried or that the reference throws on leaves the
    /// projector as it was, and the error names it.
    pub fn hydrate(
        &mut self,
        events: Vec<Value>,
        texts: &[&str],
        source_count: Option<f64>,
    ) -> Result<Vec<u8>, EventError> {
        self.check_list(&events)?;
        let mut next = Self::new(source_count);
        next.strict = self.strict;
        next.batch_names = self.batch_names;
        let (flags, err) = next.apply_many(events, texts, 0);
        if let Some(e) = err {
            return Err(e);
        }
        *self = next;
        Ok(flags)
    }

    /// [`Self::hydrate`] from the JSON array `text`, in one pass ([`Self::read_array_text`], each
    /// event kept as a copy of its text). `None`, the projector as it was, when anything stops
    /// it: the caller then hydrates from the parsed list, whose error is the one the order of
    /// checks gives (every event checked before any is applied).
    pub fn hydrate_text(&mut self, text: &str, source_count: Option<f64>) -> Option<Vec<u8>> {
        let mut next = Self::new(source_count);
        next.strict = self.strict;
        next.batch_names = self.batch_names;
        let flags = next.read_array_text(text, false, &|t| Stored::Text(t.into()))?;
        *self = next;
        Some(flags)
    }

    /// Read the JSON array `text` one event at a time: each event is read as a record
    /// ([`EventRecord`], the event model's fields in slots), checked, applied and, when
    /// accepted, kept as `keep(its slice of text)`, the record dropped at once (the list's
    /// parsed events are never all held). Events get `ext` 0, 1, ... counting every element when
    /// `by_index` (a batch names events by their index), else the accepted ones. One flag per
    /// event (1 accepted, 0 duplicate id); `None` when anything stops it (the text is not a
    /// well-formed array, an event cannot be carried or the reference throws on it). (`keep` as a
    /// trait object: one compiled copy for both callers.)
    fn read_array_text<'t>(
        &mut self,
        text: &'t str,
        by_index: bool,
        keep: &dyn Fn(&'t str) -> Stored<'a>,
    ) -> Option<Vec<u8>> {
        let mut flags = Vec::new();
        let mut ext: u32 = 0;
        let strict = self.strict;
        let read =
            crate::contract::json::for_each_array_element(text, |MaybeRecord(record), item| {
                // What is not an event object (read as a list slot is: one reader for the
                // crate's record lists), cannot be carried (strict: what `check_event` refuses)
                // stops the pass.
                let Some(record) = record else {
                    return false;
                };
                if record.too_deep()
                    || (strict
                        && crate::contract::json::parse_value(item)
                            .map_or(true, |v| check_event(&v).is_err()))
                {
                    return false;
                }
                let Ok(accepted) = self.apply_record(&record, keep(item), ext) else {
                    return false;
                };
                if accepted || by_index {
                    ext = ext.saturating_add(1);
                }
                flags.push(u8::from(accepted));
                true
            });
        read.then_some(flags)
    }

    /// `apply` of an event that passed the boundary check: true when accepted, `Err` (nothing
    /// changed) where the reference throws on it whatever follows.
    fn apply_checked(&mut self, event: Cow<'a, Value>, ext: u32) -> Result<bool, Odd> {
        let accepted = {
            let Some(map) = event.as_object() else {
                return Err(Odd::new("event", "not an object", OddOp::StringMethod));
            };
            let index = EvIndex::new(map);
            self.apply_ev(Ev::indexed(map, &index), &index, ext)?
        };
        if accepted {
            self.events.push(Stored::Value(Box::new(event)));
        }
        Ok(accepted)
    }

    /// [`Self::apply_checked`] of an event read as a record (which passed the boundary check),
    /// kept as `keep` when accepted.
    fn apply_record(
        &mut self,
        record: &EventRecord,
        keep: Stored<'a>,
        ext: u32,
    ) -> Result<bool, Odd> {
        let index = record.index();
        let accepted = self.apply_ev(record.ev(&index), &index, ext)?;
        if accepted {
            self.events.push(keep);
        }
        Ok(accepted)
    }

    /// Apply the event `ev` reads (through `index`), to be kept by the caller as the next of
    /// `events` when accepted (true); `Err` (nothing changed) where the reference throws.
    fn apply_ev(&mut self, ev: Ev<'_>, index: &EvIndex<'_>, ext: u32) -> Result<bool, Odd> {
        // Deduplication by id, first wins: non-empty string ids only (events without one are
        // all projected, as the reference's batch projects them).
        let id = match ev.id() {
            Some(s) if !s.is_empty() => Some(s.to_string()),
            _ => None,
        };
        if id.as_ref().is_some_and(|i| self.seen.contains(i)) {
            return Ok(false);
        }
        let pos = self.events.len();
        // Everything the event changes, read before anything changes.
        let prepared = (|| -> Result<Prepared2, Odd> {
            // The timeline spreads the three ref lists of every event.
            let refs = Val::arr(ev.refs()?);
            let surface = ReadModelAcc::check(ev)?;
            let entry = timeline::entry(ev, surface, ext)?;
            let message = self.messages.prepare(ev, &refs)?;
            let graph = self.graph.prepare(ev, &refs);
            let tool = self.tools.prepare(
                ev,
                pos,
                ext,
                Some(surface),
                ev.val("title"),
                ev.val("detail"),
            )?;
            subagents::check(ev)?;
            let delta = state_delta::prepare(ev);
            let superseded = match delta {
                None => self.active_areas.touched(ev)?,
                Some(_) => Vec::new(),
            };
            Ok(Prepared2 {
                surface,
                entry,
                message,
                graph,
                tool,
                delta,
                superseded,
            })
        })();
        let p = prepared?;
        if let Some(id) = id {
            self.seen.insert(id);
        }
        self.pos_of_ext.insert(ext, pos);
        self.messages.commit(p.message, ext);
        self.timeline.push(p.entry);
        self.graph.commit(ev, p.graph);
        let [(_, artifact_ids), (_, evidence_ids)] = REF_VIEWS;
        self.artifacts.apply(ev, artifact_ids);
        self.evidence.apply(ev, evidence_ids);
        if let Some(d) = diagnostic(ev) {
            self.diags.push(d);
        }
        self.runtime.apply(ev, ext);
        self.rm.apply(ReadFacts::of(ev, p.surface), ext);
        self.tools.commit(p.tool);
        self.subagents.apply(ev);
        match p.delta {
            Some(mut d) => {
                d.ext = ext;
                let i = self.deltas.len();
                if let Some(a) = &d.area {
                    self.active_areas.add(a, i);
                }
                self.deltas.push(d);
                self.active.add(i);
            }
            None => {
                for a in p.superseded {
                    for i in self.active_areas.supersede(&a) {
                        if self.active.delete(i) {
                            self.supersede_epoch += 1;
                        }
                    }
                }
            }
        }
        for (field, s) in index.shared_strings() {
            if s.len() >= MIN_FIELD_REF_LEN {
                self.field_strings
                    .insert(Rc::as_ptr(s) as *const u8 as usize, (ext, field));
                self.field_strings_kept.push(s.clone());
            }
        }
        self.changed = true;
        Ok(true)
    }

    /// The batch projection (as [`Projector::project_list_compact`] gives it) of the JSON array
    /// `text`, in one pass ([`Self::read_array_text`], each event kept as its slice of `text`,
    /// uncopied), so a batch holds one event's parsed record at a time rather than the stream's.
    /// `None` when anything stops it (as there, or the state is unreadable): the caller then
    /// projects the parsed list, whose error is the one the reference's order of checks gives
    /// (a JSON error before any event is applied, and so on).
    pub fn project_array_text(&mut self, text: &'a str) -> Option<Val> {
        self.batch_names = true;
        self.read_array_text(text, true, &Stored::Slice)?;
        self.state_compact().ok()
    }

    /// How error messages name accepted event `ext`: by its input index (`events[i]`) in batch
    /// projections, else as the n-th accepted event; with its id when that is a string.
    fn name_accepted(&self, ext: u32) -> String {
        let stored = self
            .pos_of_ext
            .get(&ext)
            .and_then(|&p| self.events.get(p))
            .and_then(Stored::value);
        let id = stored
            .as_deref()
            .and_then(|v| v.get("id"))
            .and_then(Value::as_str)
            .map(|i| format!(" (id {})", json_quote(i)))
            .unwrap_or_default();
        if self.batch_names {
            format!("events[{ext}]{id}: ")
        } else {
            format!("accepted event {ext}{id}: ")
        }
    }

    /// What makes the state unreadable now (the reference's projection of these events throws),
    /// naming the event: the runtime status scan stops on an event whose status or class is not
    /// a string, or a stream message part has text the reference cannot materialize. Later
    /// events can decide otherwise.
    pub fn unreadable(&self) -> Option<EventError> {
        let (ext, odd) = self
            .runtime
            .unreadable()
            .or_else(|| self.messages.unreadable())?;
        Some(EventError {
            message: format!("{}{odd}", self.name_accepted(ext)),
        })
    }

    /// Wire text of a value from this projector (`Val::write_json`), with the long strings that
    /// are copies of an accepted event's field written as references to that field.
    pub fn write_wire(&self, v: &Val, out: &mut String) {
        v.write_json_with(out, &|s| self.field_of(s));
    }

    /// [`Self::write_wire`], handing the text to `flush.sink` as it grows
    /// ([`Val::write_json_flushed`]).
    pub fn write_wire_flushed(&self, v: &Val, out: &mut String, flush: Flush<'_>) {
        v.write_json_flushed(out, &|s| self.field_of(s), flush);
    }

    /// The tape of `v` (`contract::tape`), from this projector's state: as [`Self::write_wire`],
    /// a long string the state copies from an input event is a reference to it.
    pub fn write_tape(&self, v: &Val, tape: &mut Tape) -> Result<(), TapeTooLong> {
        tape.write_with(v, &|s| self.field_of(s))
    }

    /// The tape of a patch from this projector (see [`Self::write_tape`]).
    pub fn write_patch(&self, patch: &Patch, tape: &mut Tape) -> Result<(), TapeTooLong> {
        patch.write_to(tape, &|s| self.field_of(s))
    }

    /// [`Self::write_tape`], after the values the tape holds (`Tape::append_with`).
    pub fn write_tape_after(&self, v: &Val, tape: &mut Tape) -> Result<(), TapeTooLong> {
        tape.append_with(v, &|s| self.field_of(s))
    }

    fn field_of(&self, s: &Rc<str>) -> Option<(u32, &'static str)> {
        self.field_strings
            .get(&(Rc::as_ptr(s) as *const u8 as usize))
            .copied()
    }

    /// Back to the empty state (sourceCount 0; the mode is kept).
    pub fn reset(&mut self) {
        let (strict, batch_names) = (self.strict, self.batch_names);
        *self = Self::new(None);
        self.strict = strict;
        self.batch_names = batch_names;
    }

    /// Number of accepted events.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// Event JSON by external index.
    pub fn event_by_ext(&self, ext: u32) -> Option<Cow<'_, Value>> {
        self.pos_of_ext
            .get(&ext)
            .and_then(|&p| self.events.get(p))
            .and_then(Stored::value)
    }

    fn lookup(&self) -> EventLookup<'_> {
        EventLookup {
            events: &self.events,
            pos_of_ext: &self.pos_of_ext,
            held: None,
        }
    }

    fn event_hydration(&self) -> Val {
        hydration(self.events.len(), false)
    }

    /// Event-only value of a state key.
    fn unit_value(&self, k: &str) -> Val {
        match k {
            "runtime" => self.runtime.view(),
            "messages" => self.messages.items(),
            "timeline" => Val::arr(self.timeline.clone()),
            "graph" => self.graph.items(),
            "tools" => Val::arr(self.rm.tools.clone()),
            "toolCalls" => self.tools.model(),
            "mcp" => self.tools.mcp_model_ref(),
            "actions" => Val::arr(self.rm.actions.clone()),
            "artifacts" => Val::arr(self.artifacts.items.clone()),
            "evidence" => Val::arr(self.evidence.items.clone()),
            "diagnostics" => Val::arr(self.diags.clone()),
            "subagents" => self.subagents.model(),
            "readModel" => self.rm.model(),
            "hydration" => self.event_hydration(),
            "ephemeralUi" => Val::empty_obj(),
            _ => Val::Undef,
        }
    }

    /// The units the active deltas need, closed over the re-sync dependencies.
    fn active_units(&self) -> Vec<String> {
        self.units_of(Vec::new(), self.active.keys())
    }

    /// `start` plus the units of the deltas `idx`, closed over the re-sync dependencies.
    fn units_of(&self, start: Vec<String>, idx: impl Iterator<Item = usize>) -> Vec<String> {
        let mut u: Vec<String> = start;
        let add = |u: &mut Vec<String>, s: &str| {
            if !u.iter().any(|x| x == s) {
                u.push(s.to_string());
            }
        };
        for i in idx {
            if let Some(d) = self.deltas.get(i) {
                for x in &d.units {
                    add(&mut u, x);
                }
            }
        }
        let has = |u: &Vec<String>, s: &str| u.iter().any(|x| x == s);
        if has(&u, "readModel.*") {
            for k in READ_MODEL_KEYS {
                add(&mut u, &format!("readModel.{k}"));
            }
        }
        for (views, ids) in REF_VIEWS {
            let ids = format!("readModel.{ids}");
            if has(&u, views) || has(&u, &ids) {
                add(&mut u, views);
                add(&mut u, &ids);
            }
        }
        u
    }

    /// Event-only input value of an overlay unit.
    fn unit_input(&self, u: &str) -> Val {
        match u.strip_prefix("readModel.") {
            Some(k) => self.rm.key_val(k),
            None => self.unit_value(u),
        }
    }

    /// The overlay of the active deltas (`None`: no active delta), from the cache when its
    /// inputs are unchanged, running only the deltas accepted since.
    fn overlay(&self) -> Option<Rc<Overlay>> {
        if self.active.is_empty() {
            *self.overlay_cache.borrow_mut() = None;
            return None;
        }
        let mut cache = self.overlay_cache.borrow_mut();
        if let Some(c) = cache.as_mut() {
            if c.epoch == self.supersede_epoch {
                let new: Vec<usize> = self.active.keys_from(c.next_delta).collect();
                let units = self.units_of(c.overlay.units.clone(), new.iter().copied());
                if units == c.overlay.units {
                    let inputs: Vec<Val> = units.iter().map(|u| self.unit_input(u)).collect();
                    let same = inputs.len() == c.inputs.len()
                        && inputs
                            .iter()
                            .zip(c.inputs.iter())
                            .all(|(a, b)| equal_in_order(a, b));
                    if same {
                        // Past a delta the reference throws at, later ones change nothing.
                        if !new.is_empty() && c.overlay.out.throws.is_none() {
                            let deltas: Vec<&Prepared> =
                                new.iter().filter_map(|&i| self.deltas.get(i)).collect();
                            let has = |s: &str| units.iter().any(|x| x == s);
                            let before = &c.overlay.out;
                            let mut out = state_delta::run(
                                before.doc.clone(),
                                &deltas,
                                self.events.len() as f64,
                                &self.lookup(),
                                has("diagnostics"),
                                has("hydration"),
                                before.order.clone(),
                            );
                            out.side_failures =
                                [&before.side_failures[..], &out.side_failures].concat();
                            out.side_stale |= before.side_stale;
                            c.overlay = Rc::new(Overlay { units, out });
                        }
                        c.next_delta = self.deltas.len();
                        return Some(c.overlay.clone());
                    }
                }
            }
        }
        let ov = Rc::new(self.overlay_full());
        let inputs: Vec<Val> = ov.units.iter().map(|u| self.unit_input(u)).collect();
        *cache = Some(OverlayCache {
            epoch: self.supersede_epoch,
            next_delta: self.deltas.len(),
            inputs,
            overlay: ov.clone(),
        });
        Some(ov)
    }

    /// Run all active deltas from the event-only units.
    fn overlay_full(&self) -> Overlay {
        let units = self.active_units();
        let mut doc = Obj::new();
        let mut rm_keys: Vec<&str> = Vec::new();
        for u in &units {
            if let Some(k) = u.strip_prefix("readModel.") {
                rm_keys.push(k);
            } else {
                doc.set_dyn(u, self.expand(&self.unit_value(u)));
            }
        }
        if !rm_keys.is_empty() {
            let mut o = Obj::new();
            for (i, k) in READ_MODEL_KEYS.iter().enumerate() {
                let v = if rm_keys.contains(k) {
                    self.expand(&self.rm.key_val(k))
                } else {
                    Val::Event(SENTINEL_BASE + i as u32)
                };
                o.push(*k, v);
            }
            doc.set("readModel", o.into_val());
        }
        let deltas: Vec<&Prepared> = self
            .active
            .keys()
            .filter_map(|i| self.deltas.get(i))
            .collect();
        let has = |s: &str| units.iter().any(|x| x == s);
        let out = state_delta::run(
            doc,
            &deltas,
            self.events.len() as f64,
            &self.lookup(),
            has("diagnostics"),
            has("hydration"),
            STATE_KEYS.to_vec(),
        );
        Overlay { units, out }
    }

    /// Output read model from the delta document (sentinels swapped back).
    fn overlay_read_model(&self, v: &Val) -> Val {
        let Some(o) = v.as_obj() else {
            return v.clone();
        };
        let mut out = Obj::with_capacity(o.len());
        for (k, x) in o.iter() {
            let real = match x {
                Val::Event(i) if *i >= SENTINEL_BASE => READ_MODEL_KEYS
                    .get((*i - SENTINEL_BASE) as usize)
                    .map(|k| self.rm.key_val(k))
                    .unwrap_or_default(),
                _ => x.clone(),
            };
            out.set_dyn(k, real);
        }
        out.into_val()
    }

    fn side_diagnostics(&self, failures: &[Val]) -> (Vec<Val>, bool) {
        let ids: HashSet<&str> = failures
            .iter()
            .filter_map(|f| f.get("id").and_then(Val::as_str))
            .collect();
        let mut filtered = false;
        let mut list: Vec<Val> = Vec::with_capacity(self.diags.len() + failures.len());
        for d in &self.diags {
            if d.get("id")
                .and_then(Val::as_str)
                .map(|i| ids.contains(i))
                .unwrap_or(false)
            {
                filtered = true;
            } else {
                list.push(d.clone());
            }
        }
        list.extend(failures.iter().cloned());
        (list, filtered)
    }

    /// Output value of state key `k` under an overlay (`None`: key absent).
    fn output_value(&self, k: &str, ov: Option<&Overlay>) -> Option<Val> {
        if let Some(ov) = ov {
            if k == "readModel" && ov.units.iter().any(|u| u.starts_with("readModel.")) {
                return ov
                    .out
                    .doc
                    .get("readModel")
                    .map(|v| self.overlay_read_model(v));
            }
            if ov.units.iter().any(|u| u == k) {
                return ov.out.doc.get(k).cloned();
            }
            if k == "diagnostics" && !ov.out.side_failures.is_empty() {
                return Some(Val::arr(self.side_diagnostics(&ov.out.side_failures).0));
            }
            if k == "hydration" && ov.out.side_stale {
                return Some(hydration(self.events.len(), true));
            }
        }
        Some(self.unit_value(k))
    }

    fn build_state(&self, ov: Option<&Overlay>) -> Val {
        let mut o = Obj::with_capacity(15);
        for &k in Self::root_order(ov) {
            if let Some(v) = self.output_value(k, ov) {
                o.push(k, v);
            }
        }
        o.into_val()
    }

    /// The state's root keys in order.
    fn root_order(ov: Option<&Overlay>) -> &[&'static str] {
        ov.map_or(&STATE_KEYS, |o| &o.out.order)
    }

    /// The read model's keys in order, where a delta replaced one (it goes last); `None`: in
    /// their own order. In a regular state the overlay's read model holds its eight keys; in an
    /// irregular one (a key removed or added) the patch is whole and the order is not sent.
    fn rm_order(ov: Option<&Overlay>) -> Option<&Obj> {
        ov.and_then(|o| o.out.doc.get("readModel"))
            .and_then(Val::as_obj)
    }

    /// The receiver now holds the key orders of the state `ov` gives.
    fn sync_orders(&mut self, ov: Option<&Overlay>) {
        self.sent_root = Self::root_order(ov).to_vec();
        self.sent_rm = Self::rm_order(ov).map_or_else(
            || READ_MODEL_KEYS.to_vec(),
            |o| o.keys().filter_map(static_key).collect(),
        );
    }

    /// An `Order` op for the read model and one for the root where a delta changed their key
    /// order since the last patch (compared in place: a patch without a new order allocates
    /// nothing for it).
    fn order_ops(&mut self, ov: Option<&Overlay>, ops: &mut Vec<PatchOp>) {
        let rm_same = match Self::rm_order(ov) {
            Some(o) => o.keys().eq(self.sent_rm.iter().copied()),
            None => self.sent_rm == READ_MODEL_KEYS,
        };
        let root_same = Self::root_order(ov) == self.sent_root.as_slice();
        if rm_same && root_same {
            return;
        }
        let (was_root, was_rm) = (self.sent_root.clone(), self.sent_rm.clone());
        self.sync_orders(ov);
        if self.sent_rm != was_rm {
            ops.push(PatchOp::Order {
                path: ptr_keys(&["readModel"]),
                keys: self.sent_rm.clone(),
            });
        }
        if self.sent_root != was_root {
            ops.push(PatchOp::Order {
                path: Vec::new(),
                keys: self.sent_root.clone(),
            });
        }
    }

    /// The full state document (the 15 keys in the reference's order after its deltas: a key a
    /// delta replaced last, one it removed gone), deltas applied. `Err` while the
    /// state is unreadable (see [`Self::unreadable`]).
    pub fn state(&self) -> Result<Val, EventError> {
        Ok(self.expand(&self.state_compact()?))
    }

    /// [`Self::state`] with the objects made from one event left as `Val::Made` (what the wire
    /// sends: the JS side makes them from the caller's events).
    pub fn state_compact(&self) -> Result<Val, EventError> {
        if let Some(e) = self.unreadable() {
            return Err(e);
        }
        let ov = self.overlay();
        if let Some(e) = self.thrown(ov.as_deref()) {
            return Err(e);
        }
        Ok(self.build_state(ov.as_deref()))
    }

    /// `v` (a value of this projector: its state, a patch's value) with every made object
    /// built from its event (`templates::expand`).
    pub fn expand(&self, v: &Val) -> Val {
        templates::expand(v, &|ext| self.event_by_ext(ext))
    }

    fn sync_all(&mut self) {
        self.rm.sync();
        self.tools.sync();
        self.subagents.sync();
        self.messages.sync();
        self.t_timeline.sync(self.timeline.len());
        self.graph.sync();
        self.artifacts.tracker.sync(self.artifacts.items.len());
        self.evidence.tracker.sync(self.evidence.items.len());
        self.t_diags.sync(self.diags.len());
    }

    fn irregular(&self, ov: Option<&Overlay>) -> bool {
        let Some(ov) = ov else { return false };
        for u in &ov.units {
            if u.starts_with("readModel.") {
                let Some(o) = ov.out.doc.get("readModel").and_then(Val::as_obj) else {
                    return true;
                };
                if o.len() != READ_MODEL_KEYS.len()
                    || READ_MODEL_KEYS.iter().any(|k| !o.contains_key(k))
                {
                    return true;
                }
            } else if !ov.out.doc.contains_key(u) {
                return true;
            }
        }
        false
    }

    /// Whether a delta starts to override state key `k` in this patch (the previous one sent
    /// it by its changes): its pending changes are sent first, then what the delta changed
    /// against the event-only value ([`Self::event_only`]).
    fn entering(&self, k: &str) -> bool {
        !self.prev_units.iter().any(|u| u == k)
    }

    /// The event-only value of state key `k`, as the receiver holds it once its pending
    /// changes are sent.
    fn event_only(&self, k: &str) -> Val {
        self.expand(&self.unit_value(k))
    }

    /// The ops for top-level state key `k` while a delta overrides it (or in the patch after): nothing when the previous patch sent the same value, else what changed against
    /// `base` (the event-only value, when the delta starts to override it) or against what the
    /// previous patch sent, else the value whole.
    fn overridden_ops(
        &self,
        k: &'static str,
        base: Option<Val>,
        ovr: Option<&Overlay>,
        prev_sent: &[(String, Val)],
        sent: &mut Vec<(String, Val)>,
        ops: &mut Vec<PatchOp>,
    ) {
        let value = self.output_value(k, ovr);
        if let Some(v) = value.filter(|v| fresh_replace(prev_sent, sent, k, v)) {
            let before = base.as_ref().or_else(|| sent_before(prev_sent, k));
            change_ops(vec![Seg::Key(k)], before, v, ops);
        }
    }

    /// What changed since the previous `take_patch` (or since new/reset/hydrate). `Err` while
    /// the state is unreadable (see [`Self::unreadable`]); the changes are then kept for the
    /// next call.
    /// The receiver already holds the initial state (the JS wrapper made it from another
    /// projector's first patch): the next patch is relative to it, not a whole state. Only
    /// before the first event; later it changes nothing.
    pub fn assume_initial_sent(&mut self) {
        if self.full_pending && !self.changed && self.event_count() == 0 {
            self.sync_all();
            self.full_pending = false;
            self.sync_orders(None);
        }
    }

    pub fn take_patch(&mut self) -> Result<Patch, EventError> {
        if let Some(e) = self.unreadable() {
            return Err(e);
        }
        self.take_patch_readable()
    }

    /// What a delta the reference's projection throws at makes of the state (`Err`).
    fn thrown(&self, ov: Option<&Overlay>) -> Option<EventError> {
        let (ext, msg) = ov?.out.throws.as_ref()?;
        Some(EventError {
            message: format!("{}{msg}", self.name_accepted(*ext)),
        })
    }

    fn take_patch_readable(&mut self) -> Result<Patch, EventError> {
        if !self.changed && !self.full_pending {
            // Nothing was accepted since the last patch: the state is the same.
            return Ok(Patch::default());
        }
        let ov = self.overlay();
        if let Some(e) = self.thrown(ov.as_deref()) {
            return Err(e);
        }
        let units_now: Vec<String> = ov.as_ref().map(|o| o.units.clone()).unwrap_or_default();
        let irregular = self.irregular(ov.as_deref());
        let prev_irregular = self.prev_units.iter().any(|u| u == "!irregular");
        if self.full_pending || irregular || prev_irregular {
            let v = self.build_state(ov.as_deref());
            self.sync_all();
            self.prev_sent.clear();
            self.full_pending = false;
            self.changed = false;
            self.prev_units = units_now;
            if irregular {
                self.prev_units.push("!irregular".into());
            }
            let (f, n) = match &ov {
                Some(o) if !o.units.iter().any(|u| u == "diagnostics") => {
                    (o.out.side_failures.clone(), self.diags.len())
                }
                _ => (Vec::new(), self.diags.len()),
            };
            self.prev_failures = f;
            self.prev_diag_len = n;
            self.prev_stale = ov.as_ref().map(|o| o.out.side_stale).unwrap_or(false);
            self.sync_orders(ov.as_deref());
            return Ok(Patch {
                full: true,
                ops: vec![PatchOp::Replace {
                    path: vec![],
                    value: v,
                }],
            });
        }
        let mut whole: Vec<String> = units_now.clone();
        for u in &self.prev_units {
            if !whole.contains(u) {
                whole.push(u.clone());
            }
        }
        let is_whole = |k: &str| whole.iter().any(|u| u == k);
        let mut ops: Vec<PatchOp> = Vec::new();
        let prev_sent = std::mem::take(&mut self.prev_sent);
        let mut sent: Vec<(String, Val)> = Vec::new();
        let ovr = ov.as_deref();
        let changed = self.changed;
        // runtime and hydration: small, replaced whole.
        if changed || is_whole("runtime") {
            if let Some(v) = self.output_value("runtime", ovr) {
                ops.push(PatchOp::Replace {
                    path: ptr_keys(&["runtime"]),
                    value: v,
                });
            }
        }
        // A list a state delta overrides (or did until this patch) goes through
        // `overridden_ops`, else by its changes (`$sync`: mark them sent; `$changes`: push the
        // ops since the last patch).
        macro_rules! list {
            ($key:literal, $sync:expr, $changes:expr) => {{
                if is_whole($key) {
                    let base = if self.entering($key) {
                        $changes;
                        Some(self.event_only($key))
                    } else {
                        $sync;
                        None
                    };
                    self.overridden_ops($key, base, ovr, &prev_sent, &mut sent, &mut ops);
                } else {
                    $changes;
                }
            }};
        }
        // Plain lists: changed slots whole.
        macro_rules! plain {
            ($key:literal, $items:expr, $tracker:expr) => {
                list!($key, $tracker.sync($items.len()), {
                    let ch = $tracker.take($items.len());
                    ops.extend(list_op(&[], &[Seg::Key($key)], ch, &$items));
                })
            };
        }
        // Messages and graph: a changed part or node as what changed in it.
        macro_rules! parts {
            ($key:literal, $acc:expr) => {
                list!(
                    $key,
                    $acc.sync(),
                    $acc.patch_ops(&[Seg::Key($key)], &mut ops)
                )
            };
        }
        parts!("messages", self.messages);
        plain!("timeline", self.timeline, self.t_timeline);
        parts!("graph", self.graph);
        for (k, is_tools) in [("tools", true), ("actions", false)] {
            if is_whole(k) {
                let base = if self.entering(k) {
                    self.rm.bucket_ops(is_tools, !is_tools, &mut ops);
                    Some(self.event_only(k))
                } else {
                    self.rm.bucket_ops(is_tools, !is_tools, &mut Vec::new());
                    None
                };
                self.overridden_ops(k, base, ovr, &prev_sent, &mut sent, &mut ops);
            } else {
                self.rm.bucket_ops(is_tools, !is_tools, &mut ops);
            }
        }
        self.tools.patch_ops(&mut ops);
        plain!("artifacts", self.artifacts.items, self.artifacts.tracker);
        plain!("evidence", self.evidence.items, self.evidence.tracker);
        // Diagnostics: whole, or event list plus the failures of deltas.
        let failures: Vec<Val> = ovr.map(|o| o.out.side_failures.clone()).unwrap_or_default();
        let filtered = !failures.is_empty() && self.side_diagnostics(&failures).1;
        if is_whole("diagnostics")
            || filtered
            || self.prev_units.iter().any(|u| u == "!diagfiltered")
        {
            self.overridden_ops("diagnostics", None, ovr, &prev_sent, &mut sent, &mut ops);
            self.t_diags.sync(self.diags.len());
        } else {
            let n = self.diags.len();
            let ch = self.t_diags.take(n);
            let mut set: Vec<usize> = match ch {
                ListChange::None => Vec::new(),
                ListChange::Slots { idx, .. } => idx,
                ListChange::All => (0..n).collect(),
            };
            let same = failures.len() == self.prev_failures.len()
                && failures
                    .iter()
                    .zip(self.prev_failures.iter())
                    .all(|(a, b)| deep_equal(a, b));
            if !same || n != self.prev_diag_len {
                set.extend(n..n + failures.len());
            }
            let total = n + failures.len();
            if !set.is_empty() || total != self.prev_diag_len + self.prev_failures.len() {
                let out = self.side_diagnostics(&failures).0;
                ops.push(PatchOp::List {
                    path: ptr_keys(&["diagnostics"]),
                    len: total,
                    set: set
                        .into_iter()
                        .filter_map(|i| out.get(i).map(|v| (i, v.clone())))
                        .collect(),
                });
            }
        }
        self.prev_failures = if is_whole("diagnostics") {
            Vec::new()
        } else {
            failures
        };
        self.prev_diag_len = self.diags.len();
        // Subagents.
        if is_whole("subagents") {
            let base = if self.entering("subagents") {
                self.subagents.patch_ops(&[Seg::Key("subagents")], &mut ops);
                Some(self.event_only("subagents"))
            } else {
                self.subagents.sync();
                None
            };
            self.overridden_ops("subagents", base, ovr, &prev_sent, &mut sent, &mut ops);
        } else {
            self.subagents.patch_ops(&[Seg::Key("subagents")], &mut ops);
        }
        // Read model.
        let rm_whole = |k: &str| {
            whole
                .iter()
                .any(|u| u.strip_prefix("readModel.") == Some(k))
        };
        let any_rm_whole = READ_MODEL_KEYS.iter().any(|k| rm_whole(k));
        if let Some(rmv) = any_rm_whole
            .then(|| self.output_value("readModel", ovr))
            .flatten()
        {
            for k in READ_MODEL_KEYS {
                if rm_whole(k) {
                    if let Some(v) = rmv
                        .get(k)
                        .filter(|v| fresh_replace(&prev_sent, &mut sent, k, v))
                    {
                        let before = sent_before(&prev_sent, k);
                        change_ops(ptr_keys(&["readModel", k]), before, v.clone(), &mut ops);
                    }
                    self.rm.sync_key(k);
                }
            }
        }
        self.rm
            .patch_ops(&[Seg::Key("readModel")], &|k| rm_whole(k), &mut ops);
        // Hydration and ephemeralUi.
        let stale = ovr.map(|o| o.out.side_stale).unwrap_or(false);
        if changed || is_whole("hydration") || stale != self.prev_stale {
            if let Some(v) = self.output_value("hydration", ovr) {
                ops.push(PatchOp::Replace {
                    path: ptr_keys(&["hydration"]),
                    value: v,
                });
            }
        }
        self.prev_stale = stale;
        if is_whole("ephemeralUi") {
            self.overridden_ops("ephemeralUi", None, ovr, &prev_sent, &mut sent, &mut ops);
        }
        self.prev_sent = sent;
        self.prev_units = units_now;
        if filtered {
            self.prev_units.push("!diagfiltered".into());
        }
        self.changed = false;
        self.order_ops(ovr, &mut ops);
        Ok(Patch { full: false, ops })
    }
}

impl Projector {
    /// The batch projection of `events` (see [`project`]) by this projector, which keeps the
    /// events (`Val::Event(i)` is `events[i]`; errors name events by index).
    pub fn project_list(&mut self, events: Vec<Value>) -> Result<Val, EventError> {
        self.apply_list(events)?;
        self.state()
    }

    /// [`Self::project_list`] with the state as [`Self::state_compact`] gives it.
    pub fn project_list_compact(&mut self, events: Vec<Value>) -> Result<Val, EventError> {
        self.apply_list(events)?;
        self.state_compact()
    }

    fn apply_list(&mut self, events: Vec<Value>) -> Result<(), EventError> {
        self.batch_names = true;
        self.check_list(&events)?;
        for (i, e) in events.into_iter().enumerate() {
            let id = id_of(&e);
            self.apply_checked(Cow::Owned(e), i as u32)
                .map_err(|odd| odd_error(id.as_deref(), Named::Listed(i), odd))?;
        }
        Ok(())
    }
}

/// Batch projection (`projectAgentUiState`): `Val::Event(i)` is `events[i]`. Duplicate
/// string ids keep the first occurrence. `Err` names the event the reference throws on
/// (or one that cannot be carried).
pub fn project(events: &[Value], source_count: Option<f64>) -> Result<Val, EventError> {
    project_with(events, source_count, false)
}

/// [`project`] in either mode (`strict`: refuse what [`check_event`] refuses).
pub fn project_with(
    events: &[Value],
    source_count: Option<f64>,
    strict: bool,
) -> Result<Val, EventError> {
    projected(events, Val::Num(source_count.unwrap_or(0.0)), strict)?.state()
}

/// The projector of [`project_with`], every event applied.
pub(crate) fn projected(
    events: &[Value],
    source_count: Val,
    strict: bool,
) -> Result<ProjectorCore<'_>, EventError> {
    let mut p = ProjectorCore::counted(source_count);
    p.strict = strict;
    p.batch_names = true;
    p.check_list(events)?;
    for (i, e) in events.iter().enumerate() {
        p.apply_checked(Cow::Borrowed(e), i as u32)
            .map_err(|odd| odd_error(e.get("id").and_then(Value::as_str), Named::Listed(i), odd))?;
    }
    Ok(p)
}

#[cfg(test)]
mod wire_tests {
    use super::{Projector, ProjectorCore};
    use serde_json::json;

    #[test]
    fn the_array_text_batch_is_the_parsed_list_batch() {
        use crate::generator::{generate, GenOptions};
        let opts = json!({"stateDeltaRate": 0.5, "actionRate": 0.4, "subagentRate": 0.5});
        let opts = GenOptions::from_json(&opts).expect("generator options");
        let mut events = generate(400, 7, &opts);
        // A repeated id (the first occurrence wins, the index still counts the second).
        let again = events[10].clone();
        events.insert(100, again);
        let text = serde_json::to_string(&events).expect("events as JSON text");
        let mut streamed = ProjectorCore::new(Some(2.0));
        let compact = streamed
            .project_array_text(&text)
            .expect("the stream projects");
        let mut listed = Projector::new(Some(2.0));
        let whole = listed
            .project_list_compact(events)
            .expect("the stream projects");
        let (mut a, mut b) = (String::new(), String::new());
        streamed.write_wire(&compact, &mut a);
        listed.write_wire(&whole, &mut b);
        assert_eq!(a, b);
        // The expanded state reads the kept events again (read-model entries, state deltas).
        let (sa, sb) = (streamed.state(), listed.state());
        assert_eq!(sa.map(|s| s.to_json()), sb.map(|s| s.to_json()));
        // Text that is not a well-formed array of events stops it (the caller reads the
        // parsed list for the error); an empty array is the empty state.
        for bad in [
            "", "{}", "[", "[{}", "[{},]", "[{}] x", "[1]", "[{}}", "[{},,{}]",
        ] {
            assert!(
                ProjectorCore::new(None).project_array_text(bad).is_none(),
                "{bad}"
            );
        }
        // Hydrating from the text: the flags and the state of hydrating from the parsed list;
        // text that stops it leaves the projector as it was.
        let events: Vec<serde_json::Value> = serde_json::from_str(&text).expect("events");
        let texts: Vec<String> = events.iter().map(|e| e.to_string()).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut from_list = Projector::new(None);
        let flags = from_list.hydrate(events, &texts, Some(2.0));
        let mut from_text = Projector::new(None);
        assert_eq!(from_text.hydrate_text(&text, Some(2.0)), flags.ok());
        let state = |p: &Projector| p.state().map(|s| s.to_json());
        assert_eq!(state(&from_text), state(&from_list));
        for bad in ["[{}", "[1]", "[{\"id\":\"a\",\"eventClass\":5}]"] {
            assert_eq!(from_text.hydrate_text(bad, None), None, "{bad}");
            assert_eq!(state(&from_text), state(&from_list));
        }
        for empty in ["[]", " [ ] ", "\n[\t]\n"] {
            let mut p = ProjectorCore::new(None);
            let state = p.project_array_text(empty).map(|s| s.to_json());
            assert_eq!(
                state,
                Projector::new(None)
                    .state_compact()
                    .ok()
                    .map(|s| s.to_json())
            );
        }
    }

    #[test]
    fn long_event_fields_go_out_as_references() {
        let long = "a detail long enough to be sent as a reference to the event";
        let mut p = Projector::new(None);
        let e0 = json!({"id": "e0", "eventClass": "turn.failed", "status": "failed", "turnId": "t", "detail": long});
        let e1 = json!({"id": "e1", "eventClass": "turn.failed", "status": "failed", "turnId": "t", "detail": "short"});
        assert_eq!(p.apply(e0, 7), Ok(true));
        assert_eq!(p.apply(e1, 8), Ok(true));
        let state = p.state_compact().unwrap_or_default();
        let mut wire = String::new();
        p.write_wire(&state, &mut wire);
        assert!(wire.contains("\"\\u0000f7:detail\""), "{wire}");
        assert!(!wire.contains(long), "the long detail is only referenced");
        assert!(wire.contains("\"short\""));
        // The timeline entries are made by the JS side from the events.
        assert!(
            wire.contains("\"timeline\":[\"\\u0000t0:7:7:0:0\",\"\\u0000t0:8:7:0:0\"]"),
            "{wire}"
        );
        // Plain `write_json` (no projector) writes the text; the expanded state holds it.
        assert!(state.to_json().contains(long));
        assert!(p.state().unwrap_or_default().to_json().contains(long));
    }
}

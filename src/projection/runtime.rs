//! `runtime` (spec §3.3): the status view, computed incrementally with the batch algorithm
//! (§3.3.1) as decided in docs/design.md.
//!
//! The batch scan walks backwards and skips candidates whose `actionId` is resolved by a
//! *later* terminal event. Incrementally: every non-terminal event becomes a candidate holding
//! its status when unresolved and when resolved; a terminal event with a truthy `actionId`
//! marks every earlier candidate with that actionId resolved. The answer is the top-most
//! candidate whose effective status is defined.

use std::rc::Rc;

use crate::contract::fxhash::{HashMap, HashSet};

use super::normalization::ev_val;
use super::view_rules::{
    is_action_terminal, ACTION_REQUIRED_CLASS, RESOLVED_FROM_KEY, RUNTIME_IDLE, RUNTIME_VIEW_FIELDS,
};
use super::{templates, view_rules};
use crate::contract::event::{Ev, Odd};
use crate::contract::js::norm_lower_is;
use crate::contract::val::{JsKey, Obj, Val};

struct Candidate {
    unresolved: Option<&'static str>,
    resolved_status: Option<&'static str>,
    resolved: bool,
}

impl Candidate {
    fn status(&self) -> Option<&'static str> {
        if self.resolved {
            self.resolved_status
        } else {
            self.unresolved
        }
    }
}

/// The runtime-status accumulator.
#[derive(Default)]
pub struct RuntimeAcc {
    cands: Vec<Candidate>,
    /// Indices into `cands` still possibly live, bottom to top.
    stack: Vec<usize>,
    by_action: HashMap<JsKey, Vec<usize>>,
    /// The latest accepted event (the view shows its [`RUNTIME_VIEW_FIELDS`]).
    latest: Option<u32>,
    /// Candidates on which the batch scan throws: (candidate, accepted event, why).
    odd: Vec<(usize, u32, Odd)>,
}

/// What the runtime status reads of an event (the view reads the latest event's
/// [`RUNTIME_VIEW_FIELDS`] besides).
#[derive(Clone, Copy, Debug, Default)]
pub struct StatusFacts<'a> {
    /// `id` when a string.
    pub id: Option<&'a str>,
    /// `eventClass` when a string, else "".
    pub cls: &'a str,
    /// `status` when a string.
    pub status: Option<&'a str>,
    /// `actionId` when a non-empty string.
    pub action_id: Option<&'a str>,
    /// `payload.resolvedFromEventId` when a non-empty string.
    pub resolved_from: Option<&'a str>,
}

impl<'a> StatusFacts<'a> {
    pub fn of(ev: Ev<'a>) -> StatusFacts<'a> {
        StatusFacts {
            id: ev.id(),
            cls: ev.cls(),
            status: ev.status(),
            action_id: ev.truthy_str("actionId"),
            resolved_from: ev
                .payload_get(RESOLVED_FROM_KEY)
                .and_then(serde_json::Value::as_str)
                .filter(|s| !s.is_empty()),
        }
    }
}

fn is_canceled(f: &StatusFacts<'_>) -> bool {
    norm_lower_is(f.status, "canceled") || norm_lower_is(Some(f.cls), "turn.canceled")
}

fn is_failed(f: &StatusFacts<'_>) -> bool {
    let cls = f.cls;
    norm_lower_is(f.status, "failed")
        || norm_lower_is(Some(cls), "turn.failed")
        || cls.ends_with(".failed")
        || cls == "runtime.error"
}

fn is_completed(f: &StatusFacts<'_>) -> bool {
    let cls = f.cls;
    norm_lower_is(f.status, "completed")
        || norm_lower_is(Some(cls), "turn.completed")
        || cls.ends_with(".completed")
        || cls.ends_with(".resolved")
        || cls.ends_with(".result")
        || cls.ends_with(".changed")
        || cls == "snapshot.updated"
}

/// Status of a batch-scan step for an event, given whether its actionId is resolved later.
fn step_status(f: &StatusFacts<'_>, resolved: bool) -> Option<&'static str> {
    candidate_status(f, f.action_id.is_none() || !resolved)
}

/// The status an event stands for (the rules both algorithms share), `None` when it stands for
/// none; `may_wait`: an action request or a pending event may still be waiting (the two
/// algorithms differ in what resolves it).
fn candidate_status(f: &StatusFacts<'_>, may_wait: bool) -> Option<&'static str> {
    let cls = f.cls;
    let status = f.status;
    if is_canceled(f) {
        return Some("canceled");
    }
    if is_failed(f) {
        return Some("failed");
    }
    if cls == ACTION_REQUIRED_CLASS && may_wait {
        return Some("waiting");
    }
    if status == Some("pending") && may_wait {
        return Some("waiting");
    }
    if status == Some("blocked") {
        return Some("blocked");
    }
    if is_completed(f) {
        return Some("completed");
    }
    if status == Some("running") || cls == "turn.started" || cls == "model.delta" {
        return Some("running");
    }
    None
}

/// The status of a candidate on which the batch scan throws.
const THROWS: &str = "\u{0}throws";

/// A key later events can look up (objects and arrays never equal another event's value).
fn lookup_key(v: &Val) -> Option<JsKey> {
    match v {
        Val::Arr(_) | Val::Obj(_) | Val::Event(_) => None,
        other => Some(other.key()),
    }
}

/// Does the batch scan throw on this event when it reaches it (a `status` or an `eventClass`
/// it lower-cases that is not a string)?
fn scan_throws(ev: Ev<'_>) -> Result<(), Odd> {
    ev.str_op("status")?;
    ev.cls_op()?;
    Ok(())
}

impl RuntimeAcc {
    /// Apply the accepted event `ext`.
    pub fn apply(&mut self, ev: Ev<'_>, ext: u32) {
        self.latest = Some(ext);
        let f = StatusFacts::of(ev);
        let action = ev.js("actionId").truthy();
        let action_key = if action {
            lookup_key(&ev_val(ev, "actionId"))
        } else {
            None
        };
        if is_action_terminal(f.cls) && action {
            if let Some(a) = action_key {
                if let Some(list) = self.by_action.remove(&a) {
                    for i in list {
                        if let Some(c) = self.cands.get_mut(i) {
                            c.resolved = true;
                        }
                    }
                }
            }
            self.settle();
            return;
        }
        let (unresolved, resolved_status) = match scan_throws(ev) {
            Err(odd) => {
                self.odd.push((self.cands.len(), ext, odd));
                (Some(THROWS), Some(THROWS))
            }
            Ok(()) => (candidate_status(&f, true), candidate_status(&f, !action)),
        };
        if unresolved.is_none() && resolved_status.is_none() {
            return;
        }
        if let Some(a) = action_key {
            self.by_action.entry(a).or_default().push(self.cands.len());
        }
        self.stack.push(self.cands.len());
        self.cands.push(Candidate {
            unresolved,
            resolved_status,
            resolved: false,
        });
        self.settle();
    }

    /// Pop dead tops: resolution only goes Some→Some or Some→None, so they never come back.
    fn settle(&mut self) {
        while let Some(&top) = self.stack.last() {
            if self.cands.get(top).and_then(Candidate::status).is_some() {
                return;
            }
            self.stack.pop();
        }
    }

    fn top(&self) -> Option<usize> {
        self.stack
            .last()
            .copied()
            .filter(|&t| self.cands.get(t).and_then(Candidate::status).is_some())
    }

    fn status(&self) -> &'static str {
        self.top()
            .and_then(|t| self.cands.get(t))
            .and_then(Candidate::status)
            .unwrap_or(RUNTIME_IDLE)
    }

    /// The event the batch scan would throw on now (the one deciding the status), if any.
    pub fn unreadable(&self) -> Option<(u32, Odd)> {
        let top = self.top()?;
        if self.status() != THROWS {
            return None;
        }
        self.odd
            .iter()
            .find(|(c, _, _)| *c == top)
            .map(|(_, ext, odd)| (*ext, odd.clone()))
    }

    /// The view `{status, activeTurnId, activeRunId, activeTaskId, latestEventId, latestSequence}`
    /// (only when [`Self::unreadable`] is `None`): made by the JS side from the latest event
    /// (`templates::RUNTIME_VIEW`), its fields all `undefined` before any event.
    pub fn view(&self) -> Val {
        let status = self.status();
        match self.latest {
            Some(ext) => templates::made(
                templates::RUNTIME_VIEW,
                ext,
                [view_rules::runtime_status_code(status), 0, 0],
            ),
            None => status_view(status, None),
        }
    }
}

/// The fields of the latest event the view shows, in [`RUNTIME_VIEW_FIELDS`] order.
type Latest = [Val; 5];

/// The status view: `status` and the fields of the latest event ([`RUNTIME_VIEW_FIELDS`]).
fn status_view(status: &'static str, latest: Option<&Latest>) -> Val {
    let mut o = Obj::with_capacity(6).k("status", Val::lit(status));
    for (i, (key, _)) in RUNTIME_VIEW_FIELDS.iter().enumerate() {
        o.push(
            *key,
            latest.and_then(|l| l.get(i)).cloned().unwrap_or_default(),
        );
    }
    o.into_val()
}

fn latest_fields(ev: Ev<'_>) -> Latest {
    RUNTIME_VIEW_FIELDS.map(|(_, field)| ev_val(ev, field))
}

/// `runtimeStatusForEvents(events)`: the batch algorithm (spec §3.3.1). `Err` names the event
/// the reference throws on (its position in `events`) and why.
pub fn runtime_status_for_events(events: &[serde_json::Value]) -> Result<Val, (usize, Odd)> {
    let mut scan = RuntimeStatusScan {
        latest: events.last().map(|e| latest_fields(Ev::of(e))),
        ..RuntimeStatusScan::default()
    };
    for (i, e) in events.iter().enumerate().rev() {
        let ev = Ev::of(e);
        let step = scan.step(&StatusFacts::of(ev), || scan_throws(ev).err());
        if let Some(status) = step.map_err(|odd| (i, odd))? {
            return Ok(scan.view(status));
        }
    }
    Ok(scan.view(RUNTIME_IDLE))
}

/// The batch algorithm (spec §3.3.1) as the reference runs it: from the last event backwards,
/// stopping at the first event that decides the status (usually one of the last), so a caller
/// can hand over the events one at a time from the end until the status is known.
#[derive(Default)]
pub struct RuntimeStatusScan {
    /// ActionIds resolved by the events seen so far (later in the stream).
    resolved: HashSet<String>,
    /// The view fields of the stream's last event (the first one fed).
    latest: Option<Latest>,
}

impl RuntimeStatusScan {
    /// One step back: the event before those seen so far. `Some(status)` when it decides.
    /// `odd` tells why the reference throws on the event (a `status` or an `eventClass` it
    /// lower-cases that is not a string): it does on reaching it, unless the event only resolves
    /// an action (read before any string method).
    pub fn step(
        &mut self,
        f: &StatusFacts<'_>,
        odd: impl FnOnce() -> Option<Odd>,
    ) -> Result<Option<&'static str>, Odd> {
        if let (true, Some(a)) = (is_action_terminal(f.cls), f.action_id) {
            self.resolved.insert(a.to_string());
            return Ok(None);
        }
        if let Some(odd) = odd() {
            return Err(odd);
        }
        let resolved = f.action_id.is_some_and(|a| self.resolved.contains(a));
        Ok(step_status(f, resolved))
    }

    /// Forget the events seen.
    pub fn reset(&mut self) {
        self.resolved.clear();
        self.latest = None;
    }

    fn view(&self, status: &'static str) -> Val {
        status_view(status, self.latest.as_ref())
    }
}

/// One candidate of [`RuntimeStatusAcc`].
struct Pushed {
    serial: u64,
    event_id: Rc<str>,
    status: &'static str,
}

/// The reference's incremental runtime-status accumulator (`createRuntimeStatusAccumulator`,
/// spec §3.3.2), which the exported accumulator follows step for step. It differs from the batch
/// scan (§3.3.3); the projector uses the batch algorithm (docs/design.md).
///
/// Candidates form a stack. A resolution marks every live candidate with its actionId, and the
/// candidate of the event it names by `resolvedFromEventId`, as removed (by event id, as the
/// reference does); removed candidates are popped off the top. Each apply costs the candidates
/// it marks, found through indexes instead of a scan of the stack. The view's event fields are
/// the latest event's; the caller reads them (`status_for` gives the status).
#[derive(Default)]
pub struct RuntimeStatusAcc {
    /// The candidate stack, bottom first; serials grow upwards.
    stack: Vec<Pushed>,
    next_serial: u64,
    /// Serials of the candidates pushed with each actionId (popped ones pruned lazily).
    by_action: HashMap<String, Vec<u64>>,
    /// How many live candidates have each event id.
    live_ids: HashMap<Rc<str>, usize>,
    /// Event ids marked removed.
    removed: HashSet<Rc<str>>,
    resolved_actions: HashSet<String>,
    resolved_events: HashSet<String>,
}

impl RuntimeStatusAcc {
    fn alive(&self, serial: u64) -> bool {
        self.stack
            .binary_search_by_key(&serial, |c| c.serial)
            .is_ok()
    }

    fn is_resolved(&self, f: &StatusFacts<'_>) -> bool {
        f.action_id
            .is_some_and(|a| self.resolved_actions.contains(a))
            || f.id.is_some_and(|i| self.resolved_events.contains(i))
    }

    /// Apply one event; returns the status.
    pub fn apply(&mut self, f: &StatusFacts<'_>) -> &'static str {
        if is_action_terminal(f.cls) {
            if let Some(a) = f.action_id {
                self.resolved_actions.insert(a.to_string());
                let mut serials = self.by_action.remove(a).unwrap_or_default();
                serials.retain(|&s| self.alive(s));
                for &s in &serials {
                    if let Ok(p) = self.stack.binary_search_by_key(&s, |c| c.serial) {
                        if let Some(c) = self.stack.get(p) {
                            self.removed.insert(c.event_id.clone());
                        }
                    }
                }
                if !serials.is_empty() {
                    self.by_action.insert(a.to_string(), serials);
                }
            }
            if let Some(from) = f.resolved_from {
                self.resolved_events.insert(from.to_string());
                if let Some((k, _)) = self.live_ids.get_key_value(from) {
                    self.removed.insert(k.clone());
                }
            }
            return self.refresh();
        }
        if let Some(status) = candidate_status(f, !self.is_resolved(f)) {
            let serial = self.next_serial;
            self.next_serial += 1;
            let event_id: Rc<str> = Rc::from(f.id.unwrap_or(""));
            *self.live_ids.entry(event_id.clone()).or_insert(0) += 1;
            if let Some(a) = f.action_id {
                self.by_action
                    .entry(a.to_string())
                    .or_default()
                    .push(serial);
            }
            self.stack.push(Pushed {
                serial,
                event_id,
                status,
            });
        }
        self.refresh()
    }

    /// Pop removed candidates off the top; the status.
    fn refresh(&mut self) -> &'static str {
        while let Some(top) = self.stack.last() {
            if !self.removed.contains(&top.event_id) {
                break;
            }
            let id = top.event_id.clone();
            self.stack.pop();
            self.removed.remove(&id);
            if let Some(n) = self.live_ids.get_mut(&id) {
                *n -= 1;
                if *n == 0 {
                    self.live_ids.remove(&id);
                }
            }
        }
        self.status()
    }

    /// The current status.
    pub fn status(&self) -> &'static str {
        self.stack.last().map_or(RUNTIME_IDLE, |c| c.status)
    }

    /// The view after `latest` (`None`: no event yet).
    pub fn view(&self, latest: Option<Ev<'_>>) -> Val {
        status_view(self.status(), latest.map(latest_fields).as_ref())
    }
}

#[cfg(test)]
mod status_scan_tests {
    use super::runtime_status_for_events;
    use crate::contract::val::Val;
    use serde_json::json;

    #[test]
    fn the_scan_throws_on_the_odd_event_it_reaches_and_only_there() {
        let started = json!({"id": "a", "eventClass": "turn.started", "status": "running"});
        let odd = json!({"id": "b", "eventClass": "turn.started", "status": 5});
        let done = json!({"id": "c", "eventClass": "turn.completed", "status": "completed"});
        let err = runtime_status_for_events(&[started.clone(), odd.clone()]).err();
        assert_eq!(
            err.map(|(i, o)| (i, o.field.into_owned())),
            Some((1, "status".into()))
        );
        let view = runtime_status_for_events(&[odd, done]).ok();
        assert_eq!(
            view.as_ref()
                .and_then(|v| v.get("status"))
                .and_then(Val::as_str),
            Some("completed")
        );
        assert_eq!(
            view.as_ref()
                .and_then(|v| v.get("latestEventId"))
                .and_then(Val::as_str),
            Some("c")
        );
        let idle = runtime_status_for_events(&[]).ok();
        assert_eq!(
            idle.as_ref()
                .and_then(|v| v.get("status"))
                .and_then(Val::as_str),
            Some("idle")
        );
    }
}

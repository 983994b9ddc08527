//! `runtime` (spec §3.3): the status view, computed incrementally with the batch algorithm
//! (§3.3.1) as decided in docs/design.md.
//!
//! The batch scan walks backwards and skips candidates whose `actionId` is resolved by a
//! *later* terminal event. Incrementally: every non-terminal event becomes a candidate holding
//! its status when unresolved and when resolved; a terminal event with a truthy `actionId`
//! marks every earlier candidate with that actionId resolved. The answer is the top-most
//! candidate whose effective status is defined.

use super::fxhash::HashMap;

use super::normalization::ev_val;
use super::read_model::is_action_terminal;
use crate::contract::event::Ev;
use crate::contract::js::norm_lower_is;
use crate::contract::val::{Obj, Val};

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
    by_action: HashMap<String, Vec<usize>>,
    latest: Option<(Val, Val, Val, Val, Val)>,
}

fn is_canceled(ev: Ev<'_>) -> bool {
    norm_lower_is(ev.status(), "canceled") || norm_lower_is(Some(ev.cls()), "turn.canceled")
}

fn is_failed(ev: Ev<'_>) -> bool {
    let cls = ev.cls();
    norm_lower_is(ev.status(), "failed")
        || norm_lower_is(Some(cls), "turn.failed")
        || cls.ends_with(".failed")
        || cls == "runtime.error"
}

fn is_completed(ev: Ev<'_>) -> bool {
    let cls = ev.cls();
    norm_lower_is(ev.status(), "completed")
        || norm_lower_is(Some(cls), "turn.completed")
        || cls.ends_with(".completed")
        || cls.ends_with(".resolved")
        || cls.ends_with(".result")
        || cls.ends_with(".changed")
        || cls == "snapshot.updated"
}

/// Status of a batch-scan step for `ev`, given whether its actionId is resolved later.
fn step_status(ev: Ev<'_>, resolved: bool) -> Option<&'static str> {
    let cls = ev.cls();
    let status = ev.status();
    let has_action = ev.truthy_str("actionId").is_some();
    if is_canceled(ev) {
        return Some("canceled");
    }
    if is_failed(ev) {
        return Some("failed");
    }
    if cls == "action.required" && (!has_action || !resolved) {
        return Some("waiting");
    }
    if status == Some("pending") && (!has_action || !resolved) {
        return Some("waiting");
    }
    if status == Some("blocked") {
        return Some("blocked");
    }
    if is_completed(ev) {
        return Some("completed");
    }
    if status == Some("running") || cls == "turn.started" || cls == "model.delta" {
        return Some("running");
    }
    None
}

impl RuntimeAcc {
    pub fn apply(&mut self, ev: Ev<'_>) {
        self.latest = Some((
            ev_val(ev, "turnId"),
            ev_val(ev, "runId"),
            ev_val(ev, "taskId"),
            ev_val(ev, "id"),
            ev_val(ev, "sequence"),
        ));
        let action = ev.truthy_str("actionId");
        if is_action_terminal(ev.cls()) {
            if let Some(a) = action {
                if let Some(list) = self.by_action.remove(a) {
                    for i in list {
                        if let Some(c) = self.cands.get_mut(i) {
                            c.resolved = true;
                        }
                    }
                }
                self.settle();
                return;
            }
        }
        let unresolved = step_status(ev, false);
        let resolved_status = step_status(ev, true);
        if unresolved.is_none() && resolved_status.is_none() {
            return;
        }
        if let Some(a) = action {
            self.by_action
                .entry(a.to_string())
                .or_default()
                .push(self.cands.len());
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

    fn status(&self) -> &'static str {
        self.stack
            .last()
            .and_then(|&t| self.cands.get(t))
            .and_then(Candidate::status)
            .unwrap_or("idle")
    }

    /// The view `{status, activeTurnId, activeRunId, activeTaskId, latestEventId, latestSequence}`.
    pub fn view(&self) -> Val {
        let status = self.status();
        let (t, r, k, i, s) = self.latest.clone().unwrap_or_default();
        Obj::new()
            .k("status", Val::lit(status))
            .k("activeTurnId", t)
            .k("activeRunId", r)
            .k("activeTaskId", k)
            .k("latestEventId", i)
            .k("latestSequence", s)
            .into_val()
    }
}

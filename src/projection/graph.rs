//! `graph` (spec §3.6): execution nodes keyed by the event's most specific id, in first
//! insertion order.

use std::rc::Rc;

use super::fxhash::{HashMap, HashSet};

use super::normalization::{ev_val, or_nullish};
use super::patch::ListTracker;
use crate::contract::event::Ev;
use crate::contract::val::{Obj, Val};

const ID_FIELDS: [(&str, &str); 8] = [
    ("subagentId", "subagent"),
    ("toolCallId", "tool"),
    ("actionId", "action"),
    ("stepId", "step"),
    ("attemptId", "attempt"),
    ("runId", "run"),
    ("taskId", "task"),
    ("turnId", "turn"),
];

struct Node {
    node_id: String,
    parent: Val,
    node_type: Val,
    status: Val,
    title: Val,
    /// Shared with the node's output value; unique again once the previous output is dropped,
    /// so appending does not copy the list.
    refs: Rc<Vec<Val>>,
    ref_set: HashSet<String>,
    source_ids: Rc<Vec<Val>>,
    source_set: HashSet<Option<String>>,
    created: Val,
    completed: Val,
}

impl Node {
    fn val(&self) -> Val {
        Obj::with_capacity(9)
            .k("nodeId", Val::str(&self.node_id))
            .k("parentId", self.parent.clone())
            .k("nodeType", self.node_type.clone())
            .k("status", self.status.clone())
            .k("title", self.title.clone())
            .k("refs", Val::Arr(self.refs.clone()))
            .k("sourceEventIds", Val::Arr(self.source_ids.clone()))
            .k("createdAt", self.created.clone())
            .k("completedAt", self.completed.clone())
            .into_val()
    }
}

/// The graph accumulator.
#[derive(Default)]
pub struct GraphAcc {
    nodes: Vec<Node>,
    index: HashMap<String, usize>,
    pub items: Vec<Val>,
    pub tracker: ListTracker,
}

fn parent_of(ev: Ev<'_>) -> Val {
    if ev.truthy("subagentId") && ev.truthy("taskId") {
        ev_val(ev, "taskId")
    } else if ev.truthy("stepId") && ev.truthy("toolCallId") {
        ev_val(ev, "stepId")
    } else if ev.truthy("taskId") && ev.truthy("runId") {
        ev_val(ev, "taskId")
    } else {
        Val::Undef
    }
}

impl GraphAcc {
    pub fn apply(&mut self, ev: Ev<'_>) {
        let Some(first) = ID_FIELDS.iter().find(|(k, _)| ev.present(k)) else {
            return;
        };
        let Some(node_id) = ev.truthy_str(first.0) else {
            return;
        };
        let ty = ID_FIELDS
            .iter()
            .find(|(k, _)| ev.truthy(k))
            .map(|(_, t)| *t)
            .unwrap_or("task");
        let refs = ev.event_refs();
        let id = ev.id();
        let pos = match self.index.get(node_id) {
            Some(&p) => p,
            None => {
                self.nodes.push(Node {
                    node_id: node_id.to_string(),
                    parent: Val::Undef,
                    node_type: Val::Undef,
                    status: Val::Undef,
                    title: Val::Undef,
                    refs: Rc::default(),
                    ref_set: HashSet::default(),
                    source_ids: Rc::default(),
                    source_set: HashSet::default(),
                    created: Val::Undef,
                    completed: Val::Undef,
                });
                self.items.push(Val::Undef);
                self.index.insert(node_id.to_string(), self.nodes.len() - 1);
                self.nodes.len() - 1
            }
        };
        // Release the previous output value first so the shared lists can grow in place.
        if let Some(slot) = self.items.get_mut(pos) {
            *slot = Val::Undef;
        }
        let Some(n) = self.nodes.get_mut(pos) else {
            return;
        };
        n.parent = parent_of(ev);
        n.node_type = or_nullish(std::mem::take(&mut n.node_type), || Val::lit(ty));
        n.status = ev_val(ev, "status");
        n.title = or_nullish(std::mem::take(&mut n.title), || ev_val(ev, "title"));
        for r in refs {
            if n.ref_set.insert(r.to_string()) {
                Rc::make_mut(&mut n.refs).push(Val::str(r));
            }
        }
        if n.source_set.insert(id.map(str::to_string)) {
            Rc::make_mut(&mut n.source_ids).push(ev_val(ev, "id"));
        }
        n.created = or_nullish(std::mem::take(&mut n.created), || ev_val(ev, "createdAt"));
        n.completed = or_nullish(ev_val(ev, "completedAt"), || {
            std::mem::take(&mut n.completed)
        });
        let v = n.val();
        if let Some(slot) = self.items.get_mut(pos) {
            *slot = v;
        }
        self.tracker.touch(pos);
    }
}

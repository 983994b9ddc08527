//! `graph` (spec §3.6): execution nodes keyed by the event's most specific id, in first
//! insertion order.

use std::rc::Rc;

use crate::contract::fxhash::{HashMap, HashSet};

use super::normalization::or_nullish;
use super::patch::{list_ops_by_slot, record_sent, ListTracker, PatchOp, Seg};
use crate::contract::event::{slots_of, Ev};
use crate::contract::val::{JsKey, Obj, Val};

/// The id fields that name a node, in the order the reference tries them (a later event with
/// any of them truthy touches the graph: `state_delta::touches`), and the node type each gives.
pub const ID_FIELDS: [&str; 8] = [
    "subagentId",
    "toolCallId",
    "actionId",
    "stepId",
    "attemptId",
    "runId",
    "taskId",
    "turnId",
];
const ID_TYPES: [&str; ID_FIELDS.len()] = [
    "subagent", "tool", "action", "step", "attempt", "run", "task", "turn",
];

/// The slots of [`ID_FIELDS`] (read for every event, without a name lookup).
const ID_SLOTS: [usize; ID_FIELDS.len()] = slots_of(ID_FIELDS);

struct Node {
    node_id: Val,
    parent: Val,
    node_type: Val,
    status: Val,
    title: Val,
    /// Shared with the node's output value; unique again once the previous output is dropped,
    /// so appending does not copy the list.
    refs: Rc<Vec<Val>>,
    ref_set: HashSet<JsKey>,
    source_ids: Rc<Vec<Val>>,
    source_set: HashSet<JsKey>,
    created: Val,
    completed: Val,
}

/// The output keys of a node's single values, in output order (`refs` and `sourceEventIds`
/// sit between `title` and `createdAt`).
const FIELD_KEYS: [&str; 7] = [
    "nodeId",
    "parentId",
    "nodeType",
    "status",
    "title",
    "createdAt",
    "completedAt",
];

/// What the receiver holds of a node: its single values and the lengths of its two lists
/// (which only grow).
struct SentNode {
    fields: Vec<Val>,
    refs: usize,
    sources: usize,
}

impl Node {
    /// The single values, in `FIELD_KEYS` order.
    fn fields(&self) -> [&Val; 7] {
        [
            &self.node_id,
            &self.parent,
            &self.node_type,
            &self.status,
            &self.title,
            &self.created,
            &self.completed,
        ]
    }

    fn sent(&self) -> SentNode {
        SentNode {
            fields: self.fields().iter().map(|v| (*v).clone()).collect(),
            refs: self.refs.len(),
            sources: self.source_ids.len(),
        }
    }

    /// The ops that turn node `i` of the list at `path`, as `sent`, into this node: a replaced
    /// single value, the new ids at the end of a list.
    fn diff(&self, sent: &SentNode, path: &[Seg], i: usize, out: &mut Vec<PatchOp>) {
        let at = |k: &'static str| {
            let mut p = path.to_vec();
            p.push(Seg::Index(i));
            p.push(Seg::Key(k));
            p
        };
        for ((k, now), before) in FIELD_KEYS.iter().zip(self.fields()).zip(&sent.fields) {
            if !crate::contract::val::deep_equal(now, before) {
                out.push(PatchOp::Replace {
                    path: at(k),
                    value: now.clone(),
                });
            }
        }
        for (k, list, had) in [
            ("refs", &self.refs, sent.refs),
            ("sourceEventIds", &self.source_ids, sent.sources),
        ] {
            if list.len() > had {
                out.push(PatchOp::List {
                    path: at(k),
                    len: list.len(),
                    set: (had..list.len())
                        .filter_map(|j| list.get(j).map(|v| (j, v.clone())))
                        .collect(),
                });
            }
        }
    }

    fn val(&self) -> Val {
        Obj::with_capacity(9)
            .k("nodeId", self.node_id.clone())
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
    index: HashMap<JsKey, usize>,
    /// Each node's output value, `Undef` while out of date: made when the list is read
    /// ([`GraphAcc::settle`], [`GraphAcc::items`]), as many events change one node.
    items: Vec<Val>,
    tracker: ListTracker,
    /// The receiver's copy of each node, as of the last patch.
    sent: Vec<SentNode>,
}

fn parent_of(ev: Ev<'_>) -> Val {
    if ev.truthy("subagentId") && ev.truthy("taskId") {
        ev.val("taskId")
    } else if ev.truthy("stepId") && ev.truthy("toolCallId") {
        ev.val("stepId")
    } else if ev.truthy("taskId") && ev.truthy("runId") {
        ev.val("taskId")
    } else {
        Val::Undef
    }
}

/// What one event does to the graph: the node it upserts (its id, the type its id field gives
/// and the event's refs), if any.
pub struct GraphChange {
    node_id: Val,
    node_type: &'static str,
    refs: Vec<Val>,
}

impl GraphAcc {
    /// The node the event upserts, with the event's refs (`eventRefs`), if any.
    pub fn prepare(&self, ev: Ev<'_>, refs: &Val) -> Option<GraphChange> {
        // `subagentId ?? toolCallId ?? ... ?? turnId`: the first present and not null; only a
        // truthy one names a node.
        // The ids before it are all nullish, so it is also the first truthy one, whose type the
        // node takes.
        let ((name, slot), node_type) = ID_FIELDS
            .into_iter()
            .zip(ID_SLOTS)
            .zip(ID_TYPES)
            .find(|&((k, slot), _)| !ev.js_slot(slot, k).is_nullish())?;
        if !ev.js_slot(slot, name).truthy() {
            return None;
        }
        Some(GraphChange {
            node_id: ev.val_slot(slot, name),
            node_type,
            refs: refs.as_arr().unwrap_or(&[]).to_vec(),
        })
    }

    pub fn commit(&mut self, ev: Ev<'_>, change: Option<GraphChange>) {
        let Some(GraphChange {
            node_id,
            node_type,
            refs,
        }) = change
        else {
            return;
        };
        let key = node_id.key();
        let pos = match self.index.get(&key) {
            Some(&p) => p,
            None => {
                self.nodes.push(Node {
                    node_id,
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
                self.index.insert(key, self.nodes.len() - 1);
                self.nodes.len() - 1
            }
        };
        // Out of date; the previous output value released first, so the shared lists can grow
        // in place.
        if let Some(slot) = self.items.get_mut(pos) {
            *slot = Val::Undef;
        }
        let Some(n) = self.nodes.get_mut(pos) else {
            return;
        };
        n.parent = parent_of(ev);
        // The type of the event's first truthy id, for a node that has none yet.
        n.node_type = or_nullish(std::mem::take(&mut n.node_type), || Val::lit(node_type));
        n.status = ev.val("status");
        n.title = or_nullish(std::mem::take(&mut n.title), || ev.val("title"));
        for r in refs {
            if n.ref_set.insert(r.key()) {
                Rc::make_mut(&mut n.refs).push(r);
            }
        }
        let id = ev.val("id");
        if n.source_set.insert(id.key()) {
            Rc::make_mut(&mut n.source_ids).push(id);
        }
        n.created = or_nullish(std::mem::take(&mut n.created), || ev.val("createdAt"));
        n.completed = or_nullish(ev.val("completedAt"), || std::mem::take(&mut n.completed));
        self.tracker.touch(pos);
    }

    /// Make the values of the nodes a patch sends whole: those appended since the last one (a
    /// changed node is sent as what changed in it, read from the node).
    fn settle(&mut self) {
        for i in self.tracker.sent_whole(self.items.len()) {
            if let (Some(n), Some(slot @ Val::Undef)) = (self.nodes.get(i), self.items.get_mut(i)) {
                *slot = n.val();
            }
        }
    }

    /// The list's value (the values out of date made for it, not kept).
    pub fn items(&self) -> Val {
        let mut items = self.items.clone();
        for (slot, n) in items.iter_mut().zip(&self.nodes) {
            if matches!(slot, Val::Undef) {
                *slot = n.val();
            }
        }
        Val::arr(items)
    }
}

impl GraphAcc {
    /// The receiver now has the whole list as it is.
    pub fn sync(&mut self) {
        self.settle();
        self.tracker.sync(self.items.len());
        self.sent = self.nodes.iter().map(Node::sent).collect();
    }

    /// The ops since the last patch for the list at `path`: new nodes whole, and for each
    /// changed node only what changed (a node's id lists grow by an id an event, so resending
    /// the node would cost the length of its lists).
    pub fn patch_ops(&mut self, path: &[Seg], out: &mut Vec<PatchOp>) {
        self.settle();
        let change = self.tracker.take(self.items.len());
        let (nodes, sent) = (&self.nodes, &self.sent);
        let idx = list_ops_by_slot(
            path,
            change,
            sent.len(),
            &self.items,
            &mut |i, ops| match (nodes.get(i), sent.get(i)) {
                (Some(n), Some(s)) => {
                    n.diff(s, path, i, ops);
                    true
                }
                _ => false,
            },
            out,
        );
        record_sent(&mut self.sent, self.items.len(), &idx, |i| {
            self.nodes.get(i).map(Node::sent)
        });
    }
}

//! Incremental patches for the `mcp` surface (§3.8): per MCP call its tool view, status-id
//! lists and its server's aggregate are kept up to date as calls change, so a change costs
//! O(log calls + the call's event ids) instead of rebuilding the surface. The full model is
//! still built by `ToolSurfaceAcc` (state reads and whole replacements).

use std::rc::Rc;

use super::patch::{list_op, ListTracker, PatchOp, Seg};
use crate::contract::fxhash::HashSet;
use crate::contract::js::js_trim;
use crate::contract::order::OrdMap;
use crate::contract::val::{deep_equal, Val};

/// A list of values kept in call order.
#[derive(Default)]
struct CallList {
    members: Vec<usize>,
    items: Vec<Val>,
    tracker: ListTracker,
}

impl CallList {
    /// Put `v` at `call`'s place (`None`: remove it).
    fn set(&mut self, call: usize, v: Option<Val>) {
        let p = self.members.partition_point(|&m| m < call);
        let present = self.members.get(p) == Some(&call);
        match (present, v) {
            (true, Some(v)) => {
                if let Some(slot) = self.items.get_mut(p) {
                    if !deep_equal(slot, &v) {
                        *slot = v;
                        self.tracker.touch(p);
                    }
                }
            }
            (true, None) => {
                self.members.remove(p);
                self.items.remove(p);
                for i in p..self.items.len() {
                    self.tracker.touch(i);
                }
            }
            (false, Some(v)) => {
                self.members.insert(p, call);
                self.items.insert(p, v);
                for i in p..self.items.len() {
                    self.tracker.touch(i);
                }
            }
            (false, None) => {}
        }
    }
}

/// One call's contribution to its server.
struct Facts {
    status: Val,
    ids: Vec<Rc<str>>,
}

/// A server's aggregate over its calls.
struct Server {
    id: Rc<str>,
    calls: OrdMap<usize, Facts>,
    failing: OrdMap<usize, Val>,
    running: OrdMap<usize, Val>,
    non_nullish: OrdMap<usize, Val>,
    event_ids: Vec<Val>,
    /// The ids in `event_ids` (a set of `String`s, the set type the other views use: one
    /// compiled set type fewer in the module).
    seen: HashSet<String>,
    ids_tracker: ListTracker,
    /// status, toolCount, activeToolCount, failedToolCount as last sent.
    sent: Option<[Val; 4]>,
}

impl Server {
    fn new(id: Rc<str>) -> Server {
        Server {
            id,
            calls: OrdMap::new(),
            failing: OrdMap::new(),
            running: OrdMap::new(),
            non_nullish: OrdMap::new(),
            event_ids: Vec::new(),
            seen: HashSet::default(),
            ids_tracker: ListTracker::default(),
            sent: None,
        }
    }

    fn first(&self) -> usize {
        self.calls.first_key().unwrap_or(usize::MAX)
    }

    /// The reference's status fold, from the maintained sets: the last failed/blocked status,
    /// else the last running/pending one, else the first non-nullish one, else the last one.
    fn status(&self) -> Val {
        if let Some((_, v)) = self.failing.iter().next_back() {
            return v.clone();
        }
        if let Some((_, v)) = self.running.iter().next_back() {
            return v.clone();
        }
        if let Some((_, v)) = self.non_nullish.iter().next() {
            return v.clone();
        }
        self.calls
            .values()
            .next_back()
            .map(|f| f.status.clone())
            .unwrap_or_default()
    }

    fn scalars(&self) -> [Val; 4] {
        [
            self.status(),
            Val::Num(self.calls.len() as f64),
            Val::Num(self.running.len() as f64),
            Val::Num(self.failing.len() as f64),
        ]
    }

    fn remove(&mut self, call: usize) -> Option<Facts> {
        self.failing.remove(call);
        self.running.remove(call);
        self.non_nullish.remove(call);
        self.calls.remove(call)
    }

    fn insert(&mut self, call: usize, f: Facts) {
        let s = f.status.as_str().unwrap_or("");
        if matches!(s, "failed" | "blocked") {
            self.failing.insert(call, f.status.clone());
        }
        if matches!(s, "running" | "pending") {
            self.running.insert(call, f.status.clone());
        }
        if !f.status.is_nullish() {
            self.non_nullish.insert(call, f.status.clone());
        }
        self.calls.insert(call, f);
    }

    fn append_ids(&mut self, ids: &[Rc<str>]) {
        for x in ids {
            // A copy of the id only for one not seen yet.
            if !self.seen.contains(&**x) {
                self.seen.insert(x.to_string());
                self.event_ids.push(Val::Str(x.clone()));
            }
        }
    }

    /// Recompute the ordered union of event ids (after a change not at the end).
    fn rebuild_ids(&mut self) {
        let old = std::mem::take(&mut self.event_ids);
        self.seen.clear();
        let all: Vec<Rc<str>> = self.calls.values().flat_map(|f| f.ids.clone()).collect();
        self.append_ids(&all);
        for (i, (a, b)) in old.iter().zip(self.event_ids.iter()).enumerate() {
            if !deep_equal(a, b) {
                self.ids_tracker.touch(i);
            }
        }
    }
}

/// The incremental `mcp` patch state.
#[derive(Default)]
pub struct McpPatch {
    tools: CallList,
    /// activeToolIds, failedToolIds, completedToolIds.
    id_lists: [CallList; 3],
    servers: Vec<Server>,
    server_of: OrdMap<usize, usize>,
    dirty_servers: Vec<usize>,
    /// The server list changed shape (a server added, removed or reordered).
    structural: bool,
    sent_has: bool,
    changed: bool,
}

const ID_KEYS: [&str; 3] = ["activeToolIds", "failedToolIds", "completedToolIds"];

impl McpPatch {
    /// Call `call` now has the MCP view `m` (not truthy: not an MCP tool).
    pub fn update(&mut self, call: usize, m: &Val) {
        self.changed = true;
        let truthy = m.truthy();
        self.tools.set(call, truthy.then(|| m.clone()));
        let st = if truthy {
            m.get("status").cloned().unwrap_or_default()
        } else {
            Val::Undef
        };
        let s = st.as_str();
        let id = m.get("id").cloned().unwrap_or_default();
        for (k, list) in self.id_lists.iter_mut().enumerate() {
            let member = match k {
                0 => matches!(s, Some("running" | "pending")),
                1 => matches!(s, Some("failed" | "blocked")),
                _ => s == Some("completed"),
            };
            list.set(call, member.then(|| id.clone()));
        }
        // Server aggregate.
        let old = self.server_of.get(call).copied();
        let new_sid: Option<Rc<str>> =
            truthy.then(|| Rc::from(m.get("serverId").and_then(Val::as_str).unwrap_or("")));
        let ids: Vec<Rc<str>> = if truthy {
            m.get("eventIds")
                .and_then(Val::as_arr)
                .unwrap_or(&[])
                .iter()
                .filter_map(Val::as_str)
                .map(js_trim)
                .filter(|x| !x.is_empty())
                .map(Rc::from)
                .collect()
        } else {
            Vec::new()
        };
        let facts = Facts { status: st, ids };
        let same_server = match (old, &new_sid) {
            (Some(i), Some(sid)) => self.servers.get(i).map(|s| &s.id == sid).unwrap_or(false),
            _ => false,
        };
        if same_server {
            let Some(i) = old else { return };
            let Some(srv) = self.servers.get_mut(i) else {
                return;
            };
            let is_last = srv.calls.last_key() == Some(call);
            let prev = srv.remove(call);
            let prefix = prev
                .as_ref()
                .map(|p| facts.ids.starts_with(&p.ids))
                .unwrap_or(false);
            let fresh: Vec<Rc<str>> = match &prev {
                Some(p) if is_last && prefix => facts.ids[p.ids.len()..].to_vec(),
                _ => Vec::new(),
            };
            let append = is_last && prefix;
            srv.insert(call, facts);
            if append {
                srv.append_ids(&fresh);
            } else {
                srv.rebuild_ids();
            }
            self.mark(i);
            return;
        }
        if let Some(i) = old {
            self.server_of.remove(call);
            if let Some(srv) = self.servers.get_mut(i) {
                srv.remove(call);
                srv.rebuild_ids();
                if srv.calls.is_empty() {
                    self.structural = true;
                }
            }
            self.mark(i);
        }
        let Some(sid) = new_sid else {
            self.reorder();
            return;
        };
        let i = match self.servers.iter().position(|s| s.id == sid) {
            Some(i) => i,
            None => {
                self.servers.push(Server::new(sid));
                self.structural = true;
                self.servers.len() - 1
            }
        };
        if let Some(srv) = self.servers.get_mut(i) {
            let at_end = srv.calls.last_key().map(|l| l < call).unwrap_or(true);
            let ids = facts.ids.clone();
            srv.insert(call, facts);
            if at_end {
                srv.append_ids(&ids);
            } else {
                srv.rebuild_ids();
            }
        }
        self.server_of.insert(call, i);
        self.mark(i);
        self.reorder();
    }

    fn mark(&mut self, i: usize) {
        if !self.dirty_servers.contains(&i) {
            self.dirty_servers.push(i);
        }
    }

    /// Keep servers in first-appearance order; drop empty ones.
    fn reorder(&mut self) {
        // Only a server list out of order or holding an empty server needs the rebuild below
        // (which walks every MCP call); a server added at the end keeps the order. Whether the
        // receiver needs the whole list is tracked by `structural`, set by the caller.
        let sorted = self
            .servers
            .windows(2)
            .all(|w| w.first().map(Server::first) <= w.get(1).map(Server::first));
        if sorted && self.servers.iter().all(|s| !s.calls.is_empty()) {
            return;
        }
        self.structural = true;
        self.servers.retain(|s| !s.calls.is_empty());
        crate::contract::order::stable_sort_by_key(&mut self.servers, |s| s.first() as u64);
        self.server_of.clear();
        for (i, s) in self.servers.iter().enumerate() {
            for c in s.calls.keys() {
                self.server_of.insert(c, i);
            }
        }
        self.dirty_servers.clear();
    }

    /// The receiver holds the current model.
    pub fn sync(&mut self) {
        self.tools.tracker.sync(self.tools.items.len());
        for l in self.id_lists.iter_mut() {
            l.tracker.sync(l.items.len());
        }
        for s in self.servers.iter_mut() {
            s.ids_tracker.sync(s.event_ids.len());
            s.sent = Some(s.scalars());
        }
        self.dirty_servers.clear();
        self.structural = false;
        self.sent_has = !self.tools.items.is_empty();
        self.changed = false;
    }

    /// Whether there are ops under `/mcp` to take.
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// Ops under `/mcp` since the last call; `whole` builds the full model when the shape
    /// changed.
    pub fn patch_ops(&mut self, whole: impl FnOnce() -> Val, out: &mut Vec<PatchOp>) {
        if !self.changed {
            return;
        }
        let has = !self.tools.items.is_empty();
        if has != self.sent_has || self.structural || !has {
            if has != self.sent_has || self.structural {
                out.push(PatchOp::Replace {
                    path: vec![Seg::Key("mcp")],
                    value: whole(),
                });
            }
            self.sync();
            return;
        }
        self.changed = false;
        let ch = self.tools.tracker.take(self.tools.items.len());
        out.extend(list_op(
            &[Seg::Key("mcp")],
            &[Seg::Key("tools")],
            ch,
            &self.tools.items,
        ));
        for (k, l) in ID_KEYS.into_iter().zip(self.id_lists.iter_mut()) {
            let ch = l.tracker.take(l.items.len());
            out.extend(list_op(&[Seg::Key("mcp")], &[Seg::Key(k)], ch, &l.items));
        }
        let mut dirty = std::mem::take(&mut self.dirty_servers);
        crate::contract::order::sort_indexes(&mut dirty);
        for i in dirty {
            let Some(s) = self.servers.get_mut(i) else {
                continue;
            };
            let base = |k: &'static str| {
                vec![
                    Seg::Key("mcp"),
                    Seg::Key("servers"),
                    Seg::Index(i),
                    Seg::Key(k),
                ]
            };
            let now = s.scalars();
            for (j, k) in ["status", "toolCount", "activeToolCount", "failedToolCount"]
                .into_iter()
                .enumerate()
            {
                let before = s.sent.as_ref().and_then(|x| x.get(j));
                let cur = now.get(j).cloned().unwrap_or_default();
                if before.map(|b| !deep_equal(b, &cur)).unwrap_or(true) {
                    out.push(PatchOp::Replace {
                        path: base(k),
                        value: cur,
                    });
                }
            }
            s.sent = Some(now);
            let ch = s.ids_tracker.take(s.event_ids.len());
            out.extend(list_op(
                &[Seg::Key("mcp"), Seg::Key("servers"), Seg::Index(i)],
                &[Seg::Key("eventIds")],
                ch,
                &s.event_ids,
            ));
        }
    }
}

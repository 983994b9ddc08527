//! STUB (replaced at merge by the `projection2` branch): the subagents accumulator interface
//! with an always-empty model.

use super::patch::{PatchOp, Seg};
use crate::contract::event::Ev;
use crate::contract::val::{Obj, Val};

pub struct SubagentsAcc;

impl Default for SubagentsAcc {
    fn default() -> Self {
        Self::new()
    }
}

impl SubagentsAcc {
    pub fn new() -> Self {
        SubagentsAcc
    }
    pub fn apply(&mut self, _ev: Ev<'_>) -> bool {
        false
    }
    pub fn model(&self) -> Val {
        let e = || Val::arr(vec![]);
        Obj::new()
            .k("hasSubagents", Val::Bool(false))
            .k("threads", e())
            .k("delegationCalls", e())
            .k("activities", e())
            .k("activeThreadIds", e())
            .k("completedThreadIds", e())
            .k("failedThreadIds", e())
            .into_val()
    }
    pub fn patch_ops(&mut self, _base: &[Seg], _out: &mut Vec<PatchOp>) {}
    pub fn sync(&mut self) {}
}

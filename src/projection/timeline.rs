//! `timeline` (spec §3.5): one entry per accepted event.

use super::normalization::ev_val;
use crate::contract::event::{Ev, Odd};
use crate::contract::val::{Obj, Val};

/// The timeline entry of one event on `surface`, with its refs (`eventRefs`); `Err` where
/// the reference throws on it.
pub fn entry(ev: Ev<'_>, surface: &str, refs: &Val) -> Result<Val, Odd> {
    let kind = match surface {
        "runtime-status" | "context" => "status",
        "human-action" | "permission" => "action",
        "tool" => "tool",
        "artifact" => "artifact",
        "evidence" => "evidence",
        _ => {
            if ev.cls_op()?.starts_with("reasoning.") {
                "reasoning"
            } else if ev.truthy("taskId") {
                "task"
            } else {
                "message"
            }
        }
    };
    Ok(Obj::with_capacity(12)
        .k("entryId", ev_val(ev, "id"))
        .k("sequence", ev_val(ev, "sequence"))
        .k("kind", Val::lit(kind))
        .k("phase", ev_val(ev, "phase"))
        .k("owner", ev_val(ev, "owner"))
        .k("status", ev_val(ev, "status"))
        .k("title", ev_val(ev, "title"))
        .k("detail", ev_val(ev, "detail"))
        .k("refs", refs.clone())
        .k("sourceEventId", ev_val(ev, "id"))
        .k("createdAt", ev_val(ev, "createdAt"))
        .k("completedAt", ev_val(ev, "completedAt"))
        .into_val())
}

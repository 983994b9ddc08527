//! `timeline` (spec §3.5): one entry per accepted event.

use super::templates;
use crate::contract::event::{Ev, Odd};
use crate::contract::val::Val;

/// The timeline entry of accepted event `ext` (`ev`) on `surface`, made by the
/// [`templates::TIMELINE_ENTRY`] template; `Err` where the reference throws on it.
pub fn entry(ev: Ev<'_>, surface: &str, ext: u32) -> Result<Val, Odd> {
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
    Ok(templates::made(
        templates::TIMELINE_ENTRY,
        ext,
        [templates::code_of(&templates::TIMELINE_KINDS, kind), 0, 0],
    ))
}

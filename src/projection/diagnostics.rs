//! `diagnostics` (spec §3.10): one view per failed, blocked or `runtime.error` event.

use super::normalization::or_nullish;
use crate::contract::event::Ev;
use crate::contract::val::{Obj, Val};

/// The diagnostic view of an event, if it is a diagnostic event.
pub fn diagnostic(ev: Ev<'_>) -> Option<Val> {
    let st = ev.status();
    if !(matches!(st, Some("failed" | "blocked")) || ev.cls() == "runtime.error") {
        return None;
    }
    Some(
        Obj::new()
            .k("id", or_nullish(ev.val("traceId"), || ev.val("id")))
            .k("sourceEventId", ev.val("id"))
            .k("title", ev.val("title"))
            .k("detail", ev.val("detail"))
            .k("status", ev.val("status"))
            .into_val(),
    )
}

//! `diagnostics` (spec §3.10): one view per failed, blocked or `runtime.error` event.

use super::normalization::{ev_val, or_nullish};
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
            .k("id", or_nullish(ev_val(ev, "traceId"), || ev_val(ev, "id")))
            .k("sourceEventId", ev_val(ev, "id"))
            .k("title", ev_val(ev, "title"))
            .k("detail", ev_val(ev, "detail"))
            .k("status", ev_val(ev, "status"))
            .into_val(),
    )
}

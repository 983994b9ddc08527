//! Turn-terminal helpers (`runtimeTerminal`): status and event-class normalization.
//!
//! Normalizing means JS `trim()` then lower-casing; an absent value or one that is empty after
//! trimming is "no value" (`None`, or `Val::Undef` where a JS value is returned).

use super::constants::LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES;
use super::js::{js_lower, js_trim};
use super::val::{Obj, Val};

/// `normalizeRuntimeStatusValue`: trimmed, lower-cased, `None` when empty.
pub fn normalize_runtime_status_value(v: Option<&str>) -> Option<String> {
    let n = js_lower(js_trim(v?));
    if n.is_empty() {
        None
    } else {
        Some(n)
    }
}

/// `runtimeTurnTerminalKindFromStatus`: `completed` / `failed` / `canceled`, else `None`
/// (the British `cancelled` is not terminal).
pub fn runtime_turn_terminal_kind_from_status(v: Option<&str>) -> Option<&'static str> {
    match normalize_runtime_status_value(v)?.as_str() {
        "completed" => Some("completed"),
        "failed" => Some("failed"),
        "canceled" => Some("canceled"),
        _ => None,
    }
}

/// The canonical (event class, status/phase) of a terminal kind; any kind other than
/// `completed` and `failed` maps to the cancellation terminal.
fn terminal_parts(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "completed" => ("turn.completed", "completed"),
        "failed" => ("turn.failed", "failed"),
        _ => ("turn.canceled", "canceled"),
    }
}

/// `runtimeTurnTerminalProjectionFromKind`: `{kind, eventClass, status, phase}`; `kind` is
/// echoed as given.
pub fn runtime_turn_terminal_projection_from_kind(kind: &str) -> Val {
    let (class, status) = terminal_parts(kind);
    Obj::new()
        .k("kind", Val::str(kind))
        .k("eventClass", Val::str(class))
        .k("status", Val::str(status))
        .k("phase", Val::str(status))
        .into_val()
}

/// `runtimeTurnTerminalProjectionFromStatus`: the projection of a terminal status, or
/// `Val::Undef`.
pub fn runtime_turn_terminal_projection_from_status(v: Option<&str>) -> Val {
    match runtime_turn_terminal_kind_from_status(v) {
        Some(kind) => runtime_turn_terminal_projection_from_kind(kind),
        None => Val::Undef,
    }
}

/// `normalizeRuntimeTurnTerminalEventClass`: `turn.completed` / `turn.failed` /
/// `turn.canceled` after normalization, else `None` (legacy names included).
pub fn normalize_runtime_turn_terminal_event_class(c: Option<&str>) -> Option<&'static str> {
    match normalize_runtime_status_value(c)?.as_str() {
        "turn.completed" => Some("turn.completed"),
        "turn.failed" => Some("turn.failed"),
        "turn.canceled" => Some("turn.canceled"),
        _ => None,
    }
}

/// `isRuntimeTurnTerminalEventClass`.
pub fn is_runtime_turn_terminal_event_class(c: Option<&str>) -> bool {
    normalize_runtime_turn_terminal_event_class(c).is_some()
}

/// `isLegacyRuntimeTurnTerminalEventClass`: the normalized class is one of the six legacy names.
pub fn is_legacy_runtime_turn_terminal_event_class(c: Option<&str>) -> bool {
    match normalize_runtime_status_value(c) {
        Some(n) => LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES.contains(&n.as_str()),
        None => false,
    }
}

/// `isRuntimeTerminalStatusValue`.
pub fn is_runtime_terminal_status_value(v: Option<&str>) -> bool {
    runtime_turn_terminal_kind_from_status(v).is_some()
}

/// `isRuntimeSettledStatusValue`: a terminal status or `idle`.
pub fn is_runtime_settled_status_value(v: Option<&str>) -> bool {
    match normalize_runtime_status_value(v) {
        Some(n) => n == "idle" || runtime_turn_terminal_kind_from_status(Some(&n)).is_some(),
        None => false,
    }
}

/// `runtimeStatusForTerminalEventClass`: the status a terminal class settles the turn in.
pub fn runtime_status_for_terminal_event_class(c: Option<&str>) -> Option<&'static str> {
    match normalize_runtime_turn_terminal_event_class(c)? {
        "turn.completed" => Some("completed"),
        "turn.canceled" => Some("canceled"),
        _ => Some("failed"),
    }
}

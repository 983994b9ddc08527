//! The `AgentUiProjectionState` document: its 15 keys in the reference's order (before any state
//! delta reorders them) and small fixed parts.

use crate::contract::val::{Obj, Val};

/// The 15 state keys, in the reference's order.
pub const STATE_KEYS: [&str; 15] = [
    "runtime",
    "messages",
    "timeline",
    "graph",
    "tools",
    "toolCalls",
    "mcp",
    "actions",
    "artifacts",
    "evidence",
    "diagnostics",
    "subagents",
    "readModel",
    "hydration",
    "ephemeralUi",
];

/// `hydration` from the event count (and the stale flag of failed deltas).
pub fn hydration(event_count: usize, stale: bool) -> Val {
    let status = if stale {
        "stale"
    } else if event_count > 0 {
        "live"
    } else {
        "idle"
    };
    Obj::with_capacity(2)
        .k("status", Val::lit(status))
        .k("eventCount", Val::Num(event_count as f64))
        .into_val()
}

/// Map a patch-path key name to its `'static` form (state and read-model keys only).
pub fn static_key(k: &str) -> Option<&'static str> {
    STATE_KEYS
        .iter()
        .chain(super::read_model::READ_MODEL_KEYS.iter())
        .find(|s| **s == k)
        .copied()
}

//! The classification rules of App Server facts: which execution event class a fact type
//! becomes, and the kind, status, phase and owner each class gets.

use crate::contract::terminal::{
    normalize_runtime_turn_terminal_event_class, runtime_status_for_terminal_event_class,
    runtime_turn_terminal_kind_from_status,
};

/// The execution event class of an App Server event type: the canonical turn terminals, the
/// App Server's message, thinking, artifact and runtime-status names mapped onto the runtime's,
/// every other type kept as it is (untrimmed).
pub fn event_class_of_type(ty: &str) -> &str {
    if let Some(terminal) = normalize_runtime_turn_terminal_event_class(Some(ty)) {
        return terminal;
    }
    match ty {
        "message.delta_batch" | "message.batch" | "message.delta" => "model.delta",
        "message" | "message.completed" | "item.completed" => "model.completed",
        "thinking.delta" => "reasoning.delta",
        "artifact.snapshot" => "artifact.changed",
        "runtime.status" => "run.status",
        other => other,
    }
}

/// The event types the App Server no longer emits for subagents (dropped, not projected).
pub const RETIRED_EVENT_TYPES: [&str; 2] = ["subagent.status_changed", "subagent_status_changed"];

/// A domain status named in an event's payload, as an execution status (normalized input).
pub fn status_of_payload_status(normalized: Option<&str>) -> Option<&'static str> {
    Some(match normalized? {
        "failed" | "error" | "expired" | "closed" | "aborted" | "cancelled" | "not_found" => {
            "failed"
        }
        "canceled" => "canceled",
        "completed" | "done" | "success" => "completed",
        "blocked" | "waiting" | "needs_input" => "blocked",
        "running" | "queued" | "pending" => "running",
        _ => return None,
    })
}

/// The status of a terminal status value (`completed` / `failed` / `canceled`).
pub fn terminal_status(status: Option<&str>) -> Option<&'static str> {
    runtime_turn_terminal_kind_from_status(status)
}

/// The execution event kind of a class.
pub fn kind_of_class(class: &str) -> &'static str {
    const KINDS: [(&str, &str); 6] = [
        ("model.", "model"),
        ("reasoning.", "note"),
        ("tool.", "tool"),
        ("action.", "action"),
        ("artifact.", "draft"),
        ("evidence.", "evidence"),
    ];
    if let Some((_, kind)) = KINDS.iter().find(|(p, _)| class.starts_with(p)) {
        return kind;
    }
    if class.starts_with("subagent.") || is_collaboration_class(class) {
        return "handoff";
    }
    "state"
}

/// Whether a class settles something: `.completed`, `.resolved`, `.result` or `.changed`.
fn settles(class: &str) -> bool {
    [".completed", ".resolved", ".result", ".changed"]
        .iter()
        .any(|s| class.ends_with(s))
}

fn fails(class: &str) -> bool {
    class.ends_with(".failed") || class == "runtime.error"
}

/// The status a class implies when the payload names none.
pub fn status_of_class(class: &str) -> &'static str {
    if let Some(s) = runtime_status_for_terminal_event_class(Some(class)) {
        return s;
    }
    if fails(class) {
        "failed"
    } else if class == "action.required" || class == "handoff.requested" {
        "pending"
    } else if settles(class) || class.ends_with(".verdict") {
        "completed"
    } else {
        "running"
    }
}

/// Whether an event of this class carries a `completedAt`.
pub fn class_completes(class: &str) -> bool {
    matches!(status_of_class(class), "completed" | "failed" | "canceled")
}

/// The UI phase of a class.
pub fn phase_of_class(class: &str) -> &'static str {
    if let Some(s) = runtime_status_for_terminal_event_class(Some(class)) {
        // A terminal class's phase is its status.
        return s;
    }
    if class == "action.required" {
        "action_required"
    } else if fails(class) {
        "failed"
    } else if settles(class) {
        "completed"
    } else if class.starts_with("tool.") {
        "tool_running"
    } else if class.starts_with("model.") {
        "streaming"
    } else {
        "preparing"
    }
}

/// The owner of an event of this class.
pub fn owner_of_class(class: &str) -> &'static str {
    if class.starts_with("artifact.") {
        "artifact"
    } else if class.starts_with("evidence.") {
        "evidence"
    } else {
        "runtime"
    }
}

/// Handoff, review and task events carry a collaboration view.
pub fn is_collaboration_class(class: &str) -> bool {
    class.starts_with("handoff.") || class.starts_with("review.") || class.starts_with("task.")
}

/// `(collaborationKind, surface, runtimeEntity)` of a collaboration class.
pub fn collaboration_of_class(class: &str) -> (&'static str, &'static str, &'static str) {
    if class.starts_with("handoff.") {
        ("specialist_handoff", "handoff_lane", "subagent_turn")
    } else if class.starts_with("review.") {
        ("collaboration_review", "review_lane", "subagent_turn")
    } else {
        ("collaboration_task", "task_capsule", "work_item")
    }
}

/// The collaboration phase of a collaboration event: from its payload status (normalized) when
/// that names one, else the class's phase.
pub fn collaboration_phase(class: &str, normalized_status: Option<&str>) -> &'static str {
    match normalized_status {
        Some("completed" | "done" | "success") => "completed",
        Some("failed" | "error" | "not_found") => "failed",
        Some("aborted" | "cancelled" | "canceled" | "closed") => "cancelled",
        Some("queued" | "pending" | "waiting" | "blocked") => "waiting",
        Some("running" | "accepted") => "acting",
        _ => phase_of_class(class),
    }
}

/// The status of a session snapshot (`raw` as given, `normalized` trimmed and lower-cased).
pub fn status_of_session(raw: Option<&str>, normalized: Option<&str>) -> &'static str {
    if let Some(s) = terminal_status(normalized) {
        return s;
    }
    match normalized {
        Some("completed" | "idle") => "completed",
        _ if raw == Some("waitingAction") => "blocked",
        Some("running") => "running",
        _ => "pending",
    }
}

/// The status of a turn snapshot.
pub fn status_of_turn(raw: Option<&str>, normalized: Option<&str>) -> &'static str {
    if let Some(s) = terminal_status(normalized) {
        return s;
    }
    if raw == Some("waitingAction") {
        return "pending";
    }
    match normalized {
        Some("running" | "accepted") => "running",
        _ => "pending",
    }
}

/// The event class of a turn snapshot.
pub fn class_of_turn(raw: Option<&str>, normalized: Option<&str>) -> &'static str {
    match terminal_status(normalized) {
        Some("completed") => return "turn.completed",
        Some("failed") => return "turn.failed",
        Some(_) => return "turn.canceled",
        None => {}
    }
    if raw == Some("waitingAction") {
        return "action.required";
    }
    match normalized {
        Some("running" | "accepted") => "turn.started",
        _ => "turn.submitted",
    }
}

/// The title of a turn snapshot (the raw status, compared exactly).
pub fn title_of_turn(raw: Option<&str>) -> &'static str {
    match raw {
        Some("completed") => "Turn completed",
        Some("failed") => "Turn failed",
        Some("canceled") => "Turn canceled",
        Some("waitingAction") => "Action required",
        Some("queued") => "Turn queued",
        _ => "Turn started",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_map_onto_runtime_classes() {
        assert_eq!(event_class_of_type(" Turn.Completed "), "turn.completed");
        assert_eq!(event_class_of_type("message.batch"), "model.delta");
        assert_eq!(event_class_of_type("item.completed"), "model.completed");
        assert_eq!(event_class_of_type("thinking.delta"), "reasoning.delta");
        assert_eq!(event_class_of_type("artifact.snapshot"), "artifact.changed");
        assert_eq!(event_class_of_type("runtime.status"), "run.status");
        // Legacy terminals and unknown types stay as given.
        assert_eq!(event_class_of_type("turn.final_done"), "turn.final_done");
        assert_eq!(event_class_of_type(" custom "), " custom ");
    }

    #[test]
    fn class_rules() {
        assert_eq!(kind_of_class("subagent.started"), "handoff");
        assert_eq!(kind_of_class("task.updated"), "handoff");
        assert_eq!(kind_of_class("reasoning.delta"), "note");
        assert_eq!(kind_of_class("agent.changed"), "state");
        assert_eq!(status_of_class("turn.canceled"), "canceled");
        assert_eq!(status_of_class("review.verdict"), "completed");
        assert_eq!(status_of_class("handoff.requested"), "pending");
        assert_eq!(status_of_class("runtime.error"), "failed");
        assert_eq!(status_of_class("turn.final_done"), "running");
        assert_eq!(phase_of_class("review.verdict"), "preparing");
        assert_eq!(phase_of_class("turn.failed"), "failed");
        assert_eq!(phase_of_class("tool.progress"), "tool_running");
        assert_eq!(phase_of_class("tool.result"), "completed");
        assert!(class_completes("agent.changed"));
        assert!(!class_completes("action.required"));
        assert_eq!(owner_of_class("tool.started"), "runtime");
        assert_eq!(
            collaboration_phase("task.updated", Some("cancelled")),
            "cancelled"
        );
        assert_eq!(
            collaboration_phase("task.updated", Some("odd")),
            "preparing"
        );
    }

    #[test]
    fn payload_statuses() {
        assert_eq!(status_of_payload_status(Some("expired")), Some("failed"));
        assert_eq!(status_of_payload_status(Some("canceled")), Some("canceled"));
        assert_eq!(
            status_of_payload_status(Some("needs_input")),
            Some("blocked")
        );
        assert_eq!(status_of_payload_status(Some("streaming")), None);
    }

    #[test]
    fn snapshot_statuses() {
        assert_eq!(
            status_of_session(Some("waitingAction"), Some("waitingaction")),
            "blocked"
        );
        assert_eq!(status_of_session(Some("Idle"), Some("idle")), "completed");
        assert_eq!(status_of_session(None, None), "pending");
        assert_eq!(
            status_of_turn(Some("waitingAction"), Some("waitingaction")),
            "pending"
        );
        assert_eq!(
            status_of_turn(Some(" Accepted"), Some("accepted")),
            "running"
        );
        assert_eq!(
            class_of_turn(Some("Canceled"), Some("canceled")),
            "turn.canceled"
        );
        assert_eq!(
            class_of_turn(Some("waitingAction"), Some("waitingaction")),
            "action.required"
        );
        assert_eq!(
            class_of_turn(Some("queued"), Some("queued")),
            "turn.submitted"
        );
        assert_eq!(title_of_turn(Some("Completed")), "Turn started");
    }
}

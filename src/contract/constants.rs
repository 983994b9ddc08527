//! Exported constants of the contract: the fixture schema version, the closed Agent UI
//! adapter event taxonomy, the banned legacy turn-terminal classes and the five JSON Schemas.

use serde_json::Value;

/// Schema version carried by every conformance fixture.
pub const AGENT_UI_FIXTURE_SCHEMA_VERSION: &str = "agent-ui-fixture/v0.1";

/// Schema version of a runtime execution event (the JSON Schema's `const`).
pub const AGENT_RUNTIME_EVENT_SCHEMA_VERSION: &str = "lime-runtime-event/v0.1";

/// The closed adapter-event taxonomy (`AgentUiEventClass`), in its published order.
pub const AGENT_UI_EVENT_CLASSES: [&str; 48] = [
    // session
    "session.opened",
    "session.hydrated",
    // run
    "run.started",
    "run.status",
    "run.finished",
    "run.failed",
    "run.canceled",
    // plan
    "plan.delta",
    "plan.final",
    // text
    "text.delta",
    "text.final",
    // reasoning
    "reasoning.delta",
    "reasoning.summary",
    // tool
    "tool.started",
    "tool.args",
    "tool.args.delta",
    "tool.progress",
    "tool.output.delta",
    "tool.result",
    "tool.failed",
    "tool.changed",
    // action
    "action.required",
    "action.resolved",
    // queue, task, agent
    "queue.changed",
    "task.changed",
    "agent.changed",
    // context
    "context.changed",
    "context.compaction.started",
    "context.compaction.completed",
    // permission
    "permission.changed",
    // artifact
    "artifact.created",
    "artifact.updated",
    "artifact.preview.ready",
    "artifact.diff.ready",
    "artifact.failed",
    "artifact.changed",
    // evidence
    "evidence.changed",
    // state and messages
    "state.snapshot",
    "state.delta",
    "messages.snapshot",
    // diagnostics and metrics
    "diagnostic.changed",
    "metric.changed",
    // team
    "agent.spawned",
    "agent.completed",
    "agent.handoff",
    "worker.notification",
    "review.requested",
    "review.completed",
];

/// Turn-terminal class names that are no longer allowed (validators reject them).
pub const LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES: [&str; 6] = [
    "done",
    "final_done",
    "cancelled",
    "turn.done",
    "turn.final_done",
    "turn.cancelled",
];

/// `isAgentUiEventClass`: a string that is exactly one of [`AGENT_UI_EVENT_CLASSES`].
pub fn is_agent_ui_event_class(v: &Value) -> bool {
    match v {
        Value::String(s) => is_agent_ui_event_class_str(s),
        _ => false,
    }
}

/// [`is_agent_ui_event_class`] for a string slice.
pub fn is_agent_ui_event_class_str(s: &str) -> bool {
    AGENT_UI_EVENT_CLASSES.contains(&s)
}

/// The five JSON Schemas: (short name in `agentUiJsonSchemas`, file name under `schemas/`,
/// the file's JSON text). Order is the order of `agentUiJsonSchemas`.
pub const SCHEMA_FILES: [(&str, &str, &str); 5] = [
    (
        "runtimeEvent",
        "agent-runtime-event.v0.1.schema.json",
        include_str!("../../schemas/agent-runtime-event.v0.1.schema.json"),
    ),
    (
        "runtimeStateDelta",
        "agent-runtime-state-delta.v0.1.schema.json",
        include_str!("../../schemas/agent-runtime-state-delta.v0.1.schema.json"),
    ),
    (
        "projectionState",
        "agent-ui-projection-state.v0.1.schema.json",
        include_str!("../../schemas/agent-ui-projection-state.v0.1.schema.json"),
    ),
    (
        "runtimeCapabilityManifest",
        "agent-runtime-capability-manifest.v0.1.schema.json",
        include_str!("../../schemas/agent-runtime-capability-manifest.v0.1.schema.json"),
    ),
    (
        "projectionEvent",
        "agent-ui-projection-event.v0.1.schema.json",
        include_str!("../../schemas/agent-ui-projection-event.v0.1.schema.json"),
    ),
];

/// `(short name, file name)` of each schema in [`SCHEMA_FILES`], without the documents (what
/// the wasm module needs: the package carries the documents in JS). Computed at compile time,
/// so the documents are not linked where only the names are read.
pub const SCHEMA_NAMES: [(&str, &str); 5] = {
    let mut out = [("", ""); 5];
    let mut i = 0;
    while i < out.len() {
        out[i] = (SCHEMA_FILES[i].0, SCHEMA_FILES[i].1);
        i += 1;
    }
    out
};

/// The JSON text of one schema by its short name (`runtimeEvent`, ...).
pub fn schema_json(short_name: &str) -> Option<&'static str> {
    SCHEMA_FILES
        .iter()
        .find(|(n, _, _)| *n == short_name)
        .map(|(_, _, text)| *text)
}

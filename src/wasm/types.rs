//! TypeScript declarations of the package's data types, mirroring the reference's interfaces
//! (contracts.md §1, §3, §5.2; projection.md §2). They exist for the generated `.d.ts` only:
//! values cross the boundary as JSON text, never through these structs.
//!
//! Interfaces are derived with tsify; the open string unions (`"a" | "b" | (string & {})`) and
//! closed unions are written in the custom section below, since tsify cannot express an open
//! union. The interfaces generic in the event type are written in TypeScript too
//! (`GENERIC_INTERFACES`).
#![allow(dead_code)]

use tsify::Tsify;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const UNIONS: &'static str = r#"
type OpenString = string & {};
export type AgentRuntimeExecutionEventKind = "context" | "source" | "skill" | "tool" | "permission" | "sandbox" | "state" | "model" | "draft" | "handoff" | "action" | "evidence" | "note" | OpenString;
export type AgentRuntimeExecutionEventStatus = "pending" | "running" | "completed" | "blocked" | "canceled" | "failed" | OpenString;
export type AgentRuntimePhase = "submitted" | "routing" | "preparing" | "waiting_provider" | "streaming" | "tool_running" | "action_required" | "failed" | "canceled" | "completed" | "blocked" | OpenString;
export type AgentRuntimeFactOwner = "runtime" | "artifact" | "evidence" | OpenString;
export type AgentRuntimeEventClass = "session.created" | "turn.submitted" | "turn.started" | "turn.completed" | "turn.failed" | "run.status" | "context.resolved" | "tool.started" | "tool.result" | "tool.failed" | "tool.catalog.resolved" | "permission.evaluated" | "permission.requested" | "permission.resolved" | "sandbox.applied" | "sandbox.violation" | "model.requested" | "model.delta" | "model.completed" | "model.failed" | "artifact.changed" | "action.required" | "action.resolved" | "runtime.error" | "evidence.changed" | "snapshot.updated" | OpenString;
export type AgentRuntimeSurface = "runtime-status" | "human-action" | "tool" | "permission" | "artifact" | "evidence" | "context" | "message";
export type AgentRuntimeDisplayStatusKey = "agent.status.pending" | "agent.status.running" | "agent.status.completed" | "agent.status.blocked" | "agent.status.canceled" | "agent.status.failed" | "agent.status.actionRequired" | "agent.status.actionResolved" | OpenString;
export type AgentRuntimeActionKind = "add-input-source" | "configure-text-model" | OpenString;
export type AgentRuntimeActionDecision = "open-input-source" | "open-model-settings" | "acknowledge" | OpenString;
export type AgentRuntimeActionLabelKey = "agent.action.addInputSource" | "agent.action.configureTextModel" | "agent.action.acknowledge" | OpenString;
export type AgentRuntimeJsonPatchOperation =
  | { op: "add" | "replace" | "test"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; path: string; from: string };
export type AgentRuntimeTurnTerminalKind = "completed" | "failed" | "canceled";
export type AgentRuntimeCapabilityId = "transport.jsonrpc" | "transport.host-bridge" | "tools.native" | "tools.shim" | "state.snapshot" | "state.delta" | "hitl.actions" | "reasoning.summary" | "reasoning.encrypted-ref" | "multimodal.image" | "multimodal.audio" | "multimodal.video" | "multimodal.document" | "subagents.handoff" | "evidence.export" | OpenString;
export type AgentRuntimeCapabilityStatus = "supported" | "unsupported" | "degraded" | "experimental" | OpenString;
export type AgentRuntimeCapabilityScope = "runtime" | "provider" | "session" | "turn" | "tool" | OpenString;
export type AgentUiHydrationStatus = "idle" | "hydrating" | "live" | "stale" | "repairing" | "degraded";
export type AgentUiArtifactRefView = AgentUiRefView;
export type AgentUiEvidenceRefView = AgentUiRefView;
export type AgentUiSubagentCommand = "open_detail" | "send_input" | "interrupt" | "close" | "wait" | OpenString;
export type UIMessagePartKind = "text" | "reasoning" | "tool-preview" | "artifact-card" | "evidence-citation" | "diagnostic-ref" | OpenString;
export type UIMessagePartState = "streaming" | "final" | "available" | "failed" | "unknown" | OpenString;
export type UIMessageParts = UIMessagePart[];
export type ProcessTimelineEntryKind = "status" | "reasoning" | "tool" | "action" | "artifact" | "evidence" | "task" | "diagnostic" | "message" | OpenString;
export type ProcessTimeline = ProcessTimelineEntry[];
export type ExecutionGraphNodeType = "turn" | "run" | "task" | "subagent" | "job" | "attempt" | "step" | "tool" | "action" | OpenString;
export type ExecutionGraph = ExecutionGraphNode[];
export type AgentUiToolFamily = "webSearch" | "webFetch" | "mcp" | "skill" | "command" | "browser" | "file" | "tool" | OpenString;
export type AgentUiMcpOperationKind = "search" | "list" | "read" | "browser" | "mutation" | "resource" | "prompt" | "auth" | "tool" | OpenString;
export type AgentUiConformanceFixtureId = string;
export type JsonSchemaObject = Record<string, unknown>;
export type AgentUiContractValidationCode = "schema_mismatch" | "missing_scope_id" | "sequence_gap" | "sequence_violation" | "secret_leak_risk" | "large_payload_inline" | "unknown_event_type";
export type RuntimeSequenceViolationCode = "duplicate_event_id" | "tool_result_without_start" | "tool_failed_without_start" | "tool_started_already_active" | "tool_unclosed_at_turn_end" | "patch_terminal_without_start" | "patch_started_already_active" | "patch_unclosed_at_turn_end" | "command_output_without_start" | "command_exited_without_start" | "command_started_already_active" | "command_unclosed_at_turn_end" | "test_completed_without_start" | "test_started_already_active" | "test_unclosed_at_turn_end" | "action_resolved_without_request" | "action_required_already_active" | "action_unresolved_at_turn_end" | "model_unclosed_at_turn_end" | "execution_after_turn_terminal" | "turn_terminal_repeated";
"#;

/// `AgentRuntimeExecutionEvent`: one normalized runtime fact (contracts.md §1.1), generated by
/// build.rs from the event model's field table (`contract::event_model`).
#[wasm_bindgen(typescript_custom_section)]
const EXECUTION_EVENT: &'static str =
    include_str!(concat!(env!("OUT_DIR"), "/event_interface.d.ts"));

// The reference's interfaces generic in the event type (`TEvent`, which the state hands back as
// `source` and in the fixtures' events): written in TypeScript, since tsify has no type
// parameter bounds or defaults.
#[wasm_bindgen(typescript_custom_section)]
const GENERIC_INTERFACES: &'static str = r#"
/** One event as the read model shows it. */
export interface AgentRuntimeEventProjection<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  id: string;
  source: TEvent;
  surface: AgentRuntimeSurface;
  title: string;
  detail?: string;
  status: TEvent["status"];
  displayStatusKey: AgentRuntimeDisplayStatusKey;
  displayStatus?: string;
  action?: AgentRuntimeActionProjection;
  actions?: AgentRuntimeActionProjection[];
  actionId?: string;
  resolved: boolean;
  actionKind: string;
  targetModule: string;
}
/** The read model: every event's projection, the visible and pending ones, refs. */
export interface AgentRuntimeReadModel<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  events: AgentRuntimeEventProjection<TEvent>[];
  visibleEvents: AgentRuntimeEventProjection<TEvent>[];
  pendingActions: AgentRuntimeEventProjection<TEvent>[];
  inputSourceRecovery: boolean;
  sourceCount: number;
  artifactRefs: string[];
  evidenceRefs: string[];
  taskRefs: string[];
}
/** What the batch projection and the projector take. */
export interface AgentRuntimeProjectionInput<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  executionEvents?: TEvent[];
  sourceCount?: number;
}
/** The projected UI state (15 fields). */
export interface AgentUiProjectionState<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  runtime: AgentUiRuntimeStatusView;
  messages: UIMessageParts;
  timeline: ProcessTimeline;
  graph: ExecutionGraph;
  tools: AgentRuntimeEventProjection<TEvent>[];
  toolCalls: AgentUiToolSurfaceModel;
  mcp: AgentUiMcpSurfaceModel;
  actions: AgentRuntimeEventProjection<TEvent>[];
  artifacts: AgentUiArtifactRefView[];
  evidence: AgentUiEvidenceRefView[];
  diagnostics: AgentUiDiagnosticView[];
  subagents: AgentUiSubagentsModel;
  readModel: AgentRuntimeReadModel<TEvent>;
  hydration: {
    status: AgentUiHydrationStatus;
    eventCount: number;
  };
  ephemeralUi: Record<string, unknown>;
}
/** A conformance fixture. */
export interface AgentUiFixture<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  id: string;
  schemaVersion: string;
  title: string;
  events: TEvent[];
  initialReadModel?: AgentRuntimeReadModel<TEvent>;
  finalReadModel?: AgentRuntimeReadModel<TEvent>;
  expected: AgentUiFixtureExpectation;
}
/** What `replayAgentUiFixture` returns. */
export interface AgentUiFixtureReplayResult<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  fixtureId: string;
  state: AgentUiProjectionState<TEvent>;
  validationIssues: AgentUiContractValidationIssue[];
  sequenceViolations: RuntimeSequenceViolation[];
  diagnostics: string[];
  failedClosed: boolean;
  passed: boolean;
}
/** The input of `projectAgentUiStateFromSessionSnapshot`. */
export interface AgentUiSessionSnapshotInput<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>
  extends AgentRuntimeProjectionInput<TEvent> {
  messages?: readonly AgentUiSessionSnapshotMessage[];
  readModel?: AgentRuntimeReadModel<TEvent>;
}
"#;

/// `AgentRuntimeStateDelta` (contracts.md §1.3).
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentRuntimeStateDelta {
    #[tsify(type = "\"lime-runtime-state-delta/v0.1\" | OpenString")]
    pub schema_version: String,
    pub runtime_id: String,
    #[tsify(optional)]
    pub thread_id: Option<String>,
    #[tsify(optional)]
    pub turn_id: Option<String>,
    pub sequence: f64,
    #[tsify(optional)]
    pub base_event_id: Option<String>,
    #[tsify(type = "\"projection\" | \"readModel\" | \"runtime\" | OpenString")]
    pub target: String,
    #[tsify(type = "AgentRuntimeJsonPatchOperation[]")]
    pub patch: Vec<()>,
    pub created_at: String,
}

/// `AgentRuntimeActionProjection`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentRuntimeActionProjection {
    #[tsify(type = "AgentRuntimeActionKind")]
    pub action_kind: String,
    pub target_module: String,
    #[tsify(type = "AgentRuntimeActionLabelKey")]
    pub label_key: String,
    #[tsify(optional)]
    pub button_label: Option<String>,
    #[tsify(type = "AgentRuntimeActionDecision")]
    pub decision: String,
}

/// `AgentUiRuntimeStatusView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiRuntimeStatusView {
    #[tsify(
        type = "\"idle\" | \"running\" | \"waiting\" | \"blocked\" | \"completed\" | \"canceled\" | \"failed\" | \"stale\""
    )]
    pub status: String,
    #[tsify(optional)]
    pub active_turn_id: Option<String>,
    #[tsify(optional)]
    pub active_run_id: Option<String>,
    #[tsify(optional)]
    pub active_task_id: Option<String>,
    #[tsify(optional)]
    pub latest_event_id: Option<String>,
    #[tsify(optional)]
    pub latest_sequence: Option<f64>,
}

/// `AgentUiRefView` (artifact and evidence references).
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiRefView {
    pub id: String,
    pub source_event_id: String,
    #[tsify(optional)]
    pub title: Option<String>,
    #[tsify(optional, type = "AgentRuntimeExecutionEventStatus")]
    pub status: Option<String>,
    #[tsify(
        optional,
        type = "\"artifact\" | \"evidence\" | \"runtime\" | \"ui\" | OpenString"
    )]
    pub owner: Option<String>,
    #[tsify(optional)]
    pub path: Option<String>,
    #[tsify(optional)]
    pub content_ref: Option<String>,
    #[tsify(optional)]
    pub mime_type: Option<String>,
    #[tsify(optional)]
    pub preview: Option<String>,
    #[tsify(optional, type = "Record<string, unknown>")]
    pub metadata: Option<()>,
}

/// `AgentUiDiagnosticView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiDiagnosticView {
    pub id: String,
    pub source_event_id: String,
    pub title: String,
    #[tsify(optional)]
    pub detail: Option<String>,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
}

/// `UIMessagePart`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct UIMessagePart {
    #[tsify(type = "UIMessagePartKind")]
    #[serde(rename = "type")]
    pub kind: String,
    pub part_id: String,
    #[tsify(optional)]
    pub message_id: Option<String>,
    #[tsify(optional, type = "\"user\" | \"assistant\" | \"system\" | OpenString")]
    pub role: Option<String>,
    #[tsify(optional)]
    pub text: Option<String>,
    #[tsify(optional, type = "UIMessagePartState")]
    pub state: Option<String>,
    #[tsify(optional)]
    pub tool_call_id: Option<String>,
    #[tsify(optional)]
    pub artifact_id: Option<String>,
    #[tsify(optional)]
    pub evidence_id: Option<String>,
    #[tsify(optional)]
    pub diagnostic_id: Option<String>,
    pub source_event_id: String,
    #[tsify(optional)]
    pub created_at: Option<String>,
    #[tsify(optional)]
    pub refs: Option<Vec<String>>,
}

/// `ProcessTimelineEntry`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ProcessTimelineEntry {
    pub entry_id: String,
    #[tsify(optional)]
    pub sequence: Option<f64>,
    #[tsify(type = "ProcessTimelineEntryKind")]
    pub kind: String,
    #[tsify(optional, type = "AgentRuntimePhase")]
    pub phase: Option<String>,
    #[tsify(optional, type = "AgentRuntimeFactOwner")]
    pub owner: Option<String>,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    pub title: String,
    #[tsify(optional)]
    pub detail: Option<String>,
    pub refs: Vec<String>,
    pub source_event_id: String,
    pub created_at: String,
    #[tsify(optional)]
    pub completed_at: Option<String>,
}

/// `ExecutionGraphNode`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ExecutionGraphNode {
    pub node_id: String,
    #[tsify(optional)]
    pub parent_id: Option<String>,
    #[tsify(type = "ExecutionGraphNodeType")]
    pub node_type: String,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    pub title: String,
    pub refs: Vec<String>,
    pub source_event_ids: Vec<String>,
    #[tsify(optional)]
    pub created_at: Option<String>,
    #[tsify(optional)]
    pub completed_at: Option<String>,
}

/// `AgentUiCollaborationFactsView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiCollaborationFactsView {
    #[tsify(optional, type = "Record<string, unknown>")]
    pub collaboration_facts: Option<()>,
    #[tsify(optional)]
    pub collaboration_surface: Option<String>,
    #[tsify(optional)]
    pub collaboration_phase: Option<String>,
    #[tsify(optional)]
    pub style_level: Option<String>,
    #[tsify(optional)]
    pub risk_level: Option<String>,
    #[tsify(optional)]
    pub tone_variant: Option<String>,
    #[tsify(optional)]
    pub profile_id: Option<String>,
    #[tsify(optional)]
    pub pack_id: Option<String>,
}

/// `AgentUiSubagentIsolationView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiSubagentIsolationView {
    #[tsify(optional)]
    pub runtime_profile_id: Option<String>,
    #[tsify(optional)]
    pub model_profile_id: Option<String>,
    #[tsify(optional)]
    pub isolation_profile_id: Option<String>,
    #[tsify(optional)]
    pub workspace_ref: Option<String>,
    #[tsify(optional)]
    pub permission_profile: Option<String>,
    #[tsify(optional)]
    pub sandbox_profile: Option<String>,
    #[tsify(optional)]
    pub fork_policy: Option<String>,
    #[tsify(optional)]
    pub depth: Option<f64>,
    #[tsify(optional)]
    pub can_delegate: Option<bool>,
}

/// `AgentUiSubagentThreadView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiSubagentThreadView {
    pub thread_id: String,
    pub subagent_id: String,
    #[tsify(optional)]
    pub parent_thread_id: Option<String>,
    #[tsify(optional)]
    pub parent_task_id: Option<String>,
    #[tsify(optional)]
    pub task_id: Option<String>,
    #[tsify(optional)]
    pub task_path: Option<String>,
    #[tsify(optional)]
    pub role: Option<String>,
    #[tsify(optional)]
    pub nickname: Option<String>,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    pub title: String,
    #[tsify(optional)]
    pub summary: Option<String>,
    #[tsify(optional)]
    pub prompt_preview: Option<String>,
    #[tsify(optional)]
    pub last_activity_at: Option<String>,
    #[tsify(optional)]
    pub created_at: Option<String>,
    #[tsify(optional)]
    pub completed_at: Option<String>,
    pub artifact_refs: Vec<String>,
    pub evidence_refs: Vec<String>,
    pub source_event_ids: Vec<String>,
    #[tsify(optional)]
    pub isolation: Option<AgentUiSubagentIsolationView>,
    #[tsify(optional)]
    pub collaboration: Option<AgentUiCollaborationFactsView>,
}

/// `AgentUiSubagentDelegationView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiSubagentDelegationView {
    pub call_id: String,
    pub source_event_id: String,
    #[tsify(
        type = "\"spawn\" | \"handoff\" | \"send_input\" | \"wait\" | \"interrupt\" | \"close\" | OpenString"
    )]
    pub action: String,
    #[tsify(optional)]
    pub parent_thread_id: Option<String>,
    pub target_thread_ids: Vec<String>,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    pub title: String,
    #[tsify(optional)]
    pub prompt_preview: Option<String>,
    #[tsify(optional)]
    pub created_at: Option<String>,
    #[tsify(optional)]
    pub completed_at: Option<String>,
    #[tsify(optional)]
    pub collaboration: Option<AgentUiCollaborationFactsView>,
}

/// `AgentUiSubagentActivityView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiSubagentActivityView {
    pub activity_id: String,
    pub thread_id: String,
    pub source_event_id: String,
    #[tsify(
        type = "\"started\" | \"updated\" | \"interacted\" | \"handoff\" | \"review\" | \"completed\" | \"interrupted\" | \"failed\" | OpenString"
    )]
    pub kind: String,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    pub title: String,
    #[tsify(optional)]
    pub created_at: Option<String>,
    #[tsify(optional)]
    pub collaboration: Option<AgentUiCollaborationFactsView>,
}

/// `AgentUiSubagentsModel`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiSubagentsModel {
    pub has_subagents: bool,
    pub threads: Vec<AgentUiSubagentThreadView>,
    pub delegation_calls: Vec<AgentUiSubagentDelegationView>,
    pub activities: Vec<AgentUiSubagentActivityView>,
    pub active_thread_ids: Vec<String>,
    pub completed_thread_ids: Vec<String>,
    pub failed_thread_ids: Vec<String>,
}

/// `AgentUiToolCallEventView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiToolCallEventView {
    pub id: String,
    pub event_id: String,
    #[tsify(optional)]
    pub event_class: Option<String>,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    #[tsify(optional, type = "AgentRuntimePhase")]
    pub phase: Option<String>,
    pub title: String,
    #[tsify(optional)]
    pub detail: Option<String>,
    #[tsify(optional)]
    pub created_at: Option<String>,
    #[tsify(optional)]
    pub completed_at: Option<String>,
}

/// `AgentUiMcpToolCallView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiMcpToolCallView {
    pub id: String,
    pub server_id: String,
    pub full_name: String,
    pub tool_name: String,
    #[tsify(type = "AgentUiMcpOperationKind")]
    pub operation_kind: String,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    pub title: String,
    #[tsify(optional)]
    pub detail: Option<String>,
    #[tsify(optional)]
    pub resource_uri: Option<String>,
    #[tsify(optional)]
    pub prompt_name: Option<String>,
    pub event_ids: Vec<String>,
    pub artifact_refs: Vec<String>,
    pub evidence_refs: Vec<String>,
}

/// `AgentUiToolCallView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiToolCallView {
    pub id: String,
    #[tsify(optional)]
    pub tool_call_id: Option<String>,
    pub tool_name: String,
    pub display_name: String,
    #[tsify(type = "AgentUiToolFamily")]
    pub family: String,
    #[tsify(optional)]
    pub operation_kind: Option<String>,
    #[tsify(optional)]
    pub mcp_server_id: Option<String>,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    #[tsify(optional, type = "AgentRuntimePhase")]
    pub phase: Option<String>,
    pub title: String,
    #[tsify(optional)]
    pub detail: Option<String>,
    #[tsify(optional)]
    pub input_preview: Option<String>,
    #[tsify(optional)]
    pub output_preview: Option<String>,
    #[tsify(optional)]
    pub error_preview: Option<String>,
    #[tsify(optional)]
    pub progress: Option<f64>,
    #[tsify(optional)]
    pub total: Option<f64>,
    #[tsify(optional)]
    pub started_at: Option<String>,
    #[tsify(optional)]
    pub completed_at: Option<String>,
    pub artifact_refs: Vec<String>,
    pub evidence_refs: Vec<String>,
    pub event_ids: Vec<String>,
    pub events: Vec<AgentUiToolCallEventView>,
    #[tsify(optional)]
    pub mcp: Option<AgentUiMcpToolCallView>,
    #[tsify(optional)]
    pub skill_slug: Option<String>,
}

/// `AgentUiToolSurfaceModel`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiToolSurfaceModel {
    pub calls: Vec<AgentUiToolCallView>,
    pub active_call_ids: Vec<String>,
    pub failed_call_ids: Vec<String>,
    pub completed_call_ids: Vec<String>,
    #[tsify(type = "Record<string, number>")]
    pub by_family: (),
}

/// `AgentUiMcpServerView`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiMcpServerView {
    pub id: String,
    pub label: String,
    #[tsify(type = "AgentRuntimeExecutionEventStatus")]
    pub status: String,
    pub tool_count: f64,
    pub active_tool_count: f64,
    pub failed_tool_count: f64,
    pub event_ids: Vec<String>,
}

/// `AgentUiMcpSurfaceModel`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiMcpSurfaceModel {
    pub has_mcp: bool,
    pub servers: Vec<AgentUiMcpServerView>,
    pub tools: Vec<AgentUiMcpToolCallView>,
    pub active_tool_ids: Vec<String>,
    pub failed_tool_ids: Vec<String>,
    pub completed_tool_ids: Vec<String>,
}

/// `hydration` of the projection state.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiHydrationView {
    #[tsify(type = "AgentUiHydrationStatus")]
    pub status: String,
    pub event_count: f64,
}

/// `AgentUiFixtureExpectation.coding`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiFixtureCodingExpectation {
    #[tsify(optional)]
    pub file_count: Option<f64>,
    #[tsify(optional)]
    pub change_count: Option<f64>,
    #[tsify(optional)]
    pub patch_count: Option<f64>,
    #[tsify(optional)]
    pub command_count: Option<f64>,
    #[tsify(optional)]
    pub test_count: Option<f64>,
    #[tsify(optional)]
    pub blocked_count: Option<f64>,
    #[tsify(optional)]
    pub failed_patch_count: Option<f64>,
    #[tsify(optional)]
    pub failed_test_count: Option<f64>,
}

/// `AgentUiFixtureExpectation.subagents`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiFixtureSubagentsExpectation {
    #[tsify(optional)]
    pub has_subagents: Option<bool>,
    #[tsify(optional)]
    pub thread_count: Option<f64>,
    #[tsify(optional)]
    pub delegation_call_count: Option<f64>,
    #[tsify(optional)]
    pub activity_count: Option<f64>,
    #[tsify(optional)]
    pub active_thread_count: Option<f64>,
    #[tsify(optional)]
    pub completed_thread_count: Option<f64>,
    #[tsify(optional)]
    pub failed_thread_count: Option<f64>,
}

/// `AgentUiFixtureExpectation`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiFixtureExpectation {
    pub status: String,
    #[tsify(optional)]
    pub message_part_count: Option<f64>,
    #[tsify(optional)]
    pub timeline_entry_count: Option<f64>,
    #[tsify(optional)]
    pub graph_node_count: Option<f64>,
    #[tsify(optional)]
    pub pending_action_count: Option<f64>,
    #[tsify(optional)]
    pub artifact_count: Option<f64>,
    #[tsify(optional)]
    pub evidence_count: Option<f64>,
    #[tsify(optional)]
    pub coding: Option<AgentUiFixtureCodingExpectation>,
    #[tsify(optional)]
    pub subagents: Option<AgentUiFixtureSubagentsExpectation>,
    #[tsify(optional)]
    pub diagnostics: Option<Vec<String>>,
}

/// `AgentUiContractValidationIssue`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiContractValidationIssue {
    #[tsify(type = "AgentUiContractValidationCode")]
    pub code: String,
    pub path: String,
    pub message: String,
}

/// `RuntimeSequenceViolation`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeSequenceViolation {
    #[tsify(type = "RuntimeSequenceViolationCode")]
    pub code: String,
    pub event_id: String,
    #[tsify(optional)]
    pub scope_id: Option<String>,
    #[tsify(optional)]
    pub turn_id: Option<String>,
    pub message: String,
}

/// `AgentRuntimeTurnTerminalProjection`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentRuntimeTurnTerminalProjection {
    #[tsify(type = "AgentRuntimeTurnTerminalKind")]
    pub kind: String,
    #[tsify(type = "\"turn.completed\" | \"turn.failed\" | \"turn.canceled\"")]
    pub event_class: String,
    pub status: String,
    pub phase: String,
}

/// `AgentRuntimeCapabilityEntry`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentRuntimeCapabilityEntry {
    #[tsify(type = "AgentRuntimeCapabilityId")]
    pub id: String,
    #[tsify(type = "AgentRuntimeCapabilityStatus")]
    pub status: String,
    #[tsify(type = "AgentRuntimeCapabilityScope")]
    pub scope: String,
    pub title: String,
    #[tsify(optional)]
    pub detail: Option<String>,
    #[tsify(optional)]
    pub version: Option<String>,
    #[tsify(optional, type = "Record<string, unknown>")]
    pub metadata: Option<()>,
}

/// `AgentRuntimeCapabilityManifest`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentRuntimeCapabilityManifest {
    #[tsify(type = "\"lime-runtime-capability-manifest/v0.1\" | OpenString")]
    pub schema_version: String,
    pub runtime_id: String,
    #[tsify(optional)]
    pub provider_id: Option<String>,
    #[tsify(optional)]
    pub session_id: Option<String>,
    pub generated_at: String,
    pub capabilities: Vec<AgentRuntimeCapabilityEntry>,
}

/// `AgentUiSessionSnapshotMessage`: a message of a session snapshot.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AgentUiSessionSnapshotMessage {
    pub id: String,
    #[tsify(optional)]
    pub role: Option<String>,
    #[tsify(optional)]
    pub content: Option<String>,
    #[tsify(optional)]
    pub text: Option<String>,
    #[tsify(optional)]
    pub created_at: Option<String>,
    #[tsify(optional)]
    pub refs: Option<Vec<String>>,
}

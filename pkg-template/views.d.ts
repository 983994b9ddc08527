// Declarations of views.js: the projection's views taken one at a time, with the data types of
// the reference's readModel, runtimeStatus, stateDelta, toolSurface, subagents,
// collaborationFacts, coding and codingProcessFacts modules.
import type {
  AgentRuntimeActionProjection,
  AgentRuntimeDisplayStatusKey,
  AgentRuntimeEventProjection,
  AgentRuntimeExecutionEvent,
  AgentRuntimeExecutionEventStatus,
  AgentRuntimeProjectionInput,
  AgentRuntimeReadModel,
  AgentRuntimeStateDelta,
  AgentRuntimeSurface,
  AgentUiArtifactRefView,
  AgentUiDiagnosticView,
  AgentUiEvidenceRefView,
  AgentUiMcpOperationKind,
  AgentUiMcpSurfaceModel,
  AgentUiProjectionState,
  AgentUiRuntimeStatusView,
  AgentUiSubagentsModel,
  AgentUiToolSurfaceModel,
} from "./glue/agent_runtime_projection.js";

// --- read model -------------------------------------------------------------------------------
/** Resolution context of `projectAgentRuntimeEvent`: resolved action ids and request event ids. */
interface AgentRuntimeProjectionContext {
  resolvedActionIds: Set<string>;
  resolvedEventIds: Set<string>;
}
export declare function agentEventStatusLabel(status: AgentRuntimeExecutionEventStatus): string;
export declare function agentEventStatusKey(status: AgentRuntimeExecutionEventStatus): AgentRuntimeDisplayStatusKey;
export declare function agentEventDisplayStatusKey(event: AgentRuntimeExecutionEvent): AgentRuntimeDisplayStatusKey;
export declare function agentEventActionKind(event: AgentRuntimeExecutionEvent): string;
export declare function agentEventTargetModule(event: AgentRuntimeExecutionEvent): string;
export declare function projectAgentRuntimeAction(event: AgentRuntimeExecutionEvent): AgentRuntimeActionProjection;
export declare function agentEventSurface(event: AgentRuntimeExecutionEvent): AgentRuntimeSurface;
export declare function projectAgentRuntimeEvent<TEvent extends AgentRuntimeExecutionEvent>(
  event: TEvent,
  context?: AgentRuntimeProjectionContext,
): AgentRuntimeEventProjection<TEvent>;
export declare function isAgentInputSourceRecoveryEvent(event: AgentRuntimeExecutionEvent): boolean;

/**
 * The read model built event by event. Each `apply` costs the event, not the stream, and returns
 * a new model whose unchanged parts are the previous model's objects.
 */
export interface AgentRuntimeReadModelAccumulator<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  apply(event: TEvent): AgentRuntimeReadModel<TEvent>;
  getReadModel(): AgentRuntimeReadModel<TEvent>;
  getEventsBySurface(surface: AgentRuntimeSurface): AgentRuntimeEventProjection<TEvent>[];
  reset(sourceCount?: number): AgentRuntimeReadModel<TEvent>;
}
export declare function createAgentRuntimeReadModelAccumulator<
  TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent,
>(sourceCount?: number): AgentRuntimeReadModelAccumulator<TEvent>;

// --- runtime status -----------------------------------------------------------------------------
/** `runtime` of the batch projection: the status the latest events stand for. */
export declare function runtimeStatusForEvents(events: AgentRuntimeExecutionEvent[]): AgentUiRuntimeStatusView;
/** The reference's incremental runtime status (which differs from the batch one on resolutions). */
export declare function createRuntimeStatusAccumulator(): {
  apply(event: AgentRuntimeExecutionEvent): AgentUiRuntimeStatusView;
  getStatus(): AgentUiRuntimeStatusView;
  reset(): AgentUiRuntimeStatusView;
};

// --- state deltas -------------------------------------------------------------------------------
export declare function readAgentRuntimeStateDelta(event: AgentRuntimeExecutionEvent): AgentRuntimeStateDelta | undefined;
export declare function applyAgentRuntimeStateDeltaToProjectionState<TEvent extends AgentRuntimeExecutionEvent>(
  state: AgentUiProjectionState<TEvent>,
  event: TEvent,
): {
  state: AgentUiProjectionState<TEvent>;
  applied: boolean;
  error?: string;
};
export declare function applyAgentRuntimeStateDeltasToProjectionState<TEvent extends AgentRuntimeExecutionEvent>(
  state: AgentUiProjectionState<TEvent>,
  events: readonly TEvent[],
): AgentUiProjectionState<TEvent>;

// --- tool and MCP surfaces ------------------------------------------------------------------------
export interface ParsedMcpToolName {
  serverId: string;
  toolName: string;
}
export declare function parseAgentUiMcpToolName(toolName: string): ParsedMcpToolName | undefined;
export declare function classifyAgentUiMcpOperationKind(toolName: string): AgentUiMcpOperationKind | undefined;
export declare function projectAgentUiToolSurface<TEvent extends AgentRuntimeExecutionEvent>(
  events: readonly AgentRuntimeEventProjection<TEvent>[],
): AgentUiToolSurfaceModel;
export declare function projectAgentUiMcpSurface(toolSurface: AgentUiToolSurfaceModel): AgentUiMcpSurfaceModel;

// --- subagents ----------------------------------------------------------------------------------
/** The subagents model built event by event; `apply` of a non-subagent event returns the same model. */
export interface AgentUiSubagentsModelAccumulator {
  apply(event: AgentRuntimeExecutionEvent): AgentUiSubagentsModel;
  getModel(): AgentUiSubagentsModel;
  reset(): AgentUiSubagentsModel;
}
export declare function createAgentUiSubagentsModelAccumulator(): AgentUiSubagentsModelAccumulator;

// --- collaboration facts --------------------------------------------------------------------------
export interface AgentUiCollaborationPayloadMetadataInput {
  sourceType?: string | null;
  collaborationKind?: string | null;
  surface?: string | null;
  phase?: string | null;
  status?: string | null;
  runtimeEntity?: string | null;
  runtimeStatus?: string | null;
  latestTurnStatus?: string | null;
  taskId?: string | null;
  agentId?: string | null;
  parentThreadId?: string | null;
  transcriptRef?: string | null;
  handoffId?: string | null;
  styleLevel?: string | null;
  riskLevel?: string | null;
  toneVariant?: string | null;
  profileId?: string | null;
  packId?: string | null;
  metadata?: unknown;
  payload?: unknown;
}
export interface AgentUiCollaborationPayloadMetadata {
  collaborationFacts: Record<string, unknown>;
  collaborationSurface?: string;
  collaborationPhase?: string;
  styleLevel?: string;
  riskLevel?: string;
  toneVariant?: string;
  profileId?: string;
  packId?: string;
}
export declare function buildAgentUiCollaborationPayloadMetadata(
  input: AgentUiCollaborationPayloadMetadataInput,
): AgentUiCollaborationPayloadMetadata;

// --- coding process facts -------------------------------------------------------------------------
export interface CodingProcessFactInput {
  process_id?: string;
  processId?: string;
  execution_process_status?: string;
  executionProcessStatus?: string;
  execution_process_control_status?: string;
  executionProcessControlStatus?: string;
  execution_surface?: string;
  executionSurface?: string;
  stdin_writable?: boolean;
  stdinWritable?: boolean;
  output_bytes?: number;
  outputBytes?: number;
  output_omitted_bytes?: number;
  outputOmittedBytes?: number;
  output_truncated?: boolean;
  outputTruncated?: boolean;
  stdout_bytes?: number;
  stdoutBytes?: number;
  stderr_bytes?: number;
  stderrBytes?: number;
  metadata?: unknown;
}
export interface CodingProcessFacts {
  processId?: string;
  executionProcessStatus?: string;
  executionProcessControlStatus?: string;
  executionSurface?: string;
  stdinWritable?: boolean;
  outputBytes?: number;
  outputOmittedBytes?: number;
  outputTruncated?: boolean;
  stdoutBytes?: number;
  stderrBytes?: number;
}

// --- coding workbench -----------------------------------------------------------------------------
export interface CodingReadModelCommandFact extends CodingProcessFactInput {
  command_id?: string;
  commandId?: string;
  status?: string;
  command?: string;
  canonical_command?: string;
  canonicalCommand?: string;
  command_summary?: string;
  commandSummary?: string;
  command_argv?: string[];
  commandArgv?: string[];
  command_argv_source?: string;
  commandArgvSource?: string;
  cwd?: string;
  exit_code?: number;
  exitCode?: number;
  output_refs?: string[];
  outputRefs?: string[];
  output_preview?: string | null;
  outputPreview?: string | null;
  source_event_ids?: string[];
  sourceEventIds?: string[];
}
export interface CodingReadModelTestRunFact {
  test_run_id?: string;
  testRunId?: string;
  status?: string;
  command_id?: string;
  commandId?: string;
  suite?: string;
  canonical_command?: string;
  canonicalCommand?: string;
  command_summary?: string;
  commandSummary?: string;
  result?: string;
  passed?: number;
  failed?: number;
  output_refs?: string[];
  outputRefs?: string[];
  failure_category?: string;
  failureCategory?: string;
  source_event_ids?: string[];
  sourceEventIds?: string[];
}
export interface CodingReadModelPendingRequestFact {
  id?: string;
  turn_id?: string;
  turnId?: string;
  status?: string;
  request_type?: string;
  requestType?: string;
  title?: string;
  payload?: unknown;
}
export interface CodingReadModelArtifactFact {
  artifact_ref?: string;
  artifactRef?: string;
  event_id?: string;
  eventId?: string;
  sequence?: number;
  turn_id?: string;
  turnId?: string;
  artifact_id?: string;
  artifactId?: string;
  path?: string;
  title?: string;
  kind?: string;
  status?: string;
  content?: string;
  metadata?: unknown;
}
export interface CodingReadModelChangeSummaryFact {
  changed_file_count?: number;
  changedFileCount?: number;
  changed_files?: string[];
  changedFiles?: string[];
  patch_count?: number;
  patchCount?: number;
  applied_patch_count?: number;
  appliedPatchCount?: number;
  failed_patch_count?: number;
  failedPatchCount?: number;
  running_patch_count?: number;
  runningPatchCount?: number;
  source_event_ids?: string[];
  sourceEventIds?: string[];
  latest_sequence?: number;
  latestSequence?: number;
}
export interface CodingReadModelFacts {
  thread_id?: string;
  threadId?: string;
  active_turn_id?: string;
  activeTurnId?: string;
  commands?: CodingReadModelCommandFact[];
  tests?: CodingReadModelTestRunFact[];
  pending_requests?: CodingReadModelPendingRequestFact[];
  pendingRequests?: CodingReadModelPendingRequestFact[];
  active_command_id?: string | null;
  activeCommandId?: string | null;
  active_test_run_id?: string | null;
  activeTestRunId?: string | null;
  active_action_id?: string | null;
  activeActionId?: string | null;
  change_summary?: CodingReadModelChangeSummaryFact | null;
  changeSummary?: CodingReadModelChangeSummaryFact | null;
  artifacts?: unknown[];
}
export interface CodingWorkbenchProjectionInput<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>
  extends AgentRuntimeProjectionInput<TEvent> {
  codingReadModel?: CodingReadModelFacts | null;
  threadItems?: readonly unknown[];
}
export type CodingWorkbenchStatus = "idle" | "running" | "blocked" | "completed" | "failed" | "degraded";
export interface CodingMainObjectView {
  id: string;
  title: string;
  status: CodingWorkbenchStatus;
  activeFilePath?: string;
  activePatchId?: string;
  activeCommandId?: string;
  activeTestRunId?: string;
  sourceEventId?: string;
}
export interface CodingFileView {
  id: string;
  path: string;
  status: string;
  title: string;
  artifactRefs: string[];
  checkpointRef?: string;
  contentRef?: string;
  latestEventId: string;
}
export interface FileChangeView {
  id: string;
  path: string;
  status: string;
  changeKind?: string;
  artifactRefs: string[];
  checkpointRef?: string;
  diffRef?: string;
  preview?: string;
  sourceEventId: string;
}
export interface PatchView {
  patchId: string;
  status: string;
  title: string;
  path?: string;
  toolCallId?: string;
  diffRef?: string;
  failureCategory?: string;
  recoveryHintRef?: string;
  sourceEventIds: string[];
}
export interface CommandOutputView extends CodingProcessFactInput {
  commandId: string;
  status: string;
  title: string;
  command?: string;
  canonicalCommand?: string;
  commandSummary?: string;
  commandArgv?: string[];
  commandArgvSource?: string;
  cwd?: string;
  exitCode?: number;
  outputRefs: string[];
  preview?: string;
  sourceEventIds: string[];
}
export interface TestRunView {
  testRunId: string;
  status: string;
  title: string;
  commandId?: string;
  command?: string;
  canonicalCommand?: string;
  commandSummary?: string;
  suite?: string;
  result?: string;
  passed?: number;
  failed?: number;
  outputRefs: string[];
  failureCategory?: string;
  sourceEventIds: string[];
}
export interface ChangeSummaryView {
  changedFileCount: number;
  changedFiles: string[];
  patchCount: number;
  appliedPatchCount: number;
  failedPatchCount: number;
  runningPatchCount: number;
  sourceEventIds: string[];
}
export interface CodingLocalUiState {
  preferredTab: "preview" | "files" | "changes" | "outputs" | "logs";
  stale: boolean;
}
export interface CodingWorkbenchView<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  runtime: AgentUiRuntimeStatusView;
  mainObject: CodingMainObjectView;
  files: CodingFileView[];
  changes: FileChangeView[];
  patches: PatchView[];
  changeSummary?: ChangeSummaryView;
  commands: CommandOutputView[];
  tests: TestRunView[];
  actions: AgentRuntimeEventProjection<TEvent>[];
  artifacts: AgentUiArtifactRefView[];
  evidence: AgentUiEvidenceRefView[];
  diagnostics: AgentUiDiagnosticView[];
  ui: CodingLocalUiState;
}
export declare function projectCodingWorkbenchView<TEvent extends AgentRuntimeExecutionEvent>(
  state: AgentUiProjectionState<TEvent>,
  readModel?: CodingReadModelFacts | null,
): CodingWorkbenchView<TEvent>;
export declare function projectCodingWorkbenchViewFromEvents<TEvent extends AgentRuntimeExecutionEvent>(
  input?: CodingWorkbenchProjectionInput<TEvent>,
): CodingWorkbenchView<TEvent>;

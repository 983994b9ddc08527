// Types of @limecloud/agent-runtime-projection-wasm/react: the props of the views (the shape of
// @limecloud/agent-runtime-ui 0.1.1's, plus the optional `windowing`), and the projection hook.
// The state types are the package's own (not generic over the event type: the `TEvent` parameters
// kept below type the events handed back to the host's callbacks).
import type { ReactElement, ReactNode } from "react";
import type {
  AgentRuntimeActionProjection,
  AgentRuntimeEventProjection,
  AgentRuntimeExecutionEvent,
  AgentRuntimeExecutionEventStatus,
  AgentRuntimeProjectionInput,
  AgentRuntimeReadModel,
  AgentUiArtifactRefView,
  AgentUiEvidenceRefView,
  AgentUiMcpOperationKind,
  AgentUiMcpServerView,
  AgentUiMcpSurfaceModel,
  AgentUiMcpToolCallView,
  AgentUiProjectionState,
  AgentUiRefView,
  AgentUiSubagentActivityView,
  AgentUiSubagentDelegationView,
  AgentUiSubagentsModel,
  AgentUiSubagentThreadView,
  AgentUiToolCallView,
  AgentUiToolFamily,
  AgentUiToolSurfaceModel,
  ExecutionGraphNode,
  ProcessTimelineEntry,
  ProjectorChange,
  ProjectorOptions,
  UIMessagePart,
} from "../index.js";

// --- windowing ------------------------------------------------------------------------------------

/**
 * Render only the items in and near the viewport of a long list (off unless given; without it the
 * DOM is exactly the view package's). The list element scrolls (`max-height: height px`), and two
 * spacers stand for the items outside the window.
 */
export interface ListWindowing {
  /** Estimated height of one item, in CSS pixels (exact scroll positions with fixed-height items). */
  itemHeight: number;
  /** Maximal height of the list, in CSS pixels. */
  height: number;
  /** Items rendered beyond each edge of the viewport (default 8). */
  overscan?: number;
  /** Start at the end and follow new items while scrolled to the end (default true). */
  stickToEnd?: boolean;
}

/** Windowing of `AgentUiProjectionView`'s long lists. */
export interface AgentUiProjectionViewWindowing {
  messages?: ListWindowing;
  timeline?: ListWindowing;
  /** The execution events list. */
  events?: ListWindowing;
}

// --- props (the view package's shapes) ------------------------------------------------------------

export type AgentMessageRole = "user" | "assistant" | "system" | string;

export interface AgentTimelineMessage {
  id: string;
  role: AgentMessageRole;
  content: string;
  model?: string;
  createdAt?: string;
}

export interface AgentTimelineProps<TMessage extends AgentTimelineMessage = AgentTimelineMessage> {
  messages?: readonly TMessage[];
  empty?: ReactNode;
  runningLabel?: ReactNode;
  runtimeStatusLabel?: ReactNode;
  contextDetailsLabel?: ReactNode;
  fullOutputDetailsLabel?: ReactNode;
  roleLabel?: (role: AgentMessageRole) => string;
  messageTitle?: (message: TMessage) => ReactNode;
  messageMeta?: (message: TMessage) => ReactNode;
  messagePreview?: (message: TMessage) => ReactNode;
}

export type AgentWorkbenchTaskCheckpointState = "done" | "active" | "idle" | "blocked";

export interface AgentWorkbenchTaskCheckpoint {
  id: "input" | "artifact" | "human-action" | "evidence" | string;
  title: string;
  state: AgentWorkbenchTaskCheckpointState;
  count: number;
}

export interface AgentWorkbenchTaskView {
  taskTitle: string;
  statusLabel: string;
  sourceCount: number;
  toolCount: number;
  pendingActionCount: number;
  artifactCount: number;
  evidenceCount: number;
  taskCount: number;
  hasRuntimeFacts: boolean;
  shouldShowRuntimePanel: boolean;
  checkpoints: AgentWorkbenchTaskCheckpoint[];
}

export interface AgentWorkbenchTaskCardProps {
  view: AgentWorkbenchTaskView;
  labels?: Pick<
    AgentWorkbenchTaskSurfaceLabels,
    "sourceLabel" | "artifactLabel" | "taskLabel" | "statusLabel" | "checkpointLabel"
  >;
}

export interface AgentWorkbenchTaskSurfaceLabels {
  workspaceLabel?: ReactNode;
  taskLabel?: ReactNode;
  statusLabel?: ReactNode;
  sourceLabel?: ReactNode;
  artifactLabel?: ReactNode;
  checkpointLabel?: ReactNode;
  runtimeLabel?: ReactNode;
  messagePartsAriaLabel?: string;
  runtimeSummaryAriaLabel?: string;
  executionEventsAriaLabel?: string;
  actionRequiredAriaLabel?: string;
  artifactRefsAriaLabel?: string;
  evidenceRefsAriaLabel?: string;
  toolGroupAriaLabel?: string;
  toolCallsAriaLabel?: string;
  mcpSurfaceAriaLabel?: string;
  mcpServersAriaLabel?: string;
  mcpToolsAriaLabel?: string;
  roleLabel?: (role: AgentMessageRole) => string;
  messageTitle?: (message: AgentTimelineMessage) => ReactNode;
  messageMeta?: (message: AgentTimelineMessage) => ReactNode;
  messagePreview?: (message: AgentTimelineMessage) => ReactNode;
  actionButtonLabel?: (action: AgentRuntimeActionProjection) => ReactNode;
  eventStatusLabel?: (event: AgentRuntimeEventProjection) => ReactNode;
  toolFamilyLabel?: (family: AgentUiToolFamily) => ReactNode;
  toolStatusLabel?: (status: AgentRuntimeExecutionEventStatus) => ReactNode;
  toolTitle?: (tool: AgentUiToolCallView) => ReactNode;
  toolMeta?: (tool: AgentUiToolCallView) => ReactNode;
  toolPreview?: (tool: AgentUiToolCallView) => ReactNode;
  mcpOperationLabel?: (operation: AgentUiMcpOperationKind) => ReactNode;
  mcpServerTitle?: (server: AgentUiMcpServerView) => ReactNode;
  mcpServerMeta?: (server: AgentUiMcpServerView) => ReactNode;
  mcpToolTitle?: (tool: AgentUiMcpToolCallView) => ReactNode;
  mcpToolMeta?: (tool: AgentUiMcpToolCallView) => ReactNode;
  mcpToolPreview?: (tool: AgentUiMcpToolCallView) => ReactNode;
}

export interface AgentWorkbenchSurfaceProps<
  TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent,
  TMessage extends AgentTimelineMessage = AgentTimelineMessage,
> {
  view: AgentWorkbenchTaskView;
  state: AgentUiProjectionState;
  messages?: readonly TMessage[];
  className?: string;
  toolbar?: ReactNode;
  composer?: ReactNode;
  emptyMessages?: ReactNode;
  artifact?: ReactNode;
  runtimePanelOpen?: boolean;
  onResolveAction?: AgentRuntimeActionResolver<TEvent>;
  onSelectArtifactRef?: ArtifactRefListProps["onSelectRef"];
  onSelectEvidenceRef?: EvidenceRefListProps["onSelectRef"];
  onOpenSubagentThread?: SubagentsViewProps["onOpenThread"];
  labels?: AgentWorkbenchTaskSurfaceLabels;
}

export type AgentRuntimeActionResolver<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> = (
  event: TEvent,
  action: AgentRuntimeActionProjection,
) => void;

export interface RuntimeFactsPanelProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  readModel: AgentRuntimeReadModel;
  artifact?: ReactNode;
  onResolveAction?: AgentRuntimeActionResolver<TEvent>;
  labels?: Pick<
    AgentUiProjectionViewLabels<TEvent>,
    "runtimeSummaryAriaLabel" | "executionEventsAriaLabel" | "summaryLabels" | "actionButtonLabel" | "eventStatusLabel"
  >;
}

export interface RuntimeEventListProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  events: readonly AgentRuntimeEventProjection[];
  onResolveAction?: AgentRuntimeActionResolver<TEvent>;
  ariaLabel?: string;
  actionButtonLabel?: (action: AgentRuntimeActionProjection) => ReactNode;
  eventStatusLabel?: (event: AgentRuntimeEventProjection) => ReactNode;
  /** Render only the events near the viewport (off by default). */
  windowing?: ListWindowing;
}

export interface RuntimeFactsSummaryProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  readModel: AgentRuntimeReadModel;
  ariaLabel?: string;
  summaryLabels?: Partial<Record<"sources" | "actions" | "artifacts" | "evidence", ReactNode>>;
}

export interface RuntimeFactCardProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  event: AgentRuntimeEventProjection;
  onResolveAction?: AgentRuntimeActionResolver<TEvent>;
  actionButtonLabel?: (action: AgentRuntimeActionProjection) => ReactNode;
  eventStatusLabel?: (event: AgentRuntimeEventProjection) => ReactNode;
}

export interface ToolGroupProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  tools?: readonly AgentRuntimeEventProjection[];
  empty?: ReactNode;
  ariaLabel?: string;
  eventStatusLabel?: (event: AgentRuntimeEventProjection) => ReactNode;
}

export interface ToolCallCardProps {
  tool: AgentUiToolCallView;
  toolFamilyLabel?: (family: AgentUiToolFamily) => ReactNode;
  toolTitle?: (tool: AgentUiToolCallView) => ReactNode;
  toolMeta?: (tool: AgentUiToolCallView) => ReactNode;
  toolPreview?: (tool: AgentUiToolCallView) => ReactNode;
  statusLabel?: (status: AgentRuntimeExecutionEventStatus) => ReactNode;
}

export interface ToolCallSurfaceProps {
  surface?: AgentUiToolSurfaceModel;
  empty?: ReactNode;
  ariaLabel?: string;
  toolFamilyLabel?: ToolCallCardProps["toolFamilyLabel"];
  toolTitle?: ToolCallCardProps["toolTitle"];
  toolMeta?: ToolCallCardProps["toolMeta"];
  toolPreview?: ToolCallCardProps["toolPreview"];
  toolStatusLabel?: ToolCallCardProps["statusLabel"];
}

export interface McpServerListProps {
  servers?: readonly AgentUiMcpServerView[];
  empty?: ReactNode;
  ariaLabel?: string;
  serverTitle?: (server: AgentUiMcpServerView) => ReactNode;
  serverMeta?: (server: AgentUiMcpServerView) => ReactNode;
  statusLabel?: (status: AgentRuntimeExecutionEventStatus) => ReactNode;
}

export interface McpToolListProps {
  tools?: readonly AgentUiMcpToolCallView[];
  empty?: ReactNode;
  ariaLabel?: string;
  toolTitle?: (tool: AgentUiMcpToolCallView) => ReactNode;
  toolMeta?: (tool: AgentUiMcpToolCallView) => ReactNode;
  toolPreview?: (tool: AgentUiMcpToolCallView) => ReactNode;
  operationLabel?: (operation: AgentUiMcpOperationKind) => ReactNode;
  statusLabel?: (status: AgentRuntimeExecutionEventStatus) => ReactNode;
}

export interface McpSurfaceProps {
  surface?: AgentUiMcpSurfaceModel;
  empty?: ReactNode;
  ariaLabel?: string;
  serversAriaLabel?: string;
  toolsAriaLabel?: string;
  serverTitle?: McpServerListProps["serverTitle"];
  serverMeta?: McpServerListProps["serverMeta"];
  toolTitle?: McpToolListProps["toolTitle"];
  toolMeta?: McpToolListProps["toolMeta"];
  toolPreview?: McpToolListProps["toolPreview"];
  operationLabel?: McpToolListProps["operationLabel"];
  statusLabel?: McpToolListProps["statusLabel"];
}

export interface ActionRequiredListProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  actions?: readonly AgentRuntimeEventProjection[];
  empty?: ReactNode;
  onResolveAction?: AgentRuntimeActionResolver<TEvent>;
  ariaLabel?: string;
  actionButtonLabel?: (action: AgentRuntimeActionProjection) => ReactNode;
  eventStatusLabel?: (event: AgentRuntimeEventProjection) => ReactNode;
}

export interface UIMessagePartsViewProps {
  parts?: readonly UIMessagePart[];
  empty?: ReactNode;
  ariaLabel?: string;
  roleLabel?: (role: AgentMessageRole) => string;
  partTitle?: (part: UIMessagePart) => ReactNode;
  partMeta?: (part: UIMessagePart) => ReactNode;
  partPreview?: (part: UIMessagePart) => ReactNode;
  /** Render only the parts near the viewport (off by default). */
  windowing?: ListWindowing;
}

export interface ProcessTimelineViewProps {
  entries?: readonly ProcessTimelineEntry[];
  empty?: ReactNode;
  ariaLabel?: string;
  entryTitle?: (entry: ProcessTimelineEntry) => ReactNode;
  entryMeta?: (entry: ProcessTimelineEntry) => ReactNode;
  /** Render only the entries near the viewport (off by default). */
  windowing?: ListWindowing;
}

export interface ExecutionGraphViewProps {
  nodes?: readonly ExecutionGraphNode[];
  empty?: ReactNode;
  ariaLabel?: string;
  nodeTitle?: (node: ExecutionGraphNode) => ReactNode;
  nodeMeta?: (node: ExecutionGraphNode) => ReactNode;
}

export interface AgentUiRefListProps<TRef extends AgentUiRefView = AgentUiRefView> {
  refs?: readonly TRef[];
  empty?: ReactNode;
  ariaLabel?: string;
  className?: string;
  refKind?: string;
  refTitle?: (ref: TRef) => ReactNode;
  refMeta?: (ref: TRef) => ReactNode;
  refPreview?: (ref: TRef) => ReactNode;
  refActionLabel?: (ref: TRef) => ReactNode;
  onSelectRef?: (ref: TRef) => void;
}

export type ArtifactRefListProps = AgentUiRefListProps<AgentUiArtifactRefView>;

export type EvidenceRefListProps = AgentUiRefListProps<AgentUiEvidenceRefView>;

export interface AgentUiProjectionViewLabels<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  messagePartsAriaLabel?: string;
  processTimelineAriaLabel?: string;
  executionGraphAriaLabel?: string;
  artifactRefsAriaLabel?: string;
  evidenceRefsAriaLabel?: string;
  subagentsAriaLabel?: string;
  subagentThreadsAriaLabel?: string;
  subagentDelegationsAriaLabel?: string;
  subagentActivitiesAriaLabel?: string;
  runtimeSummaryAriaLabel?: string;
  executionEventsAriaLabel?: string;
  toolGroupAriaLabel?: string;
  toolCallsAriaLabel?: string;
  mcpSurfaceAriaLabel?: string;
  mcpServersAriaLabel?: string;
  mcpToolsAriaLabel?: string;
  actionRequiredAriaLabel?: string;
  summaryLabels?: RuntimeFactsSummaryProps<TEvent>["summaryLabels"];
  roleLabel?: UIMessagePartsViewProps["roleLabel"];
  messagePartTitle?: UIMessagePartsViewProps["partTitle"];
  messagePartMeta?: UIMessagePartsViewProps["partMeta"];
  messagePartPreview?: UIMessagePartsViewProps["partPreview"];
  timelineEntryTitle?: ProcessTimelineViewProps["entryTitle"];
  timelineEntryMeta?: ProcessTimelineViewProps["entryMeta"];
  graphNodeTitle?: ExecutionGraphViewProps["nodeTitle"];
  graphNodeMeta?: ExecutionGraphViewProps["nodeMeta"];
  artifactRefTitle?: ArtifactRefListProps["refTitle"];
  artifactRefMeta?: ArtifactRefListProps["refMeta"];
  artifactRefPreview?: ArtifactRefListProps["refPreview"];
  artifactRefActionLabel?: ArtifactRefListProps["refActionLabel"];
  evidenceRefTitle?: EvidenceRefListProps["refTitle"];
  evidenceRefMeta?: EvidenceRefListProps["refMeta"];
  evidenceRefPreview?: EvidenceRefListProps["refPreview"];
  evidenceRefActionLabel?: EvidenceRefListProps["refActionLabel"];
  subagentThreadTitle?: SubagentThreadListProps["threadTitle"];
  subagentThreadMeta?: SubagentThreadListProps["threadMeta"];
  subagentThreadSummary?: SubagentThreadListProps["threadSummary"];
  subagentDelegationTitle?: SubagentDelegationListProps["delegationTitle"];
  subagentActivityTitle?: SubagentActivityListProps["activityTitle"];
  subagentActivityMeta?: SubagentActivityListProps["activityMeta"];
  actionButtonLabel?: RuntimeFactCardProps<TEvent>["actionButtonLabel"];
  eventStatusLabel?: RuntimeFactCardProps<TEvent>["eventStatusLabel"];
  toolFamilyLabel?: (family: AgentUiToolFamily) => ReactNode;
  toolStatusLabel?: ToolCallSurfaceProps["toolStatusLabel"];
  toolTitle?: ToolCallSurfaceProps["toolTitle"];
  toolMeta?: ToolCallSurfaceProps["toolMeta"];
  toolPreview?: ToolCallSurfaceProps["toolPreview"];
  mcpOperationLabel?: McpToolListProps["operationLabel"];
  mcpServerTitle?: McpSurfaceProps["serverTitle"];
  mcpServerMeta?: McpSurfaceProps["serverMeta"];
  mcpToolTitle?: McpSurfaceProps["toolTitle"];
  mcpToolMeta?: McpSurfaceProps["toolMeta"];
  mcpToolPreview?: McpSurfaceProps["toolPreview"];
}

export interface AgentUiProjectionViewProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  state: AgentUiProjectionState;
  artifact?: ReactNode;
  emptyMessages?: ReactNode;
  labels?: AgentUiProjectionViewLabels<TEvent>;
  onResolveAction?: AgentRuntimeActionResolver<TEvent>;
  onSelectArtifactRef?: ArtifactRefListProps["onSelectRef"];
  onSelectEvidenceRef?: EvidenceRefListProps["onSelectRef"];
  onOpenSubagentThread?: SubagentsViewProps["onOpenThread"];
  /** Render only the visible part of the long lists (off by default). */
  windowing?: AgentUiProjectionViewWindowing;
}

export interface SubagentThreadListProps {
  threads?: readonly AgentUiSubagentThreadView[];
  empty?: ReactNode;
  ariaLabel?: string;
  threadTitle?: (thread: AgentUiSubagentThreadView) => ReactNode;
  threadMeta?: (thread: AgentUiSubagentThreadView) => ReactNode;
  threadSummary?: (thread: AgentUiSubagentThreadView) => ReactNode;
  threadActionLabel?: (thread: AgentUiSubagentThreadView) => ReactNode;
  onOpenThread?: (thread: AgentUiSubagentThreadView) => void;
}

export interface SubagentDelegationListProps {
  delegations?: readonly AgentUiSubagentDelegationView[];
  empty?: ReactNode;
  ariaLabel?: string;
  delegationTitle?: (delegation: AgentUiSubagentDelegationView) => ReactNode;
}

export interface SubagentActivityListProps {
  activities?: readonly AgentUiSubagentActivityView[];
  empty?: ReactNode;
  ariaLabel?: string;
  activityTitle?: (activity: AgentUiSubagentActivityView) => ReactNode;
  activityMeta?: (activity: AgentUiSubagentActivityView) => ReactNode;
}

export interface SubagentsViewProps<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent> {
  state?: AgentUiProjectionState;
  model?: AgentUiSubagentsModel;
  emptyThreads?: ReactNode;
  emptyDelegations?: ReactNode;
  emptyActivities?: ReactNode;
  onOpenThread?: (thread: AgentUiSubagentThreadView) => void;
  labels?: Pick<
    AgentUiProjectionViewLabels<TEvent>,
    | "subagentsAriaLabel"
    | "subagentThreadsAriaLabel"
    | "subagentDelegationsAriaLabel"
    | "subagentActivitiesAriaLabel"
    | "subagentThreadTitle"
    | "subagentThreadMeta"
    | "subagentThreadSummary"
    | "subagentDelegationTitle"
    | "subagentActivityTitle"
    | "subagentActivityMeta"
  >;
}

// --- views ----------------------------------------------------------------------------------------
// Each is a function component in front of a memoized one: a view renders again only when one of
// its props is a new object (pass label functions and handlers that keep their identity).

export declare function AgentTimeline<TMessage extends AgentTimelineMessage = AgentTimelineMessage>(
  props: AgentTimelineProps<TMessage>,
): ReactElement;
export declare function UIMessagePartsView(props: UIMessagePartsViewProps): ReactElement;
export declare function ProcessTimelineView(props: ProcessTimelineViewProps): ReactElement;
export declare function ExecutionGraphView(props: ExecutionGraphViewProps): ReactElement;
export declare function AgentUiRefList<TRef extends AgentUiRefView = AgentUiRefView>(props: AgentUiRefListProps<TRef>): ReactElement;
export declare function ArtifactRefList(props: ArtifactRefListProps): ReactElement;
export declare function EvidenceRefList(props: EvidenceRefListProps): ReactElement;
export declare function RuntimeFactsSummary<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: RuntimeFactsSummaryProps<TEvent>,
): ReactElement;
export declare function RuntimeFactCard<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: RuntimeFactCardProps<TEvent>,
): ReactElement;
export declare function ActionCard<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: RuntimeFactCardProps<TEvent>,
): ReactElement;
export declare function EvidenceCard<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: RuntimeFactCardProps<TEvent>,
): ReactElement;
export declare function ArtifactCard<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: RuntimeFactCardProps<TEvent>,
): ReactElement;
export declare function RuntimeEventList<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: RuntimeEventListProps<TEvent>,
): ReactElement;
export declare function ToolGroup<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: ToolGroupProps<TEvent>,
): ReactElement;
export declare function ActionRequiredList<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: ActionRequiredListProps<TEvent>,
): ReactElement;
export declare function RuntimeFactsPanel<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: RuntimeFactsPanelProps<TEvent>,
): ReactElement;
export declare function ToolCallCard(props: ToolCallCardProps): ReactElement;
export declare function ToolCallSurface(props: ToolCallSurfaceProps): ReactElement;
export declare function McpServerList(props: McpServerListProps): ReactElement;
export declare function McpToolList(props: McpToolListProps): ReactElement;
export declare function McpSurface(props: McpSurfaceProps): ReactElement;
export declare function SubagentThreadList(props: SubagentThreadListProps): ReactElement;
export declare function SubagentDelegationList(props: SubagentDelegationListProps): ReactElement;
export declare function SubagentActivityList(props: SubagentActivityListProps): ReactElement;
export declare function SubagentsView<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: SubagentsViewProps<TEvent>,
): ReactElement;
export declare function AgentUiProjectionView<TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent>(
  props: AgentUiProjectionViewProps<TEvent>,
): ReactElement;
export declare function AgentWorkbenchTaskCard(props: AgentWorkbenchTaskCardProps): ReactElement;
export declare function AgentWorkbenchSurface<
  TEvent extends AgentRuntimeExecutionEvent = AgentRuntimeExecutionEvent,
  TMessage extends AgentTimelineMessage = AgentTimelineMessage,
>(props: AgentWorkbenchSurfaceProps<TEvent, TMessage>): ReactElement;

// --- the projection hook --------------------------------------------------------------------------

export interface UseAgentUiProjectionOptions extends ProjectorOptions {
  /** What the projector starts from (`{executionEvents, sourceCount}`); read on the first render only. */
  initialInput?: AgentRuntimeProjectionInput;
  /**
   * When a changed state is handed to React: `"frame"` (default) at most once per animation frame,
   * however many events arrived; `"sync"` after every change.
   */
  schedule?: "frame" | "sync";
}

export interface AgentUiProjection {
  /** The state last handed to React; unchanged subtrees are the same objects as in the one before. */
  state: AgentUiProjectionState;
  /** Apply one event (a seen id is no change). The state follows at the next frame. */
  apply(event: AgentRuntimeExecutionEvent): ProjectorChange;
  /** Apply events in order, crossing into WebAssembly once. */
  applyMany(events: readonly AgentRuntimeExecutionEvent[]): ProjectorChange;
  /** Replace everything with the projection of `input` (for example a session loaded from storage). */
  hydrate(input?: AgentRuntimeProjectionInput): ProjectorChange;
  /** Forget every event. */
  reset(): void;
  /** Hand the latest state to React now instead of at the next frame. */
  flush(): void;
}

/**
 * A projector owned by the calling component: made on its first render, freed when it unmounts
 * (StrictMode's simulated unmount and remount keep it). The functions returned are the same on
 * every render.
 */
export declare function useAgentUiProjection(options?: UseAgentUiProjectionOptions): AgentUiProjection;

// App Server facts (appServerFacts): what a host fetched from the App Server (agentSession/read,
// agentSession/event notifications, evidence/export) as runtime execution events.
import type { AgentRuntimeExecutionEvent, AgentUiProjectionState } from "./glue/agent_runtime_projection.js";

export interface AppServerAgentSessionFact {
  sessionId: string;
  threadId: string;
  appId?: string;
  workspaceId?: string;
  status?: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface AppServerAgentTurnFact {
  turnId: string;
  sessionId?: string;
  threadId?: string;
  status?: string;
  startedAt?: string;
  completedAt?: string;
}

/** The `params.event` of an `agentSession/event` notification. */
export interface AppServerAgentEventFact {
  eventId: string;
  sequence?: number;
  sessionId?: string;
  threadId?: string;
  turnId?: string;
  type: string;
  timestamp?: string;
  payload?: unknown;
}

export interface AppServerArtifactSummaryFact {
  artifactRef?: string;
  eventId?: string;
  sequence?: number;
  turnId?: string;
  artifactId?: string;
  path?: string;
  title?: string;
  kind?: string;
  status?: string;
  contentStatus?: string;
  metadata?: unknown;
}

export interface AppServerEvidencePackSummaryFact {
  packRelativeRoot?: string;
  packAbsoluteRoot?: string;
  exportedAt?: string;
  threadStatus?: string;
  latestTurnStatus?: string;
  turnCount?: number;
  itemCount?: number;
  pendingRequestCount?: number;
  queuedTurnCount?: number;
  recentArtifactCount?: number;
  knownGaps?: string[];
  artifacts?: AppServerEvidencePackArtifactFact[];
}

export interface AppServerEvidencePackArtifactFact {
  kind?: string;
  title?: string;
  relativePath?: string;
  absolutePath?: string;
  bytes?: number;
}

/** An `agentSession/read` result. */
export interface AppServerSessionReadFacts {
  session: AppServerAgentSessionFact;
  turns?: AppServerAgentTurnFact[];
  detail?: unknown;
}

/** An `evidence/export` result. */
export interface AppServerEvidenceExportFacts {
  session: AppServerAgentSessionFact;
  turns?: AppServerAgentTurnFact[];
  events?: AppServerAgentEventFact[];
  artifacts?: AppServerArtifactSummaryFact[];
  exportedAt?: string;
  evidencePack?: AppServerEvidencePackSummaryFact;
}

export interface AppServerFactsReplayInput {
  readModel?: AppServerSessionReadFacts;
  events?: AppServerAgentEventFact[];
  evidenceExport?: AppServerEvidenceExportFacts;
  sourceCount?: number;
}

export interface AppServerFactsProjectionResult {
  events: AgentRuntimeExecutionEvent[];
  state: AgentUiProjectionState;
  diagnostics: string[];
}

/** One execution event per notification event (retired subagent status types dropped), deduplicated by id. */
export declare function projectAppServerEventsToExecutionEvents(
  events: readonly AppServerAgentEventFact[] | undefined,
): AgentRuntimeExecutionEvent[];
/** The session snapshot and one lifecycle event per turn. */
export declare function projectAppServerSessionReadToExecutionEvents(
  readModel: AppServerSessionReadFacts,
): AgentRuntimeExecutionEvent[];
/** The exported events, the session read, the artifacts and the evidence pack. */
export declare function projectAppServerEvidenceExportToExecutionEvents(
  exportFacts: AppServerEvidenceExportFacts,
): AgentRuntimeExecutionEvent[];
/** All facts as ordered execution events and the state they project to. */
export declare function replayAppServerFacts(input: AppServerFactsReplayInput): AppServerFactsProjectionResult;

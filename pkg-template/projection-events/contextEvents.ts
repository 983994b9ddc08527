// Context events: the context-assembly trace of a turn, and a turn's context (output schema,
// context summary) with its approval and sandbox policies.
import type { AgentUiProjectionContext, AgentUiProjectionEvent, AgentUiProjectionSourceType } from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { completeProjectionEvent } from "./eventFields.js";
import { definedString, normalizeProjectionIdList, truncateText } from "./normalization.js";

export interface AgentUiContextTraceStepInput {
  stage: string;
  detail: string;
}

export interface AgentUiContextTraceProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  steps: readonly AgentUiContextTraceStepInput[];
}

export interface AgentUiTurnContextOutputSchemaInput {
  source?: string | null;
  strategy?: string | null;
  providerName?: string | null;
  provider_name?: string | null;
  modelName?: string | null;
  model_name?: string | null;
}

export interface AgentUiTurnContextRetrievalRefInput {
  source_id?: string | null;
  sourceId?: string | null;
  [key: string]: unknown;
}

export interface AgentUiTurnContextTeamMemoryRefInput {
  key?: string | null;
  [key: string]: unknown;
}

export interface AgentUiTurnContextSummaryInput {
  memory_budget?: unknown;
  memoryBudget?: unknown;
  missing_context?: readonly unknown[] | null;
  missingContext?: readonly unknown[] | null;
  retrieval_refs?: readonly AgentUiTurnContextRetrievalRefInput[] | null;
  retrievalRefs?: readonly AgentUiTurnContextRetrievalRefInput[] | null;
  team_memory_refs?: readonly AgentUiTurnContextTeamMemoryRefInput[] | null;
  teamMemoryRefs?: readonly AgentUiTurnContextTeamMemoryRefInput[] | null;
}

export interface AgentUiTurnContextProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  sessionId?: string | null;
  threadId?: string | null;
  turnId?: string | null;
  outputSchemaRuntime?: AgentUiTurnContextOutputSchemaInput | null;
  contextSummary?: AgentUiTurnContextSummaryInput | null;
  approvalPolicy?: string | null;
  sandboxPolicy?: string | null;
}

/** A `context.changed` event for a context trace: how many steps ran, and the last one's stage and detail preview. */
export function buildAgentUiContextTraceEvent(
  input: AgentUiContextTraceProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const steps = input.steps;
  const last = steps[steps.length - 1];
  const base = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "context_trace" }, context);
  return completeProjectionEvent(base, {
    type: "context.changed",
    owner: "context",
    scope: "turn",
    phase: "preparing",
    surface: "runtime_status",
    persistence: "snapshot",
    payload: {
      stepCount: steps.length,
      latestStage: last?.stage,
      latestDetailPreview: truncateText(last?.detail),
    },
  });
}

/** A turn context's events: its `context.changed` event, then its `permission.changed` event when it names a policy. */
export function buildAgentUiTurnContextEvents(
  input: AgentUiTurnContextProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent[] {
  const changed = buildAgentUiTurnContextChangedEvent(input, context);
  const permission = buildAgentUiTurnContextPermissionEvent(input, context);
  return permission ? [changed, permission] : [changed];
}

/** The ids of a turn event: the input's own (trimmed) over the context's. */
function turnScopedBase(input: AgentUiTurnContextProjectionInput, context: AgentUiProjectionContext) {
  const base = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "turn_context" }, context);
  base.sessionId = definedString(input.sessionId) ?? base.sessionId;
  base.threadId = definedString(input.threadId) ?? base.threadId;
  base.turnId = definedString(input.turnId) ?? base.turnId;
  return base;
}

/**
 * The `context.changed` event of a turn context: the output schema runtime's facts, the context
 * summary (memory budget, missing context, retrieval and team-memory refs, snake_case keys first),
 * and the refs' source ids and team-memory keys.
 */
export function buildAgentUiTurnContextChangedEvent(
  input: AgentUiTurnContextProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const base = turnScopedBase(input, context);
  const summary = input.contextSummary ?? null;
  const schema = input.outputSchemaRuntime ?? null;
  const retrievalRefs = summary?.retrieval_refs ?? summary?.retrievalRefs ?? [];
  const teamMemoryRefs = summary?.team_memory_refs ?? summary?.teamMemoryRefs ?? [];
  return completeProjectionEvent(base, {
    type: "context.changed",
    owner: "context",
    scope: "turn",
    phase: "preparing",
    surface: "runtime_status",
    persistence: "snapshot",
    payload: {
      outputSchemaAvailable: Boolean(schema),
      outputSchemaSource: schema?.source,
      outputSchemaStrategy: schema?.strategy,
      providerName: schema?.providerName ?? schema?.provider_name,
      modelName: schema?.modelName ?? schema?.model_name,
      contextSummaryAvailable: Boolean(summary),
      memoryBudget: summary?.memory_budget ?? summary?.memoryBudget ?? null,
      missingContext: summary?.missing_context ?? summary?.missingContext ?? [],
      retrievalRefs,
      teamMemoryRefs,
    },
    refs: {
      contextSourceIds: normalizeProjectionIdList(
        retrievalRefs.map((ref) => ref.source_id ?? ref.sourceId),
      ),
      teamMemoryKeys: normalizeProjectionIdList(teamMemoryRefs.map((ref) => ref.key)),
    },
  });
}

/** The `permission.changed` event of a turn context's approval and sandbox policies; `null` when it names neither. */
export function buildAgentUiTurnContextPermissionEvent(
  input: AgentUiTurnContextProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent | null {
  const approvalPolicy = definedString(input.approvalPolicy);
  const sandboxPolicy = definedString(input.sandboxPolicy);
  if (!approvalPolicy && !sandboxPolicy) return null;
  return completeProjectionEvent(turnScopedBase(input, context), {
    type: "permission.changed",
    owner: "policy",
    scope: "turn",
    phase: "preparing",
    surface: "runtime_status",
    persistence: "snapshot",
    payload: {
      approvalPolicy: approvalPolicy ?? null,
      sandboxPolicy: sandboxPolicy ?? null,
      sourceEvent: "turn_context",
    },
  });
}

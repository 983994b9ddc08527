// Runtime facts stamped on projection events: which kind of runtime entity an event belongs to,
// runtime status phases, and the team concurrency facts of a provider's metadata.
import type { AgentUiPhase, AgentUiProjectionEvent, AgentUiRuntimeEntity, AgentUiRuntimeStatus } from "./contracts.js";
import { definedString } from "./normalization.js";

export type AgentRuntimeStatusPhase = "context" | "failed" | "permission_review" | "preparing" | "routing" | (string & {});

export interface AgentUiRuntimeEntityInferenceInput {
  runtimeEntity?: AgentUiRuntimeEntity | string | null;
  sourceType?: string | null;
  itemType?: string | null;
  runId?: string | null;
}

export interface AgentUiTeamRuntimeMetadata {
  team_phase?: string;
  team_parallel_budget?: number;
  team_active_count?: number;
  team_queued_count?: number;
  concurrency_phase?: string;
  concurrency_scope?: string;
  concurrency_active_count?: number;
  concurrency_queued_count?: number;
  concurrency_budget?: number;
  provider_concurrency_group?: string;
  provider_parallel_budget?: number;
  queue_reason?: string;
  retryable_overload?: boolean;
}

export type AgentUiTeamRuntimeFacts = Pick<
  AgentUiProjectionEvent,
  | "teamPhase"
  | "teamParallelBudget"
  | "teamActiveCount"
  | "teamQueuedCount"
  | "queuedTurnCount"
  | "providerConcurrencyGroup"
  | "providerParallelBudget"
  | "queueReason"
  | "retryableOverload"
>;

const RUNTIME_ENTITIES: ReadonlySet<string> = new Set<AgentUiRuntimeEntity>([
  "agent_turn",
  "subagent_turn",
  "automation_job",
  "external_task",
  "work_item",
  "unknown",
]);

const ITEM_SOURCE_TYPES: ReadonlySet<unknown> = new Set(["item_started", "item_updated", "item_completed"]);

/** `value` when it names a runtime entity. */
export function normalizeRuntimeEntity(value: AgentUiRuntimeEntity | string | null | undefined): AgentUiRuntimeEntity | undefined {
  return typeof value === "string" && RUNTIME_ENTITIES.has(value) ? (value as AgentUiRuntimeEntity) : undefined;
}

/** The explicit entity when it is a known one; a subagent activity item is a subagent turn; else an agent turn. */
export function inferAgentUiRuntimeEntity(input: AgentUiRuntimeEntityInferenceInput): AgentUiRuntimeEntity {
  const explicit = normalizeRuntimeEntity(input.runtimeEntity);
  if (explicit) return explicit;
  if (input.itemType === "subagent_activity" && ITEM_SOURCE_TYPES.has(input.sourceType)) return "subagent_turn";
  return "agent_turn";
}

/** The runtime status a runtime-status phase stands for. */
export function normalizeRuntimeStatusFromRuntimePhase(phase: AgentRuntimeStatusPhase): AgentUiRuntimeStatus {
  if (phase === "permission_review") return "waiting";
  if (phase === "failed") return "failed";
  return "preparing";
}

/** The projection phase a runtime-status phase stands for. */
export function normalizeRuntimePhaseFromRuntimeStatusPhase(phase: AgentRuntimeStatusPhase): AgentUiPhase {
  if (phase === "routing") return "routing";
  if (phase === "permission_review") return "waiting";
  if (phase === "failed") return "failed";
  return "preparing";
}

/** The team concurrency facts of `metadata` (team_* keys first, then concurrency_* ones). */
export function buildTeamRuntimeFacts(metadata: AgentUiTeamRuntimeMetadata | undefined): AgentUiTeamRuntimeFacts {
  const queued = metadata?.team_queued_count ?? metadata?.concurrency_queued_count;
  return {
    teamPhase: definedString(metadata?.team_phase ?? metadata?.concurrency_phase),
    teamParallelBudget: metadata?.team_parallel_budget ?? metadata?.concurrency_budget,
    teamActiveCount: metadata?.team_active_count ?? metadata?.concurrency_active_count,
    teamQueuedCount: queued,
    queuedTurnCount: queued,
    providerConcurrencyGroup: definedString(metadata?.provider_concurrency_group),
    providerParallelBudget: metadata?.provider_parallel_budget,
    queueReason: definedString(metadata?.queue_reason),
    retryableOverload: metadata?.retryable_overload,
  };
}

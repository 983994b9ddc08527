// Lifecycle projection events: a thread opening, a run starting, finishing, failing or being
// canceled, runtime status updates, model changes and the resolved task profile.
import type { AgentUiProjectionContext, AgentUiProjectionEvent, AgentUiProjectionSourceType } from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { compactProjectionFields, definedString, metadataKeys, truncateText } from "./normalization.js";
import {
  buildTeamRuntimeFacts,
  normalizeRuntimePhaseFromRuntimeStatusPhase,
  normalizeRuntimeStatusFromRuntimePhase,
  type AgentUiTeamRuntimeMetadata,
} from "./runtimeFacts.js";

export interface AgentUiRunStartedProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  threadId?: string | null;
  turnId?: string | null;
  status?: string | null;
  promptText?: string | null;
}

export interface AgentUiThreadStartedProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  threadId?: string | null;
}

export interface AgentUiRunFinishedProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
}

export interface AgentUiRunFailedProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  errorMessage?: string | null;
}

export interface AgentUiRunCanceledProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
}

export interface AgentUiRuntimeStatusProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  phase: "preparing" | "routing" | "context" | "permission_review" | "failed" | string;
  title?: string | null;
  detail?: string | null;
  checkpoints?: readonly unknown[] | null;
  metadata?: AgentUiTeamRuntimeMetadata | null;
}

export interface AgentUiModelChangeProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  model?: string | null;
  mode?: string | null;
}

export interface AgentUiTaskProfileProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  kind?: string | null;
  source?: string | null;
  traits?: readonly string[] | null;
  modalityContractKey?: string | null;
  routingSlot?: string | null;
  executionProfileKey?: string | null;
  executorAdapterKey?: string | null;
  executorKind?: string | null;
  executorBindingKey?: string | null;
  permissionProfileKeys?: readonly string[] | null;
  userLockPolicy?: string | null;
  serviceModelSlot?: string | null;
  sceneKind?: string | null;
  sceneSkillId?: string | null;
  entrySource?: string | null;
}

// Each builder stamps its fields onto the fresh envelope `buildAgentUiProjectionBase` returns, in
// the order a reader sees them (envelope first). Building the event as `{ ...base, more }` would
// cost far more: V8 (Node 20) gives each object made that way a hidden class of its own.

/** `session.opened` for a thread: the input's thread id wins over the context's. */
export function buildAgentUiThreadStartedEvent(
  input: AgentUiThreadStartedProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "thread_started" }, context) as AgentUiProjectionEvent;
  event.type = "session.opened";
  event.threadId = definedString(input.threadId ?? undefined) ?? event.threadId;
  event.owner = "session";
  event.scope = "thread";
  event.phase = "accepted";
  event.surface = "session_tabs";
  event.persistence = "snapshot";
  return event;
}

/** `run.started` for an accepted turn, with its status and the prompt's length (not its text). */
export function buildAgentUiRunStartedEvent(
  input: AgentUiRunStartedProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "turn_started" }, context) as AgentUiProjectionEvent;
  event.type = "run.started";
  event.threadId = definedString(input.threadId ?? undefined) ?? event.threadId;
  event.turnId = definedString(input.turnId ?? undefined) ?? event.turnId;
  event.owner = "runtime";
  event.scope = "turn";
  event.phase = "accepted";
  event.surface = "runtime_status";
  event.persistence = "snapshot";
  event.payload = {
    status: definedString(input.status ?? undefined),
    promptLength: input.promptText?.length ?? 0,
  };
  return event;
}

/** `run.finished`: the run completed. */
export function buildAgentUiRunFinishedEvent(
  input: AgentUiRunFinishedProjectionInput = {},
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "turn_completed" }, context) as AgentUiProjectionEvent;
  event.type = "run.finished";
  stampRunEnd(event, "completed");
  return event;
}

/** `run.failed`, with a preview of the error message. */
export function buildAgentUiRunFailedEvent(
  input: AgentUiRunFailedProjectionInput = {},
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "turn_failed" }, context) as AgentUiProjectionEvent;
  event.type = "run.failed";
  stampRunEnd(event, "failed");
  event.payload = { errorPreview: truncateText(input.errorMessage) };
  return event;
}

/** `run.canceled`: the run was cancelled. */
export function buildAgentUiRunCanceledEvent(
  input: AgentUiRunCanceledProjectionInput = {},
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "turn_canceled" }, context) as AgentUiProjectionEvent;
  event.type = "run.canceled";
  stampRunEnd(event, "cancelled");
  return event;
}

/** The fields a run's end shares: owned by the runtime, run scope, archived on the status surface. */
function stampRunEnd(event: AgentUiProjectionEvent, phase: "completed" | "failed" | "cancelled"): void {
  event.owner = "runtime";
  event.scope = "run";
  event.phase = phase;
  event.surface = "runtime_status";
  event.persistence = "archive";
}

/**
 * `run.status` for a runtime status phase: the phase and runtime status it stands for, the team
 * concurrency facts present in the metadata (on the event and in its payload), and a payload
 * summing up the title, detail, checkpoints and metadata keys.
 */
export function buildAgentUiRuntimeStatusEvent(
  input: AgentUiRuntimeStatusProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "runtime_status" }, context) as AgentUiProjectionEvent;
  const teamFacts = compactProjectionFields(buildTeamRuntimeFacts(input.metadata ?? undefined));
  const status = normalizeRuntimeStatusFromRuntimePhase(input.phase);
  event.type = "run.status";
  event.owner = "runtime";
  event.scope = "run";
  event.phase = normalizeRuntimePhaseFromRuntimeStatusPhase(input.phase);
  event.surface = "runtime_status";
  event.persistence = "ephemeral_live";
  event.runtimeStatus = status;
  event.latestTurnStatus = status;
  Object.assign(event, teamFacts);
  event.payload = Object.assign(
    {
      runtimeEntity: event.runtimeEntity,
      title: definedString(input.title ?? undefined),
      detailPreview: truncateText(input.detail),
      sourcePhase: input.phase,
      checkpointCount: input.checkpoints?.length ?? 0,
      metadataKeys: metadataKeys(input.metadata),
    },
    teamFacts,
  );
  return event;
}

/** `run.status` in the routing phase for a model or mode change. */
export function buildAgentUiModelChangeEvent(
  input: AgentUiModelChangeProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "model_change" }, context) as AgentUiProjectionEvent;
  event.type = "run.status";
  event.owner = "runtime";
  event.scope = "run";
  event.phase = "routing";
  event.surface = "runtime_status";
  event.persistence = "snapshot";
  event.payload = {
    model: definedString(input.model ?? undefined),
    mode: definedString(input.mode ?? undefined),
  };
  return event;
}

/**
 * `task.changed` for the task profile routing resolved: its non-blank keys trimmed (blank ones
 * left out), the trait and permission profile lists as given (`[]` when absent).
 */
export function buildAgentUiTaskProfileResolvedEvent(
  input: AgentUiTaskProfileProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "task_profile_resolved" }, context) as AgentUiProjectionEvent;
  const payload: Record<string, unknown> = {};
  putTrimmed(payload, "kind", input.kind);
  putTrimmed(payload, "source", input.source);
  payload.traits = input.traits ?? [];
  putTrimmed(payload, "modalityContractKey", input.modalityContractKey);
  putTrimmed(payload, "routingSlot", input.routingSlot);
  putTrimmed(payload, "executionProfileKey", input.executionProfileKey);
  putTrimmed(payload, "executorAdapterKey", input.executorAdapterKey);
  putTrimmed(payload, "executorKind", input.executorKind);
  putTrimmed(payload, "executorBindingKey", input.executorBindingKey);
  payload.permissionProfileKeys = input.permissionProfileKeys ?? [];
  putTrimmed(payload, "userLockPolicy", input.userLockPolicy);
  putTrimmed(payload, "serviceModelSlot", input.serviceModelSlot);
  putTrimmed(payload, "sceneKind", input.sceneKind);
  putTrimmed(payload, "sceneSkillId", input.sceneSkillId);
  putTrimmed(payload, "entrySource", input.entrySource);
  event.type = "task.changed";
  event.owner = "task";
  event.scope = "run";
  event.phase = "routing";
  event.surface = "task_capsule";
  event.persistence = "snapshot";
  event.payload = payload;
  return event;
}

/** Sets `record[key]` to `value` trimmed, unless nothing is left of it. */
function putTrimmed(record: Record<string, unknown>, key: string, value: string | null | undefined): void {
  const text = definedString(value ?? undefined);
  if (text !== undefined) record[key] = text;
}

// Human-in-the-loop action events: an action the runtime waits on (a question, an elicitation, a
// tool confirmation) and its resolution, with the control a host offers for it.
import type {
  AgentUiControl,
  AgentUiProjectionContext,
  AgentUiProjectionEvent,
  AgentUiProjectionSourceType,
} from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { definedString, metadataKeys, readBooleanField, readRecord, readStringField, truncateText } from "./normalization.js";

export interface AgentUiActionProjectionScope {
  sessionId?: string | null;
  threadId?: string | null;
  turnId?: string | null;
}

export interface AgentUiActionRequiredProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  requestId: string;
  actionType: string;
  scope?: AgentUiActionProjectionScope;
  toolName?: string | null;
  prompt?: string | null;
  questions?: readonly unknown[] | null;
  requestedSchema?: unknown;
}

export interface AgentUiActionResolvedProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  requestId: string;
  actionType: string;
  scope?: AgentUiActionProjectionScope;
  approved?: boolean;
  feedback?: string | null;
  permissionMode?: string | null;
  data?: Record<string, unknown> | null;
}

const DECISION_KIND_KEYS = ["decision_kind", "decisionKind"];
const TARGET_SESSION_ID_KEYS = ["target_session_id", "targetSessionId"];
const PLAN_FILE_KEYS = ["plan_file", "planFile"];
const PLAN_ID_KEYS = ["plan_id", "planId"];
const AWAITING_LEADER_KEYS = ["awaiting_leader_approval", "awaitingLeaderApproval"];

/** The control for a pending action: answering a question or elicitation, approving a tool call. */
export function resolveAgentUiActionRequiredControl(actionType: string): AgentUiControl | undefined {
  if (actionType === "ask_user" || actionType === "elicitation") return "answer";
  if (actionType === "tool_confirmation") return "approve";
  return undefined;
}

/** The control a resolved action used: an answer, or an approval (a rejection when `approved` is `false`). */
export function resolveAgentUiActionResolvedControl(
  actionType: string,
  approved: boolean | undefined,
): AgentUiControl | undefined {
  if (actionType === "ask_user" || actionType === "elicitation") return "answer";
  if (actionType === "plan_approval" || actionType === "tool_confirmation") return approved === false ? "reject" : "approve";
  return undefined;
}

// Each builder stamps its fields onto the fresh envelope `buildAgentUiProjectionBase` returns (see
// lifecycle.ts for why not `{ ...base, more }`).

/**
 * `action.required` for a request the runtime waits on (the request id is the action id). The
 * scope's non-blank ids win over the context's.
 */
export function buildAgentUiActionRequiredEvent(
  input: AgentUiActionRequiredProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "action_required" }, context) as AgentUiProjectionEvent;
  applyActionScope(event, input.scope);
  event.type = "action.required";
  event.actionId = input.requestId;
  event.owner = "action";
  event.scope = "action_request";
  event.phase = "waiting";
  event.surface = "hitl";
  event.persistence = "snapshot";
  event.control = resolveAgentUiActionRequiredControl(input.actionType);
  event.payload = {
    actionType: input.actionType,
    toolName: definedString(input.toolName ?? undefined),
    promptPreview: truncateText(input.prompt),
    questionCount: input.questions?.length ?? 0,
    hasRequestedSchema: Boolean(input.requestedSchema),
  };
  return event;
}

/**
 * `action.resolved` for a request's answer: the decision, feedback preview and permission mode,
 * and what the response data says about a plan (its decision kind, target session, plan file and
 * id, whether the leader's approval is awaited) and which keys it has.
 */
export function buildAgentUiActionResolvedEvent(
  input: AgentUiActionResolvedProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "action_resolved" }, context) as AgentUiProjectionEvent;
  const data = readRecord(input.data);
  applyActionScope(event, input.scope);
  event.type = "action.resolved";
  event.actionId = input.requestId;
  event.owner = "action";
  event.scope = "action_request";
  event.phase = "completed";
  event.surface = "hitl";
  event.persistence = "snapshot";
  event.control = resolveAgentUiActionResolvedControl(input.actionType, input.approved);
  event.payload = {
    actionType: input.actionType,
    decisionKind: readStringField(data, DECISION_KIND_KEYS),
    approved: input.approved,
    feedbackPreview: truncateText(input.feedback),
    permissionMode: definedString(input.permissionMode ?? undefined),
    targetSessionId: readStringField(data, TARGET_SESSION_ID_KEYS),
    planFile: readStringField(data, PLAN_FILE_KEYS),
    planId: readStringField(data, PLAN_ID_KEYS),
    awaitingLeaderApproval: readBooleanField(data, AWAITING_LEADER_KEYS),
    responseMetadataKeys: metadataKeys(input.data),
  };
  return event;
}

/** The action's own session, thread and turn ids (non-blank ones, trimmed) over the envelope's. */
function applyActionScope(event: AgentUiProjectionEvent, scope: AgentUiActionProjectionScope | undefined): void {
  event.sessionId = definedString(scope?.sessionId ?? undefined) ?? event.sessionId;
  event.threadId = definedString(scope?.threadId ?? undefined) ?? event.threadId;
  event.turnId = definedString(scope?.turnId ?? undefined) ?? event.turnId;
}

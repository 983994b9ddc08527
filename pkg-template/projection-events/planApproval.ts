// Plan approval as human-in-the-loop actions: a teammate's request for approval of its plan, and
// the leader's response, read from a tool result's metadata and projected as action events.
import type { AgentUiPersistence, AgentUiProjectionEvent } from "./contracts.js";
import { readBooleanField, readRecord, readStringField, truncateText } from "./normalization.js";

export type AgentUiPlanApprovalProjectionBase = Pick<
  AgentUiProjectionEvent,
  "sourceType" | "timestamp" | "sessionId" | "threadId" | "runId" | "turnId" | "messageId" | "taskId" | "partId" | "runtimeEntity"
>;

export interface AgentUiPlanApprovalProjection {
  requestId: string;
  from?: string;
  planFilePath?: string;
  planContent?: string;
  timestamp?: string;
  deliveryTarget?: string;
  deliverySubmissionId?: string;
  awaitingLeaderApproval?: boolean;
}

export interface AgentUiPlanApprovalResponseProjection {
  requestId: string;
  approved?: boolean;
  feedback?: string;
  permissionMode?: string;
  timestamp?: string;
  targetSessionId?: string;
  deliveryTarget?: string;
  deliverySubmissionId?: string;
}

const hasOwn = Object.prototype.hasOwnProperty;

const REQUEST_ID_KEYS = ["request_id", "requestId", "id"];
const PENDING_REQUEST_ID_KEYS = ["pending_request_id", "pendingRequestId"];
const SENDER_KEYS = ["from", "sender", "agent"];
const PLAN_FILE_PATH_KEYS = ["plan_file_path", "planFilePath"];
const PLAN_CONTENT_KEYS = ["plan_content", "planContent"];
const TIMESTAMP_KEYS = ["timestamp", "created_at"];
const TARGET_KEYS = ["target"];
const SUBMISSION_ID_KEYS = ["submission_id", "submissionId"];
const AWAITING_LEADER_KEYS = ["awaiting_leader_approval"];
const SEND_MESSAGE_REQUEST_ID_KEYS = ["request_id", "requestId"];
const APPROVED_KEYS = ["approved", "approve"];
const FEEDBACK_KEYS = ["feedback", "reason"];
const PERMISSION_MODE_KEYS = ["permission_mode", "permissionMode"];
const TARGET_SESSION_ID_KEYS = ["target_session_id", "targetSessionId"];
const DELIVERY_TARGET_KEYS = ["delivery_target", "deliveryTarget"];
const DELIVERY_SUBMISSION_ID_KEYS = ["delivery_submission_id", "deliverySubmissionId", "submission_id", "submissionId"];

/**
 * The plan approval request in `metadata.plan_approval_request` (with its delivery from
 * `metadata.plan_approval_delivery`), or `null` when there is none or it has no request id.
 * Awaiting the leader's approval unless the metadata says otherwise.
 */
export function extractAgentUiPlanApprovalProjection(metadata: unknown): AgentUiPlanApprovalProjection | null {
  const record = readRecord(metadata);
  const request = readRecord(record?.plan_approval_request);
  if (!request) return null;
  const requestId = readStringField(request, REQUEST_ID_KEYS) ?? readStringField(record, PENDING_REQUEST_ID_KEYS);
  if (!requestId) return null;
  const delivery = readRecord(record?.plan_approval_delivery);
  return {
    requestId,
    from: readStringField(request, SENDER_KEYS),
    planFilePath: readStringField(request, PLAN_FILE_PATH_KEYS),
    planContent: readStringField(request, PLAN_CONTENT_KEYS),
    timestamp: readStringField(request, TIMESTAMP_KEYS),
    deliveryTarget: readStringField(delivery, TARGET_KEYS),
    deliverySubmissionId: readStringField(delivery, SUBMISSION_ID_KEYS),
    awaitingLeaderApproval: readBooleanField(record, AWAITING_LEADER_KEYS) ?? true,
  };
}

/**
 * The plan approval response found in `metadata.plan_approval_response`, else in
 * `metadata.send_message.plan_approval_response`, else in
 * `metadata.plan_approval_delivery.extra.plan_approval_response`; `null` when there is none or no
 * request id is found for it.
 */
export function extractAgentUiPlanApprovalResponseProjection(metadata: unknown): AgentUiPlanApprovalResponseProjection | null {
  const record = readRecord(metadata);
  const sendMessage = readRecord(record?.send_message);
  const delivery = readRecord(record?.plan_approval_delivery);
  const response =
    readRecord(record?.plan_approval_response) ??
    readRecord(sendMessage?.plan_approval_response) ??
    readRecord(readRecord(delivery?.extra)?.plan_approval_response);
  if (!response) return null;
  const requestId = readStringField(response, REQUEST_ID_KEYS) ?? readStringField(sendMessage, SEND_MESSAGE_REQUEST_ID_KEYS);
  if (!requestId) return null;
  return {
    requestId,
    approved: readBooleanField(response, APPROVED_KEYS),
    feedback: readStringField(response, FEEDBACK_KEYS),
    permissionMode: readStringField(response, PERMISSION_MODE_KEYS),
    timestamp: readStringField(response, TIMESTAMP_KEYS),
    targetSessionId: readStringField(response, TARGET_SESSION_ID_KEYS),
    deliveryTarget: readStringField(response, DELIVERY_TARGET_KEYS) ?? readStringField(sendMessage, TARGET_KEYS),
    deliverySubmissionId:
      readStringField(response, DELIVERY_SUBMISSION_ID_KEYS) ?? readStringField(delivery, SUBMISSION_ID_KEYS),
  };
}

/** `action.required` asking for approval of a plan (the request id is the action id). */
export function buildAgentUiPlanApprovalRequiredEvent(params: {
  base: AgentUiPlanApprovalProjectionBase;
  projection: AgentUiPlanApprovalProjection;
  persistence: AgentUiPersistence;
  toolCallId?: string;
}): AgentUiProjectionEvent {
  // Destructured from `params` in the body: a missing argument fails with the reference's message.
  const { base, projection, persistence, toolCallId } = params;
  const event = copyBase(base);
  event.type = "action.required";
  event.actionId = projection.requestId;
  if (toolCallId) event.toolCallId = toolCallId;
  event.owner = "action";
  event.scope = "action_request";
  event.phase = "waiting";
  event.surface = "hitl";
  event.persistence = persistence;
  event.control = "approve";
  event.payload = {
    actionType: "plan_approval",
    decisionKind: "plan_approval_request",
    from: projection.from,
    planFilePath: projection.planFilePath,
    planContentPreview: truncateText(projection.planContent),
    planContentLength: projection.planContent?.length ?? 0,
    timestamp: projection.timestamp,
    deliveryTarget: projection.deliveryTarget,
    deliverySubmissionId: projection.deliverySubmissionId,
    awaitingLeaderApproval: projection.awaitingLeaderApproval,
  };
  return event;
}

/** `action.resolved` for the leader's answer to a plan approval request: rejected only on `approved: false`. */
export function buildAgentUiPlanApprovalResolvedEvent(params: {
  base: AgentUiPlanApprovalProjectionBase;
  projection: AgentUiPlanApprovalResponseProjection;
  persistence: AgentUiPersistence;
  toolCallId?: string;
}): AgentUiProjectionEvent {
  const { base, projection, persistence, toolCallId } = params;
  const event = copyBase(base);
  event.type = "action.resolved";
  event.actionId = projection.requestId;
  if (toolCallId) event.toolCallId = toolCallId;
  event.owner = "action";
  event.scope = "action_request";
  event.phase = "completed";
  event.surface = "hitl";
  event.persistence = persistence;
  event.control = projection.approved === false ? "reject" : "approve";
  event.payload = {
    actionType: "plan_approval",
    decisionKind: "plan_approval_response",
    approved: projection.approved,
    feedbackPreview: truncateText(projection.feedback),
    permissionMode: projection.permissionMode,
    timestamp: projection.timestamp,
    targetSessionId: projection.targetSessionId,
    deliveryTarget: projection.deliveryTarget,
    deliverySubmissionId: projection.deliverySubmissionId,
  };
  return event;
}

/**
 * A copy of the caller's envelope (its own enumerable keys), to stamp an event's fields onto.
 * `Object.assign` makes it: V8 (Node 20) gives an object copied with `{ ...base }` a hidden class
 * of its own once keys are added to it, which makes it many times slower. Spread stays for the one
 * key `Object.assign` would not copy as a plain key: an own `__proto__`.
 */
function copyBase(base: AgentUiPlanApprovalProjectionBase): AgentUiProjectionEvent {
  const copy = typeof base === "object" && base !== null && hasOwn.call(base, "__proto__") ? { ...base } : Object.assign({}, base);
  return copy as AgentUiProjectionEvent;
}

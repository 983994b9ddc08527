// Permission projection events: the permission and confirmation facts a runtime status carries
// (required, asked and blocking permission profiles, a pending confirmation) as `permission.changed`.
import type {
  AgentUiPhase,
  AgentUiProjectionContext,
  AgentUiProjectionEvent,
  AgentUiProjectionSourceType,
} from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { definedString, readStringArray } from "./normalization.js";
import { normalizeRuntimePhaseFromRuntimeStatusPhase, type AgentRuntimeStatusPhase } from "./runtimeFacts.js";

export interface AgentUiRuntimePermissionMetadataInput {
  permission_status?: string | null;
  confirmation_status?: string | null;
  confirmation_request_id?: string | null;
  confirmation_source?: string | null;
  decision_source?: string | null;
  decision_scope?: string | null;
  required_profile_keys?: unknown;
  ask_profile_keys?: unknown;
  blocking_profile_keys?: unknown;
  declared_only?: boolean;
  turn_gating?: boolean;
}

export interface AgentUiRuntimePermissionProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  phase: AgentRuntimeStatusPhase;
  metadata?: AgentUiRuntimePermissionMetadataInput | null;
}

/**
 * `permission.changed` for a runtime status carrying permission facts, or `null` when it carries
 * none. The event sits on the HITL surface when a human has to act (a permission review phase, a
 * pending confirmation, asked or blocking profiles); a pending confirmation is the action to approve.
 */
export function buildAgentUiRuntimePermissionChangedEvent(
  input: AgentUiRuntimePermissionProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent | null {
  const metadata = input.metadata;
  if (!hasAgentUiRuntimePermissionMetadata(metadata)) return null;

  const confirmationRequestId = definedString(metadata?.confirmation_request_id);
  const requiredProfileKeys = readStringArray(metadata?.required_profile_keys);
  const askProfileKeys = readStringArray(metadata?.ask_profile_keys);
  const blockingProfileKeys = readStringArray(metadata?.blocking_profile_keys);
  const needsHuman =
    input.phase === "permission_review" ||
    Boolean(confirmationRequestId) ||
    askProfileKeys.length > 0 ||
    blockingProfileKeys.length > 0;
  // Stamped onto the fresh envelope (see lifecycle.ts for why not `{ ...base, more }`).
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "runtime_status" }, context) as AgentUiProjectionEvent;
  const permissionStatus = definedString(metadata?.permission_status);
  const confirmationStatus = definedString(metadata?.confirmation_status);
  event.type = "permission.changed";
  event.actionId = confirmationRequestId;
  event.owner = "policy";
  event.scope = "run";
  event.phase = permissionPhase(
    input.phase,
    permissionStatus,
    confirmationStatus,
    confirmationRequestId !== undefined || askProfileKeys.length > 0 || blockingProfileKeys.length > 0,
  );
  event.surface = needsHuman ? "hitl" : "runtime_status";
  event.persistence = "snapshot";
  event.control = confirmationRequestId ? "approve" : undefined;
  event.payload = {
    permissionStatus,
    confirmationStatus,
    confirmationRequestId,
    confirmationSource: definedString(metadata?.confirmation_source),
    decisionSource: definedString(metadata?.decision_source),
    decisionScope: definedString(metadata?.decision_scope),
    requiredProfileKeys,
    askProfileKeys,
    blockingProfileKeys,
    declaredOnly: metadata?.declared_only,
    turnGating: metadata?.turn_gating,
    sourcePhase: input.phase,
  };
  return event;
}

/** Whether `metadata` states any permission fact: a non-blank status, id, source or scope, a profile key, or a flag. */
export function hasAgentUiRuntimePermissionMetadata(
  metadata: AgentUiRuntimePermissionMetadataInput | null | undefined,
): boolean {
  if (!metadata) return false;
  // Checked in this order and stopping at the first fact found, so a malformed field after it is not read.
  return Boolean(
    definedString(metadata.permission_status) ||
      definedString(metadata.confirmation_status) ||
      definedString(metadata.confirmation_request_id) ||
      definedString(metadata.confirmation_source) ||
      definedString(metadata.decision_source) ||
      definedString(metadata.decision_scope) ||
      readStringArray(metadata.required_profile_keys).length > 0 ||
      readStringArray(metadata.ask_profile_keys).length > 0 ||
      readStringArray(metadata.blocking_profile_keys).length > 0 ||
      typeof metadata.declared_only === "boolean" ||
      typeof metadata.turn_gating === "boolean",
  );
}

/**
 * The phase of a permission change: failed when blocked or denied; waiting while a human has to
 * act (review phase, confirmation not requested yet or pending, asked or blocking profiles);
 * completed once granted, approved, not required or resolved; else the runtime phase's own.
 */
export function resolveAgentUiRuntimePermissionPhase(input: AgentUiRuntimePermissionProjectionInput): AgentUiPhase {
  const metadata = input.metadata;
  const permissionStatus = definedString(metadata?.permission_status);
  const confirmationStatus = definedString(metadata?.confirmation_status);
  if (isRefused(permissionStatus, confirmationStatus)) return "failed";
  // The pending facts are read only when needed, one after the other, as the rule lists them.
  const pending =
    input.phase === "permission_review" ||
    confirmationStatus === "not_requested" ||
    definedString(metadata?.confirmation_request_id) !== undefined ||
    readStringArray(metadata?.ask_profile_keys).length > 0 ||
    readStringArray(metadata?.blocking_profile_keys).length > 0;
  return permissionPhase(input.phase, permissionStatus, confirmationStatus, pending);
}

function isRefused(permissionStatus: string | undefined, confirmationStatus: string | undefined): boolean {
  return permissionStatus === "blocked" || permissionStatus === "denied" || confirmationStatus === "denied";
}

/** The phase rule, given the statuses and whether a confirmation or a profile is pending. */
function permissionPhase(
  phase: AgentRuntimeStatusPhase,
  permissionStatus: string | undefined,
  confirmationStatus: string | undefined,
  pendingFacts: boolean,
): AgentUiPhase {
  if (isRefused(permissionStatus, confirmationStatus)) return "failed";
  if (phase === "permission_review" || confirmationStatus === "not_requested" || pendingFacts) return "waiting";
  if (
    permissionStatus === "not_required" ||
    permissionStatus === "granted" ||
    permissionStatus === "approved" ||
    confirmationStatus === "resolved"
  ) {
    return "completed";
  }
  return normalizeRuntimePhaseFromRuntimeStatusPhase(phase);
}

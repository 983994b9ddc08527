// Routing projection events: which provider and model a turn was routed to (the routing
// decision), the limits routing ran into, and routing failures, as `run.status`.
import type { AgentUiProjectionContext, AgentUiProjectionEvent, AgentUiProjectionSourceType } from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import {
  readBooleanField,
  readNumberField,
  readRecord,
  readStringArrayField,
  readStringField,
  truncateText,
} from "./normalization.js";

type Loose = Record<string, unknown>;

export interface AgentUiRoutingLimitStateProjectionInput {
  status?: string | null;
  singleCandidateOnly?: boolean | null;
  providerLocked?: boolean | null;
  settingsLocked?: boolean | null;
  oemLocked?: boolean | null;
  candidateCount?: number | null;
  capabilityGap?: string | null;
  notes?: string[] | null;
}

export interface AgentUiRoutingLimitEventProjectionInput {
  eventKind?: string | null;
  message?: string | null;
  retryable?: boolean | null;
}

export interface AgentUiRoutingStatusProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  runtimeEvent: string;
  routingDecision?: unknown;
  limitState?: AgentUiRoutingLimitStateProjectionInput | null;
  limitEvent?: AgentUiRoutingLimitEventProjectionInput | null;
}

const ROUTING_MODE_KEYS = ["routingMode", "routing_mode"];
const DECISION_SOURCE_KEYS = ["decisionSource", "decision_source"];
const DECISION_REASON_KEYS = ["decisionReason", "decision_reason"];
const SELECTED_PROVIDER_KEYS = ["selectedProvider", "selected_provider"];
const SELECTED_MODEL_KEYS = ["selectedModel", "selected_model"];
const REQUESTED_PROVIDER_KEYS = ["requestedProvider", "requested_provider"];
const REQUESTED_MODEL_KEYS = ["requestedModel", "requested_model"];
const CANDIDATE_COUNT_KEYS = ["candidateCount", "candidate_count"];
const COST_CLASS_KEYS = ["estimatedCostClass", "estimated_cost_class"];
const CAPABILITY_GAP_KEYS = ["capabilityGap", "capability_gap"];
const FALLBACK_CHAIN_KEYS = ["fallbackChain", "fallback_chain"];
const SETTINGS_SOURCE_KEYS = ["settingsSource", "settings_source"];
const SERVICE_MODEL_SLOT_KEYS = ["serviceModelSlot", "service_model_slot"];
const FALLBACK_APPLIED_KEYS = ["fallbackApplied", "fallback_applied"];

/**
 * `run.status` for a routing runtime event (failed for `routing_not_possible` and
 * `quota_blocked`, else routing). Its payload names the runtime event and sums up, in this order
 * of preference, the routing decision, the limit state or the limit event given.
 */
export function buildAgentUiRoutingStatusEvent(
  input: AgentUiRoutingStatusProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  // Stamped onto the fresh envelope (see lifecycle.ts for why not `{ ...base, more }`).
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? input.runtimeEvent }, context) as AgentUiProjectionEvent;
  const runtimeEvent = input.runtimeEvent;
  event.type = "run.status";
  event.owner = "runtime";
  event.scope = "run";
  event.phase = runtimeEvent === "routing_not_possible" || runtimeEvent === "quota_blocked" ? "failed" : "routing";
  event.surface = "runtime_status";
  event.persistence = "snapshot";
  event.payload = { runtimeEvent, ...routingStatusDetails(input) };
  return event;
}

function routingStatusDetails(input: AgentUiRoutingStatusProjectionInput): Loose {
  const decision = input.routingDecision;
  if (decision) {
    // A decision that is not a record has no fields to read.
    const record = readRecord(decision);
    return record ? routingDecisionFields(record, true) : {};
  }
  const limitState = input.limitState;
  if (limitState) {
    return {
      limitStatus: limitState.status ?? undefined,
      singleCandidateOnly: limitState.singleCandidateOnly ?? undefined,
      providerLocked: limitState.providerLocked ?? undefined,
      settingsLocked: limitState.settingsLocked ?? undefined,
      oemLocked: limitState.oemLocked ?? undefined,
      candidateCount: limitState.candidateCount ?? undefined,
      capabilityGap: limitState.capabilityGap ?? undefined,
      notes: limitState.notes ?? [],
    };
  }
  const limitEvent = input.limitEvent;
  if (limitEvent) {
    return {
      limitEventKind: limitEvent.eventKind ?? undefined,
      messagePreview: truncateText(limitEvent.message ?? undefined),
      retryable: limitEvent.retryable ?? undefined,
    };
  }
  return {};
}

/**
 * The routing decision's fields, read from `event.routing_decision` or `event.routingDecision`
 * when one is a record, else from `event` itself (camelCase or snake_case keys; fields not found
 * are left out; `{}` for a non-record). The fallback chain is kept even when empty for a nested
 * decision or one naming its routing mode.
 */
export function buildRoutingDecisionPayload(event: unknown): Record<string, unknown> {
  const record = readRecord(event);
  const nested = readRecord(record?.routing_decision) ?? readRecord(record?.routingDecision);
  if (nested) return routingDecisionFields(nested, true);
  return record ? routingDecisionFields(record, false) : {};
}

/** The decision fields of `source`; `nested` says whether it is a decision record of its own. */
function routingDecisionFields(source: Loose, nested: boolean): Loose {
  const fields: Loose = {};
  const routingMode = readStringField(source, ROUTING_MODE_KEYS);
  if (routingMode !== undefined) fields.routingMode = routingMode;
  put(fields, "decisionSource", readStringField(source, DECISION_SOURCE_KEYS));
  put(fields, "decisionReason", readStringField(source, DECISION_REASON_KEYS));
  put(fields, "selectedProvider", readStringField(source, SELECTED_PROVIDER_KEYS));
  put(fields, "selectedModel", readStringField(source, SELECTED_MODEL_KEYS));
  put(fields, "requestedProvider", readStringField(source, REQUESTED_PROVIDER_KEYS));
  put(fields, "requestedModel", readStringField(source, REQUESTED_MODEL_KEYS));
  put(fields, "candidateCount", readNumberField(source, CANDIDATE_COUNT_KEYS));
  put(fields, "estimatedCostClass", readStringField(source, COST_CLASS_KEYS));
  put(fields, "capabilityGap", readStringField(source, CAPABILITY_GAP_KEYS));
  const fallbackChain = readStringArrayField(source, FALLBACK_CHAIN_KEYS);
  if (fallbackChain.length > 0 || nested || routingMode !== undefined) fields.fallbackChain = fallbackChain;
  put(fields, "settingsSource", readStringField(source, SETTINGS_SOURCE_KEYS));
  put(fields, "serviceModelSlot", readStringField(source, SERVICE_MODEL_SLOT_KEYS));
  put(fields, "fallbackApplied", readBooleanField(source, FALLBACK_APPLIED_KEYS));
  put(fields, "requestedSelection", readRecord(source.requestedSelection) ?? readRecord(source.requested_selection));
  put(fields, "routingAttempts", routingAttempts(source));
  return fields;
}

function put(fields: Loose, key: string, value: unknown): void {
  if (value !== undefined) fields[key] = value;
}

/** The record entries of the decision's routing attempts; `undefined` when it has none. */
function routingAttempts(source: Loose): Loose[] | undefined {
  const attempts = source.routingAttempts ?? source.routing_attempts;
  if (!Array.isArray(attempts)) return undefined;
  const records: Loose[] = [];
  for (const attempt of attempts) {
    const record = readRecord(attempt);
    if (record) records.push(record);
  }
  return records.length > 0 ? records : undefined;
}

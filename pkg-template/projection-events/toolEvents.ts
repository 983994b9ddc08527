// Tool projection events: a tool call starting (with its arguments), progressing, streaming its
// input or output, and ending (with the plan approval request or response its result may carry).
import type {
  AgentUiProjectionContext,
  AgentUiProjectionEvent,
  AgentUiProjectionRefs,
  AgentUiProjectionSourceType,
} from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { metadataKeys, truncateText } from "./normalization.js";
import {
  buildAgentUiPlanApprovalRequiredEvent,
  buildAgentUiPlanApprovalResolvedEvent,
  extractAgentUiPlanApprovalProjection,
  extractAgentUiPlanApprovalResponseProjection,
} from "./planApproval.js";
import { extractArtifactRefs } from "./refs.js";
import { extractAgentUiToolLifecyclePayloadMetadata } from "./toolLifecycleMetadata.js";

export interface AgentUiToolStartProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  toolCallId: string;
  toolName: string;
  input?: string | null;
  metadata?: unknown;
}

export interface AgentUiToolExecutionResultProjectionInput {
  success?: boolean;
  output?: string | null;
  error?: string | null;
  images?: readonly unknown[] | null;
  metadata?: unknown;
}

export interface AgentUiToolEndProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  toolCallId: string;
  result: AgentUiToolExecutionResultProjectionInput;
}

export interface AgentUiToolProgressProjectionPayload {
  message?: string | null;
  progress?: number;
  total?: number;
  metadata?: unknown;
}

export interface AgentUiToolProgressProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  toolCallId: string;
  progress: AgentUiToolProgressProjectionPayload;
}

export interface AgentUiToolOutputDeltaProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  toolCallId: string;
  delta: string;
  outputKind?: string | null;
  metadata?: unknown;
}

export interface AgentUiToolInputDeltaProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  toolCallId: string;
  toolName?: string | null;
  delta: string;
  accumulatedInput?: string | null;
  provider?: string | null;
  metadata?: unknown;
}

// Each builder stamps its fields onto a fresh envelope from `buildAgentUiProjectionBase` (see
// lifecycle.ts for why not `{ ...base, more }`); an event list takes one envelope per event.

/**
 * Two events for a tool call starting: `tool.started` (the tool's name and lifecycle metadata) and
 * `tool.args` (whether its input is known, with the input's preview and length).
 */
export function buildAgentUiToolStartEvents(
  input: AgentUiToolStartProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent[] {
  const source = { sourceType: input.sourceType ?? "tool_start" };
  const started = buildAgentUiProjectionBase(source, context) as AgentUiProjectionEvent;
  const inputSummary = truncateText(input.input);
  const args = buildAgentUiProjectionBase(source, context) as AgentUiProjectionEvent;
  stampToolCall(started, input.toolCallId, "acting", "ephemeral_live");
  started.type = "tool.started";
  started.payload = { toolName: input.toolName, ...extractAgentUiToolLifecyclePayloadMetadata(input.metadata) };
  stampToolCall(args, input.toolCallId, "acting", "ephemeral_live");
  args.type = "tool.args";
  args.payload = {
    toolName: input.toolName,
    inputAvailable: Boolean(inputSummary),
    inputSummary,
    inputLength: input.input?.length ?? 0,
  };
  return [started, args];
}

/** The fields every event of a tool call has after its envelope (tool owner, tool call scope, tool UI). */
function stampToolCall(
  event: AgentUiProjectionEvent,
  toolCallId: string,
  phase: "acting" | "completed" | "failed",
  persistence: "ephemeral_live" | "archive",
): void {
  event.toolCallId = toolCallId;
  event.owner = "tool";
  event.scope = "tool_call";
  event.phase = phase;
  event.surface = "tool_ui";
  event.persistence = persistence;
}

/**
 * `tool.result`, or `tool.failed` when the result says `success: false`: previews of the output
 * and error, the result's metadata keys (also as diagnostic keys) and artifact refs, and its tool
 * lifecycle metadata.
 */
export function buildAgentUiToolEndEvent(
  input: AgentUiToolEndProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const success = input.result.success !== false;
  return stampToolEnd(
    buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "tool_end" }, context) as AgentUiProjectionEvent,
    input,
    success,
  );
}

/**
 * The tool end event, followed by an `action.required` for a plan approval request and an
 * `action.resolved` for a plan approval response found in the result's metadata.
 */
export function buildAgentUiToolEndEvents(
  input: AgentUiToolEndProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent[] {
  const source = { sourceType: input.sourceType ?? "tool_end" };
  const end = buildAgentUiProjectionBase(source, context) as AgentUiProjectionEvent;
  const events = [stampToolEnd(end, input, input.result.success !== false)];
  const metadata = input.result.metadata;
  const request = extractAgentUiPlanApprovalProjection(metadata);
  const response = extractAgentUiPlanApprovalResponseProjection(metadata);
  if (request) {
    events.push(
      buildAgentUiPlanApprovalRequiredEvent({
        base: buildAgentUiProjectionBase(source, context),
        projection: request,
        persistence: "snapshot",
        toolCallId: input.toolCallId,
      }),
    );
  }
  if (response) {
    events.push(
      buildAgentUiPlanApprovalResolvedEvent({
        base: buildAgentUiProjectionBase(source, context),
        projection: response,
        persistence: "snapshot",
        toolCallId: input.toolCallId,
      }),
    );
  }
  return events;
}

function stampToolEnd(event: AgentUiProjectionEvent, input: AgentUiToolEndProjectionInput, success: boolean): AgentUiProjectionEvent {
  const result = input.result;
  const keys = metadataKeys(result.metadata);
  const refs: AgentUiProjectionRefs = extractArtifactRefs(result.metadata);
  if (keys.length > 0) refs.diagnosticKeys = keys;
  event.type = success ? "tool.result" : "tool.failed";
  stampToolCall(event, input.toolCallId, success ? "completed" : "failed", "archive");
  event.payload = {
    success,
    outputPreview: truncateText(result.output),
    errorPreview: truncateText(result.error),
    outputLength: result.output?.length ?? 0,
    hasImages: Boolean(result.images?.length),
    metadataKeys: keys,
    ...extractAgentUiToolLifecyclePayloadMetadata(result.metadata),
  };
  event.refs = refs;
  return event;
}

/** `tool.progress`: the message preview, progress and total, metadata keys (also as diagnostic keys). */
export function buildAgentUiToolProgressEvent(
  input: AgentUiToolProgressProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const progress = input.progress;
  const keys = metadataKeys(progress.metadata);
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "tool_progress" }, context) as AgentUiProjectionEvent;
  event.type = "tool.progress";
  stampToolCall(event, input.toolCallId, "acting", "ephemeral_live");
  event.payload = {
    messagePreview: truncateText(progress.message),
    progress: progress.progress,
    total: progress.total,
    metadataKeys: keys,
    ...extractAgentUiToolLifecyclePayloadMetadata(progress.metadata),
  };
  event.refs = keys.length > 0 ? { diagnosticKeys: keys } : undefined;
  return event;
}

/** `tool.output.delta`: the output kind, the delta's preview and length, metadata keys (also as diagnostic keys). */
export function buildAgentUiToolOutputDeltaEvent(
  input: AgentUiToolOutputDeltaProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const keys = metadataKeys(input.metadata);
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "tool_output_delta" }, context) as AgentUiProjectionEvent;
  event.type = "tool.output.delta";
  stampToolCall(event, input.toolCallId, "acting", "ephemeral_live");
  event.payload = {
    outputKind: input.outputKind,
    deltaPreview: truncateText(input.delta),
    deltaLength: input.delta.length,
    metadataKeys: keys,
    ...extractAgentUiToolLifecyclePayloadMetadata(input.metadata),
  };
  event.refs = keys.length > 0 ? { diagnosticKeys: keys } : undefined;
  return event;
}

/** `tool.args.delta`: a streamed piece of a tool call's input, with the accumulated input's length and preview. */
export function buildAgentUiToolInputDeltaEvent(
  input: AgentUiToolInputDeltaProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "tool_input_delta" }, context) as AgentUiProjectionEvent;
  event.type = "tool.args.delta";
  stampToolCall(event, input.toolCallId, "acting", "ephemeral_live");
  event.payload = {
    toolName: input.toolName,
    provider: input.provider,
    inputStreaming: true,
    deltaPreview: truncateText(input.delta),
    deltaLength: input.delta.length,
    accumulatedInputLength: input.accumulatedInput?.length ?? 0,
    accumulatedInputPreview: truncateText(input.accumulatedInput),
    ...extractAgentUiToolLifecyclePayloadMetadata(input.metadata),
  };
  return event;
}

// Conversation projection events: message snapshots and the streamed text and reasoning deltas
// (their lengths and previews, never their full text).
import type { AgentUiProjectionContext, AgentUiProjectionEvent, AgentUiProjectionSourceType } from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { truncateText } from "./normalization.js";

export interface AgentUiMessageSnapshotProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  role: string;
  partCount: number;
}

export interface AgentUiTextDeltaProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  text: string;
  chunkCount?: number;
  boundary?: string;
}

export interface AgentUiReasoningDeltaProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  text: string;
  itemId?: string;
  streamKind?: "summary" | "content";
  summaryIndex?: number;
}

// Each builder stamps its fields onto the fresh envelope `buildAgentUiProjectionBase` returns (see
// lifecycle.ts for why not `{ ...base, more }`).

/** `messages.snapshot` for one message: its role and part count. */
export function buildAgentUiMessageSnapshotEvent(
  input: AgentUiMessageSnapshotProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "message" }, context) as AgentUiProjectionEvent;
  event.type = "messages.snapshot";
  event.owner = "session";
  event.scope = "message";
  event.phase = "hydrating";
  event.surface = "conversation";
  event.persistence = "snapshot";
  event.payload = { role: input.role, partCount: input.partCount };
  return event;
}

/** `text.delta`: the delta's length and preview; with a numeric chunk count, it and the boundary. */
export function buildAgentUiTextDeltaEvent(
  input: AgentUiTextDeltaProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "text_delta" }, context) as AgentUiProjectionEvent;
  const payload: Record<string, unknown> = {
    textLength: input.text.length,
    preview: truncateText(input.text),
  };
  if (typeof input.chunkCount === "number") {
    payload.chunkCount = input.chunkCount;
    payload.boundary = input.boundary;
  }
  event.type = "text.delta";
  event.owner = "model";
  event.scope = "part";
  event.phase = "producing";
  event.surface = "conversation";
  event.persistence = "transcript";
  event.payload = payload;
  return event;
}

/**
 * `reasoning.delta`: the delta's length and preview, its stream kind and summary index when
 * given; a non-empty item id becomes the event's part id.
 */
export function buildAgentUiReasoningDeltaEvent(
  input: AgentUiReasoningDeltaProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const event = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "thinking_delta" }, context) as AgentUiProjectionEvent;
  event.type = "reasoning.delta";
  if (input.itemId) event.partId = input.itemId;
  const payload: Record<string, unknown> = {
    textLength: input.text.length,
    preview: truncateText(input.text),
  };
  if (input.streamKind) payload.streamKind = input.streamKind;
  if (typeof input.summaryIndex === "number") payload.summaryIndex = input.summaryIndex;
  event.owner = "model";
  event.scope = "part";
  event.phase = "reasoning";
  event.surface = "inline_process";
  event.persistence = "ephemeral_live";
  event.payload = payload;
  return event;
}

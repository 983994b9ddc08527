// Hydration events: a restored history window becoming ready (or still catching up) in the UI.
import type { AgentUiPhase, AgentUiProjectionContext, AgentUiProjectionEvent } from "./contracts.js";
import { definedString } from "./normalization.js";

export interface AgentUiHistoricalHydrationProjectionInput {
  sessionId?: string | null;
  threadId?: string | null;
  recordReason?: string | null;
  isRestoringSession?: boolean;
  isRestoredHistoryWindow: boolean;
  isHistoricalTimelineReady: boolean;
  canBuildHistoricalTimeline?: boolean;
  shouldDeferHistoricalTimeline?: boolean;
  shouldDeferThreadItemsScan?: boolean;
  shouldDeferTailRuntimeStatusLine?: boolean;
  hiddenHistoryCount: number;
  persistedHiddenHistoryCount: number;
  targetCount: number;
  hydratedHistoricalMarkdownCount: number;
  historicalMarkdownDeferredCount: number;
  historicalContentPartsDeferredCount: number;
  messagesCount: number;
  visibleMessagesCount: number;
  renderedMessagesCount: number;
  renderedTurnsCount?: number;
  threadItemsCount?: number;
  messageListComputeMs?: number;
}

/** The diagnostic key of a history window that is still hydrating. */
const STALE_WINDOW_KEY = "historical_hydration_stale_window";

/**
 * The events of a history hydration, when a session is being restored or history is hidden:
 * `session.hydrated` and `messages.snapshot` (numbered from `context.sequence`), plus a
 * stale-window `diagnostic.changed` while it is still hydrating. `[]` otherwise.
 */
export function buildAgentUiHistoricalHydrationEvents(
  input: AgentUiHistoricalHydrationProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent[] {
  if (
    !(
      input.isRestoringSession ||
      input.isRestoredHistoryWindow ||
      input.hiddenHistoryCount > 0 ||
      input.persistedHiddenHistoryCount > 0
    )
  ) {
    return [];
  }
  const phase = resolveAgentUiHistoricalHydrationPhase(input);
  const payload = buildAgentUiHistoricalHydrationPayload(input);
  const timestamp = context.timestamp;
  const sessionId = definedString(input.sessionId ?? context.sessionId ?? undefined);
  const threadId = definedString(input.threadId ?? context.threadId ?? undefined);
  const start = context.sequence;
  const numbered = typeof start === "number";
  const events: AgentUiProjectionEvent[] = [
    {
      sourceType: "hydration_projection",
      timestamp,
      sessionId,
      threadId,
      sequence: start,
      type: "session.hydrated",
      owner: "session",
      scope: "session",
      phase,
      surface: "session_tabs",
      persistence: "snapshot",
      payload,
    },
    {
      sourceType: "hydration_projection",
      timestamp,
      sessionId,
      threadId,
      sequence: numbered ? start + 1 : undefined,
      type: "messages.snapshot",
      owner: "session",
      scope: "thread",
      phase,
      surface: "conversation",
      persistence: "snapshot",
      payload,
    },
  ];
  if (phase === "hydrating") {
    events.push({
      sourceType: "hydration_projection",
      timestamp,
      sessionId,
      threadId,
      sequence: numbered ? start + 2 : undefined,
      type: "diagnostic.changed",
      owner: "diagnostics",
      scope: "session",
      phase: "hydrating",
      surface: "diagnostics",
      persistence: "diagnostics_log",
      payload: staleWindowPayload(input),
      refs: { diagnosticKeys: [STALE_WINDOW_KEY] },
    });
  }
  return events;
}

/** The stale-window diagnostic's payload: the hydration payload with the diagnostic key and the stale flag. */
function staleWindowPayload(input: AgentUiHistoricalHydrationProjectionInput): Record<string, unknown> {
  // A fresh payload literal with two keys added (copying one with a spread costs microseconds).
  const payload = buildAgentUiHistoricalHydrationPayload(input);
  payload.diagnosticKey = STALE_WINDOW_KEY;
  payload.stale = true;
  return payload;
}

/** `completed` when the timeline is ready and nothing is deferred any more; `hydrating` otherwise. */
export function resolveAgentUiHistoricalHydrationPhase(input: AgentUiHistoricalHydrationProjectionInput): AgentUiPhase {
  const settled =
    input.isHistoricalTimelineReady &&
    input.historicalMarkdownDeferredCount === 0 &&
    input.historicalContentPartsDeferredCount === 0 &&
    !input.shouldDeferThreadItemsScan &&
    !input.shouldDeferTailRuntimeStatusLine;
  return settled ? "completed" : "hydrating";
}

/** The payload of the hydration events: the record reason, the flags as booleans, the counts (optional ones default to 0). */
export function buildAgentUiHistoricalHydrationPayload(
  input: AgentUiHistoricalHydrationProjectionInput,
): Record<string, unknown> {
  return {
    recordReason: definedString(input.recordReason),
    isRestoringSession: Boolean(input.isRestoringSession),
    isRestoredHistoryWindow: input.isRestoredHistoryWindow,
    isHistoricalTimelineReady: input.isHistoricalTimelineReady,
    canBuildHistoricalTimeline: Boolean(input.canBuildHistoricalTimeline),
    shouldDeferHistoricalTimeline: Boolean(input.shouldDeferHistoricalTimeline),
    shouldDeferThreadItemsScan: Boolean(input.shouldDeferThreadItemsScan),
    shouldDeferTailRuntimeStatusLine: Boolean(input.shouldDeferTailRuntimeStatusLine),
    hiddenHistoryCount: input.hiddenHistoryCount,
    persistedHiddenHistoryCount: input.persistedHiddenHistoryCount,
    targetCount: input.targetCount,
    hydratedHistoricalMarkdownCount: input.hydratedHistoricalMarkdownCount,
    historicalMarkdownDeferredCount: input.historicalMarkdownDeferredCount,
    historicalContentPartsDeferredCount: input.historicalContentPartsDeferredCount,
    messagesCount: input.messagesCount,
    visibleMessagesCount: input.visibleMessagesCount,
    renderedMessagesCount: input.renderedMessagesCount,
    renderedTurnsCount: input.renderedTurnsCount ?? 0,
    threadItemsCount: input.threadItemsCount ?? 0,
    messageListComputeMs: input.messageListComputeMs ?? 0,
  };
}

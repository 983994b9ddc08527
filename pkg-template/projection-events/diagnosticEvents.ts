// Diagnostic events: runtime warnings and cost metrics.
import type { AgentUiProjectionContext, AgentUiProjectionEvent, AgentUiProjectionSourceType } from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { completeProjectionEvent } from "./eventFields.js";
import { truncateText } from "./normalization.js";

export interface AgentUiWarningProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  code?: string | null;
  message: string;
}

export interface AgentUiCostStateProjectionInput {
  status?: string | null;
  estimatedCostClass?: string | null;
  estimatedTotalCost?: number | null;
  currency?: string | null;
  totalTokens?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  cachedInputTokens?: number | null;
  cacheCreationInputTokens?: number | null;
}

export interface AgentUiCostMetricProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  metricEvent: string;
  costState: AgentUiCostStateProjectionInput;
}

/** A `diagnostic.changed` event for a warning: its code (`null` read as absent) and a preview of its message. */
export function buildAgentUiWarningEvent(
  input: AgentUiWarningProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const base = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "warning" }, context);
  return completeProjectionEvent(base, {
    type: "diagnostic.changed",
    owner: "diagnostics",
    scope: "run",
    phase: "acting",
    surface: "diagnostics",
    persistence: "diagnostics_log",
    payload: {
      code: input.code ?? undefined,
      messagePreview: truncateText(input.message),
    },
  });
}

/**
 * A `metric.changed` event for a cost record: the metric's name (also the default source type)
 * and the cost state's fields, `null` ones read as absent.
 */
export function buildAgentUiCostMetricEvent(
  input: AgentUiCostMetricProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  const base = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? input.metricEvent }, context);
  const cost = input.costState;
  return completeProjectionEvent(base, {
    type: "metric.changed",
    owner: "diagnostics",
    scope: "run",
    phase: "acting",
    surface: "diagnostics",
    persistence: "diagnostics_log",
    payload: {
      metricEvent: input.metricEvent,
      status: cost.status ?? undefined,
      estimatedCostClass: cost.estimatedCostClass ?? undefined,
      estimatedTotalCost: cost.estimatedTotalCost ?? undefined,
      currency: cost.currency ?? undefined,
      totalTokens: cost.totalTokens ?? undefined,
      inputTokens: cost.inputTokens ?? undefined,
      outputTokens: cost.outputTokens ?? undefined,
      cachedInputTokens: cost.cachedInputTokens ?? undefined,
      cacheCreationInputTokens: cost.cacheCreationInputTokens ?? undefined,
    },
  });
}

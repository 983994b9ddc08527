// `AgentUiProjectionView`: a whole projection state. Every panel gets one subtree of the state, so
// a panel whose subtree the new state shares (`===`) is skipped by React.
import { createElement as h, memo, useMemo } from "react";
import { exportView } from "./view.js";
import { MemoExecutionGraphView } from "./graph.js";
import { MemoUIMessagePartsView } from "./messages.js";
import { MemoArtifactRefList, MemoEvidenceRefList } from "./refs.js";
import { MemoActionRequiredList, MemoRuntimeEventList, MemoRuntimeFactsSummary } from "./runtimeFacts.js";
import { MemoSubagentsView } from "./subagents.js";
import { MemoProcessTimelineView } from "./timeline.js";
import { MemoMcpSurface, MemoToolCallSurface } from "./tools.js";

/**
 * The visible events that have no panel of their own (human actions and tools have theirs),
 * computed again only when `visibleEvents` is a new array.
 */
/**
 * The sections both the projection view and the workbench's runtime panel show, in order: the
 * pending actions, the tool-call and MCP surfaces, and the other execution events.
 */
export function runtimeSurfaceSections(state, otherEvents, labels, onResolveAction, eventsWindowing) {
  return [
    h(MemoActionRequiredList, {
      actions: state.actions,
      onResolveAction,
      ariaLabel: labels?.actionRequiredAriaLabel,
      actionButtonLabel: labels?.actionButtonLabel,
      eventStatusLabel: labels?.eventStatusLabel,
    }),
    h(MemoToolCallSurface, {
      surface: state.toolCalls,
      ariaLabel: labels?.toolCallsAriaLabel ?? labels?.toolGroupAriaLabel,
      toolFamilyLabel: labels?.toolFamilyLabel,
      toolTitle: labels?.toolTitle,
      toolMeta: labels?.toolMeta,
      toolPreview: labels?.toolPreview,
      toolStatusLabel: labels?.toolStatusLabel,
    }),
    h(MemoMcpSurface, {
      surface: state.mcp,
      ariaLabel: labels?.mcpSurfaceAriaLabel,
      serversAriaLabel: labels?.mcpServersAriaLabel,
      toolsAriaLabel: labels?.mcpToolsAriaLabel,
      serverTitle: labels?.mcpServerTitle,
      serverMeta: labels?.mcpServerMeta,
      toolTitle: labels?.mcpToolTitle,
      toolMeta: labels?.mcpToolMeta,
      toolPreview: labels?.mcpToolPreview,
      operationLabel: labels?.mcpOperationLabel,
      statusLabel: labels?.toolStatusLabel,
    }),
    h(MemoRuntimeEventList, {
      events: otherEvents,
      onResolveAction,
      ariaLabel: labels?.executionEventsAriaLabel,
      actionButtonLabel: labels?.actionButtonLabel,
      eventStatusLabel: labels?.eventStatusLabel,
      windowing: eventsWindowing,
    }),
  ];
}

export function useOtherEvents(visibleEvents) {
  return useMemo(() => visibleEvents.filter((event) => event.surface !== "human-action" && event.surface !== "tool"), [visibleEvents]);
}

/** Message parts and timeline, then the side panels: facts, actions, tools, MCP, refs, subagents, graph. */
export const MemoAgentUiProjectionView = memo(function AgentUiProjectionView({
  state,
  artifact,
  emptyMessages,
  labels,
  onResolveAction,
  onSelectArtifactRef,
  onSelectEvidenceRef,
  onOpenSubagentThread,
  windowing,
}) {
  const otherEvents = useOtherEvents(state.readModel.visibleEvents);
  return h(
    "section",
    {
      className: "agent-ui-projection",
      "data-runtime-status": state.runtime.status,
      "data-hydration-status": state.hydration.status,
    },
    h(
      "div",
      { className: "agent-ui-main" },
      h(MemoUIMessagePartsView, {
        parts: state.messages,
        empty: emptyMessages,
        ariaLabel: labels?.messagePartsAriaLabel,
        roleLabel: labels?.roleLabel,
        partTitle: labels?.messagePartTitle,
        partMeta: labels?.messagePartMeta,
        partPreview: labels?.messagePartPreview,
        windowing: windowing?.messages,
      }),
      h(MemoProcessTimelineView, {
        entries: state.timeline,
        ariaLabel: labels?.processTimelineAriaLabel,
        entryTitle: labels?.timelineEntryTitle,
        entryMeta: labels?.timelineEntryMeta,
        windowing: windowing?.timeline,
      }),
    ),
    h(
      "aside",
      { className: "agent-ui-sidecar" },
      h(MemoRuntimeFactsSummary, {
        readModel: state.readModel,
        ariaLabel: labels?.runtimeSummaryAriaLabel,
        summaryLabels: labels?.summaryLabels,
      }),
      ...runtimeSurfaceSections(state, otherEvents, labels, onResolveAction, windowing?.events),
      h(MemoArtifactRefList, {
        refs: state.artifacts,
        ariaLabel: labels?.artifactRefsAriaLabel,
        refTitle: labels?.artifactRefTitle,
        refMeta: labels?.artifactRefMeta,
        refPreview: labels?.artifactRefPreview,
        refActionLabel: labels?.artifactRefActionLabel,
        onSelectRef: onSelectArtifactRef,
      }),
      h(MemoEvidenceRefList, {
        refs: state.evidence,
        ariaLabel: labels?.evidenceRefsAriaLabel,
        refTitle: labels?.evidenceRefTitle,
        refMeta: labels?.evidenceRefMeta,
        refPreview: labels?.evidenceRefPreview,
        refActionLabel: labels?.evidenceRefActionLabel,
        onSelectRef: onSelectEvidenceRef,
      }),
      // The subagents model itself (not the whole state), so that the panel keeps its render
      // while the model is shared.
      h(MemoSubagentsView, { model: state.subagents, labels, onOpenThread: onOpenSubagentThread }),
      artifact ? h("div", { className: "agent-session-artifact" }, artifact) : null,
      h(MemoExecutionGraphView, {
        nodes: state.graph,
        ariaLabel: labels?.executionGraphAriaLabel,
        nodeTitle: labels?.graphNodeTitle,
        nodeMeta: labels?.graphNodeMeta,
      }),
    ),
  );
});

export const AgentUiProjectionView = exportView(MemoAgentUiProjectionView);

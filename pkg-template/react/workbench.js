// The workbench shell: a task card and chat messages, with the runtime panels beside them.
import { createElement as h, memo } from "react";
import { exportView } from "./view.js";
import { MemoAgentTimeline } from "./messages.js";
import { runtimeSurfaceSections, useOtherEvents } from "./projectionView.js";
import { MemoArtifactRefList, MemoEvidenceRefList } from "./refs.js";
import { MemoRuntimeFactsSummary } from "./runtimeFacts.js";
import { MemoSubagentsView } from "./subagents.js";

const NO_MESSAGES = Object.freeze([]);

function joinClassNames(...names) {
  return names.filter(Boolean).join(" ");
}

const Checkpoint = memo(function Checkpoint({ checkpoint }) {
  return h(
    "li",
    {
      className: checkpoint.state === "idle" ? "" : checkpoint.state,
      "data-checkpoint-id": checkpoint.id,
      "data-checkpoint-state": checkpoint.state,
      "data-checkpoint-count": checkpoint.count,
    },
    checkpoint.title,
  );
});

function fact(term, value) {
  return h("div", null, h("dt", null, term), h("dd", null, value));
}

/** The task capsule: sources, artifacts, task and status, then the checkpoints. */
export const MemoAgentWorkbenchTaskCard = memo(function AgentWorkbenchTaskCard({ view, labels }) {
  const sourceLabel = labels?.sourceLabel ?? "Sources";
  const taskLabel = labels?.taskLabel ?? "Task";
  return h(
    "section",
    { className: "agent-workbench-task-card agents-thread-task-card", "aria-label": String(taskLabel) },
    h(
      "dl",
      null,
      fact(sourceLabel, view.sourceCount),
      fact(labels?.artifactLabel ?? "Artifacts", view.artifactCount),
      fact(taskLabel, view.taskTitle),
      fact(labels?.statusLabel ?? "Status", view.statusLabel),
    ),
    h(
      "section",
      null,
      h("span", null, labels?.checkpointLabel ?? "Progress"),
      h("ul", null, view.checkpoints.map((checkpoint) => h(Checkpoint, { key: checkpoint.id, checkpoint }))),
    ),
    h("footer", null, h("span", null, sourceLabel), h("em", null, view.evidenceCount || view.sourceCount)),
  );
});

const RuntimePanel = memo(function RuntimePanel({
  view,
  state,
  labels,
  onResolveAction,
  onSelectArtifactRef,
  onSelectEvidenceRef,
  onOpenSubagentThread,
}) {
  const otherEvents = useOtherEvents(state.readModel.visibleEvents);
  const runtimeLabel = labels?.runtimeLabel ?? "Runtime facts";
  return h(
    "aside",
    { className: "agent-workbench-runtime-panel open", "aria-label": String(runtimeLabel) },
    h(
      "header",
      { className: "agent-workbench-panel-head" },
      h("span", null, runtimeLabel),
      h("strong", null, view.sourceCount, " / ", view.toolCount, " / ", view.artifactCount),
    ),
    h(MemoRuntimeFactsSummary, { readModel: state.readModel, ariaLabel: labels?.runtimeSummaryAriaLabel }),
    ...runtimeSurfaceSections(state, otherEvents, labels, onResolveAction, undefined),
    h(MemoArtifactRefList, { refs: state.artifacts, ariaLabel: labels?.artifactRefsAriaLabel, onSelectRef: onSelectArtifactRef }),
    h(MemoEvidenceRefList, { refs: state.evidence, ariaLabel: labels?.evidenceRefsAriaLabel, onSelectRef: onSelectEvidenceRef }),
    h(MemoSubagentsView, { model: state.subagents, onOpenThread: onOpenSubagentThread }),
  );
});

/** The full workbench: toolbar, task card, messages, artifact slot, runtime panel, composer. */
export const MemoAgentWorkbenchSurface = memo(function AgentWorkbenchSurface({
  view,
  state,
  messages = NO_MESSAGES,
  className,
  toolbar,
  composer,
  emptyMessages,
  artifact,
  runtimePanelOpen = view.shouldShowRuntimePanel,
  onResolveAction,
  onSelectArtifactRef,
  onSelectEvidenceRef,
  onOpenSubagentThread,
  labels,
}) {
  const runtime = runtimePanelOpen ? "open" : "closed";
  const threadLabel = labels?.messagePartsAriaLabel;
  return h(
    "section",
    {
      className: joinClassNames("agent-workbench-surface agents-workbench", className),
      "data-runtime": runtime,
      "data-runtime-status": state.runtime.status,
      "data-hydration-status": state.hydration.status,
    },
    h(
      "div",
      { className: "agent-workbench-dialog-shell agents-dialog-shell" },
      toolbar ? h("div", { className: "agent-workbench-toolbar" }, toolbar) : null,
      h(
        "main",
        { className: "agent-workbench-thread agents-thread", "aria-label": String(threadLabel ?? "Agent workbench"), "data-runtime": runtime },
        h(
          "section",
          { className: "agent-workbench-main agents-thread-main", "aria-label": "Conversation" },
          h(MemoAgentWorkbenchTaskCard, { view, labels }),
          h(
            "div",
            { className: "agent-workbench-scroll agents-thread-scroll", "aria-label": String(threadLabel ?? "Messages") },
            h(MemoAgentTimeline, {
              messages,
              empty: emptyMessages,
              roleLabel: labels?.roleLabel,
              messageTitle: labels?.messageTitle,
              messageMeta: labels?.messageMeta,
              messagePreview: labels?.messagePreview,
            }),
          ),
          artifact ? h("div", { className: "agent-workbench-artifact" }, artifact) : null,
        ),
        runtimePanelOpen
          ? h(RuntimePanel, {
              view,
              state,
              labels,
              onResolveAction,
              onSelectArtifactRef,
              onSelectEvidenceRef,
              onOpenSubagentThread,
            })
          : null,
      ),
      composer ? h("div", { className: "agent-workbench-composer" }, composer) : null,
    ),
  );
});

export const AgentWorkbenchTaskCard = exportView(MemoAgentWorkbenchTaskCard);
export const AgentWorkbenchSurface = exportView(MemoAgentWorkbenchSurface);

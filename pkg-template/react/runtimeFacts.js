// Runtime fact views: the summary counters, one card per projected event (memoized: an event
// projection the next state shares is not rendered again), and the lists built from those cards.
import { createElement as h, Fragment, memo, useCallback } from "react";
import { chunkedItems } from "./list.js";
import { exportView } from "./view.js";
import * as defaults from "./labels.js";
import { listElement } from "./windowing.js";

const SUMMARY_DEFAULTS = [
  ["sources", "Input sources"],
  ["actions", "Actions"],
  ["artifacts", "Artifacts"],
  ["evidence", "Evidence"],
];
const NO_SUMMARY_LABELS = {};

/** Four counters of a read model: input sources, pending actions, artifact refs, evidence refs. */
export const MemoRuntimeFactsSummary = memo(function RuntimeFactsSummary({
  readModel,
  ariaLabel = "Runtime facts summary",
  summaryLabels = NO_SUMMARY_LABELS,
}) {
  const values = {
    sources: readModel.sourceCount,
    actions: readModel.pendingActions.length,
    artifacts: readModel.artifactRefs.length,
    evidence: readModel.evidenceRefs.length,
  };
  if (!readModel.events.length) return null;
  return h(
    "div",
    { className: "agent-runtime-summary", "aria-label": ariaLabel },
    SUMMARY_DEFAULTS.map(([kind, fallback]) =>
      h(
        "span",
        { key: kind, "data-summary-kind": kind, className: values[kind] > 0 ? "ready" : "idle" },
        h("strong", null, values[kind]),
        h("em", null, summaryLabels[kind] ?? fallback),
      ),
    ),
  );
});

// The actions a card offers: the list, else the single action, else none.
function offeredActions(event) {
  if (event.actions?.length) return event.actions;
  return event.action ? [event.action] : [];
}

function renderFactCard({
  event,
  onResolveAction,
  actionButtonLabel = defaults.actionButtonLabel,
  eventStatusLabel = defaults.eventStatusLabel,
}) {
  const actions = offeredActions(event);
  const source = event.source;
  const tail =
    actions.length && onResolveAction
      ? h(
          "div",
          { className: "agent-event-actions" },
          actions.map((action) =>
            h(
              "button",
              {
                key: `${event.id}:${action.decision}`,
                type: "button",
                className: "agent-event-action",
                "data-action-decision": action.decision,
                onClick: () => onResolveAction(source, action),
              },
              actionButtonLabel(action),
            ),
          ),
        )
      : h("em", null, eventStatusLabel(event));
  return h(
    "article",
    {
      className: `agent-runtime-event ${event.status}`,
      "data-event-id": event.id,
      "data-event-class": source.eventClass,
      "data-owner": source.owner,
      "data-phase": source.phase,
      "data-surface": event.surface,
      "data-action-id": event.actionId || undefined,
      "data-action-kind": event.actionKind || undefined,
      "data-action-resolved": event.resolved ? "true" : undefined,
    },
    h("span", { "aria-hidden": "true" }),
    h(
      "div",
      null,
      h("small", { className: "agent-event-surface" }, event.surface),
      h("strong", null, event.title),
      event.detail ? h("small", null, event.detail) : null,
    ),
    tail,
  );
}

/** One projected runtime event: surface, title, detail, and its action buttons or status. */
export const MemoRuntimeFactCard = memo(function RuntimeFactCard(props) {
  return renderFactCard(props);
});

/** `RuntimeFactCard` under the name used for human-action events. */
export const MemoActionCard = memo(function ActionCard(props) {
  return renderFactCard(props);
});

/** `RuntimeFactCard` under the name used for evidence events. */
export const MemoEvidenceCard = memo(function EvidenceCard(props) {
  return renderFactCard(props);
});

/** `RuntimeFactCard` under the name used for artifact events. */
export const MemoArtifactCard = memo(function ArtifactCard(props) {
  return renderFactCard(props);
});

// The card of each event of a list, the same function while the list's props are the same.
function useFactCards(onResolveAction, actionButtonLabel, eventStatusLabel) {
  return useCallback(
    (event) => h(MemoRuntimeFactCard, { key: event.id, event, onResolveAction, actionButtonLabel, eventStatusLabel }),
    [onResolveAction, actionButtonLabel, eventStatusLabel],
  );
}

/** Projected runtime events as cards; `windowing` optional. */
export const MemoRuntimeEventList = memo(function RuntimeEventList({
  events,
  onResolveAction,
  ariaLabel = "Execution events",
  actionButtonLabel,
  eventStatusLabel,
  windowing,
}) {
  const render = useFactCards(onResolveAction, actionButtonLabel, eventStatusLabel);
  if (!events.length) return null;
  return listElement("div", { className: "agent-execution-events", "aria-label": ariaLabel }, events, render, windowing, "div");
});

/** Tool events as cards (status only, no actions). */
export const MemoToolGroup = memo(function ToolGroup({ tools = [], empty, ariaLabel = "Tool calls", eventStatusLabel }) {
  const render = useFactCards(undefined, undefined, eventStatusLabel);
  if (!tools.length) return empty === undefined ? null : h("div", { className: "agent-tool-group-empty" }, empty);
  return h("div", { className: "agent-tool-group", "aria-label": ariaLabel }, chunkedItems(tools, render));
});

/** Events waiting for a human decision (`state.actions`), with their action buttons. */
export const MemoActionRequiredList = memo(function ActionRequiredList({
  actions = [],
  empty,
  onResolveAction,
  ariaLabel = "Action required",
  actionButtonLabel,
  eventStatusLabel,
}) {
  const render = useFactCards(onResolveAction, actionButtonLabel, eventStatusLabel);
  if (!actions.length) return empty === undefined ? null : h("div", { className: "agent-action-required-empty" }, empty);
  return h("div", { className: "agent-action-required-list", "aria-label": ariaLabel }, chunkedItems(actions, render));
});

/** A read model's summary and visible events, then an optional artifact slot. */
export const MemoRuntimeFactsPanel = memo(function RuntimeFactsPanel({ readModel, artifact, onResolveAction, labels }) {
  return h(
    Fragment,
    null,
    h(MemoRuntimeFactsSummary, {
      readModel,
      ariaLabel: labels?.runtimeSummaryAriaLabel,
      summaryLabels: labels?.summaryLabels,
    }),
    h(MemoRuntimeEventList, {
      events: readModel.visibleEvents,
      onResolveAction,
      ariaLabel: labels?.executionEventsAriaLabel,
      actionButtonLabel: labels?.actionButtonLabel,
      eventStatusLabel: labels?.eventStatusLabel,
    }),
    artifact ? h("div", { className: "agent-session-artifact" }, artifact) : null,
  );
});

export const RuntimeFactsSummary = exportView(MemoRuntimeFactsSummary);
export const RuntimeFactCard = exportView(MemoRuntimeFactCard);
export const ActionCard = exportView(MemoActionCard);
export const EvidenceCard = exportView(MemoEvidenceCard);
export const ArtifactCard = exportView(MemoArtifactCard);
export const RuntimeEventList = exportView(MemoRuntimeEventList);
export const ToolGroup = exportView(MemoToolGroup);
export const ActionRequiredList = exportView(MemoActionRequiredList);
export const RuntimeFactsPanel = exportView(MemoRuntimeFactsPanel);

// Subagent views: threads, delegation calls and activities, one memoized card per item, carrying
// their collaboration facts as data attributes.
import { createElement as h, memo, useCallback } from "react";
import { chunkedItems } from "./list.js";
import { exportView } from "./view.js";
import * as defaults from "./labels.js";

// A collaboration fact given as a non-blank string, else nothing.
function factText(facts, key) {
  const value = facts?.[key];
  if (typeof value !== "string" || !value.trim()) return undefined;
  return value;
}

// The data attributes every subagent card carries for its collaboration facts.
function collaborationAttributes(collaboration) {
  const facts = collaboration?.collaborationFacts;
  return {
    "data-collaboration-facts": facts ? "yes" : undefined,
    "data-collaboration-surface": collaboration?.collaborationSurface,
    "data-collaboration-phase": collaboration?.collaborationPhase,
    "data-collaboration-kind": factText(facts, "collaborationKind"),
    "data-collaboration-source": factText(facts, "source"),
    "data-soul-style-level": collaboration?.styleLevel,
    "data-soul-risk-level": collaboration?.riskLevel,
    "data-soul-tone-variant": collaboration?.toneVariant,
    "data-soul-profile-id": collaboration?.profileId,
    "data-soul-pack-id": collaboration?.packId,
  };
}

const ThreadCard = memo(function ThreadCard({ thread, threadTitle, threadMeta, threadSummary, threadActionLabel, onOpenThread }) {
  const summary = threadSummary(thread);
  return h(
    "article",
    {
      className: `agent-subagent-thread ${thread.status}`,
      "data-thread-id": thread.threadId,
      "data-subagent-id": thread.subagentId,
      "data-parent-thread-id": thread.parentThreadId,
      "data-task-id": thread.taskId,
      "data-subagent-status": thread.status,
      ...collaborationAttributes(thread.collaboration),
    },
    h("div", null, h("small", null, threadMeta(thread)), h("strong", null, threadTitle(thread)), summary ? h("p", null, summary) : null),
    onOpenThread
      ? h("button", { type: "button", onClick: () => onOpenThread(thread) }, threadActionLabel ? threadActionLabel(thread) : "Open")
      : null,
  );
});

/** Subagent threads, one card each (with an open button when `onOpenThread` is given). */
export const MemoSubagentThreadList = memo(function SubagentThreadList({
  threads = [],
  empty,
  ariaLabel = "Subagent threads",
  threadTitle = defaults.threadTitle,
  threadMeta = defaults.threadMeta,
  threadSummary = defaults.threadSummary,
  threadActionLabel,
  onOpenThread,
}) {
  const render = useCallback(
    (thread) =>
      h(ThreadCard, { key: thread.threadId, thread, threadTitle, threadMeta, threadSummary, threadActionLabel, onOpenThread }),
    [threadTitle, threadMeta, threadSummary, threadActionLabel, onOpenThread],
  );
  if (!threads.length) return empty === undefined ? null : h("div", { className: "agent-subagent-threads-empty" }, empty);
  return h("div", { className: "agent-subagent-threads", "aria-label": ariaLabel }, chunkedItems(threads, render));
});

const DelegationCard = memo(function DelegationCard({ delegation, delegationTitle }) {
  return h(
    "article",
    {
      className: `agent-subagent-delegation ${delegation.status}`,
      "data-delegation-call-id": delegation.callId,
      "data-delegation-action": delegation.action,
      "data-parent-thread-id": delegation.parentThreadId,
      "data-target-thread-ids": delegation.targetThreadIds.join(" "),
      ...collaborationAttributes(delegation.collaboration),
    },
    h("small", null, delegation.status),
    h("strong", null, delegationTitle(delegation)),
    delegation.promptPreview ? h("p", null, delegation.promptPreview) : null,
  );
});

/** Delegation calls (spawn, send, wait, close...), one card each. */
export const MemoSubagentDelegationList = memo(function SubagentDelegationList({
  delegations = [],
  empty,
  ariaLabel = "Subagent delegations",
  delegationTitle = defaults.delegationTitle,
}) {
  const render = useCallback(
    (delegation) => h(DelegationCard, { key: delegation.callId, delegation, delegationTitle }),
    [delegationTitle],
  );
  if (!delegations.length) return empty === undefined ? null : h("div", { className: "agent-subagent-delegations-empty" }, empty);
  return h("div", { className: "agent-subagent-delegations", "aria-label": ariaLabel }, chunkedItems(delegations, render));
});

const ActivityCard = memo(function ActivityCard({ activity, activityTitle, activityMeta }) {
  return h(
    "article",
    {
      className: `agent-subagent-activity ${activity.status}`,
      "data-activity-id": activity.activityId,
      "data-thread-id": activity.threadId,
      "data-activity-kind": activity.kind,
      "data-source-event-id": activity.sourceEventId,
      ...collaborationAttributes(activity.collaboration),
    },
    h("small", null, activityMeta(activity)),
    h("strong", null, activityTitle(activity)),
  );
});

/** Subagent activities, one card each. */
export const MemoSubagentActivityList = memo(function SubagentActivityList({
  activities = [],
  empty,
  ariaLabel = "Subagent activities",
  activityTitle = defaults.activityTitle,
  activityMeta = defaults.activityMeta,
}) {
  const render = useCallback(
    (activity) => h(ActivityCard, { key: activity.activityId, activity, activityTitle, activityMeta }),
    [activityTitle, activityMeta],
  );
  if (!activities.length) return empty === undefined ? null : h("div", { className: "agent-subagent-activities-empty" }, empty);
  return h("div", { className: "agent-subagent-activities", "aria-label": ariaLabel }, chunkedItems(activities, render));
});

/**
 * The subagents model (`model`, or `state.subagents`) when it has subagents: counters, threads,
 * delegations and activities.
 */
export const MemoSubagentsView = memo(function SubagentsView({
  state,
  model: given,
  emptyThreads,
  emptyDelegations,
  emptyActivities,
  labels,
  onOpenThread,
}) {
  const model = given ?? state?.subagents;
  if (!model?.hasSubagents) return null;
  return h(
    "section",
    {
      className: "agent-subagents",
      "aria-label": labels?.subagentsAriaLabel ?? "Subagents",
      "data-subagent-count": model.threads.length,
      "data-delegation-count": model.delegationCalls.length,
      "data-activity-count": model.activities.length,
      "data-active-subagent-count": model.activeThreadIds.length,
    },
    h(MemoSubagentThreadList, {
      threads: model.threads,
      empty: emptyThreads,
      ariaLabel: labels?.subagentThreadsAriaLabel,
      threadTitle: labels?.subagentThreadTitle,
      threadMeta: labels?.subagentThreadMeta,
      threadSummary: labels?.subagentThreadSummary,
      onOpenThread,
    }),
    h(MemoSubagentDelegationList, {
      delegations: model.delegationCalls,
      empty: emptyDelegations,
      ariaLabel: labels?.subagentDelegationsAriaLabel,
      delegationTitle: labels?.subagentDelegationTitle,
    }),
    h(MemoSubagentActivityList, {
      activities: model.activities,
      empty: emptyActivities,
      ariaLabel: labels?.subagentActivitiesAriaLabel,
      activityTitle: labels?.subagentActivityTitle,
      activityMeta: labels?.subagentActivityMeta,
    }),
  );
});

export const SubagentThreadList = exportView(MemoSubagentThreadList);
export const SubagentDelegationList = exportView(MemoSubagentDelegationList);
export const SubagentActivityList = exportView(MemoSubagentActivityList);
export const SubagentsView = exportView(MemoSubagentsView);

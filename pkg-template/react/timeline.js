// `ProcessTimelineView`: the state's process timeline, one memoized entry per timeline item.
import { createElement as h, memo, useCallback } from "react";
import { exportView } from "./view.js";
import * as defaults from "./labels.js";
import { listElement } from "./windowing.js";

const TimelineEntry = memo(function TimelineEntry({ entry, entryTitle, entryMeta }) {
  return h(
    "li",
    {
      className: `agent-process-entry ${entry.status}`,
      "data-entry-kind": entry.kind,
      "data-entry-status": entry.status,
      "data-owner": entry.owner,
      "data-phase": entry.phase,
    },
    h("span", { "aria-hidden": "true" }),
    h(
      "div",
      null,
      h("small", null, entryMeta(entry)),
      h("strong", null, entryTitle(entry)),
      entry.detail ? h("p", null, entry.detail) : null,
    ),
  );
});

/** The process timeline (`state.timeline`) as an ordered list; `windowing` optional. */
export const MemoProcessTimelineView = memo(function ProcessTimelineView({
  entries = [],
  empty,
  ariaLabel = "Process timeline",
  entryTitle = defaults.timelineEntryTitle,
  entryMeta = defaults.timelineEntryMeta,
  windowing,
}) {
  const render = useCallback(
    (entry) => h(TimelineEntry, { key: entry.entryId, entry, entryTitle, entryMeta }),
    [entryTitle, entryMeta],
  );
  if (!entries.length) return empty === undefined ? null : h("div", { className: "agent-process-empty" }, empty);
  return listElement("ol", { className: "agent-process-timeline", "aria-label": ariaLabel }, entries, render, windowing, "li");
});

export const ProcessTimelineView = exportView(MemoProcessTimelineView);

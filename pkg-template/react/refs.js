// Runtime ref lists (artifacts, evidence): one memoized card per ref; a card is a button when the
// list has `onSelectRef`, an article otherwise.
import { createElement as h, Fragment, memo, useCallback } from "react";
import { chunkedItems } from "./list.js";
import { exportView } from "./view.js";
import * as defaults from "./labels.js";

const RefCard = memo(function RefCard({ item, refKind, refTitle, refMeta, refPreview, refActionLabel, onSelectRef }) {
  const attributes = {
    className: "agent-ref-card",
    "data-ref-kind": refKind,
    "data-ref-id": item.id,
    "data-source-event-id": item.sourceEventId,
    "data-ref-status": item.status,
    "data-content-ref": item.contentRef,
  };
  const body = h(
    Fragment,
    null,
    h("span", { className: "agent-ref-card-body" }, h("small", null, refKind), h("strong", null, refTitle(item)), h("em", null, refMeta(item))),
    refPreview ? h("span", { className: "agent-ref-preview" }, refPreview(item)) : null,
    onSelectRef ? h("span", { className: "agent-ref-action" }, refActionLabel ? refActionLabel(item) : "Open") : null,
  );
  if (!onSelectRef) return h("article", attributes, body);
  return h("button", { type: "button", ...attributes, onClick: () => onSelectRef(item) }, body);
});

/** A list of runtime refs (`AgentUiRefView`), each shown as a card. */
export const MemoAgentUiRefList = memo(function AgentUiRefList({
  refs = [],
  empty,
  ariaLabel = "Runtime refs",
  className = "agent-ref-list",
  refKind = "ref",
  refTitle = defaults.refTitle,
  refMeta = defaults.refMeta,
  refPreview = defaults.refPreview,
  refActionLabel,
  onSelectRef,
}) {
  const render = useCallback(
    (item) => h(RefCard, { key: item.id, item, refKind, refTitle, refMeta, refPreview, refActionLabel, onSelectRef }),
    [refKind, refTitle, refMeta, refPreview, refActionLabel, onSelectRef],
  );
  if (!refs.length) return empty === undefined ? null : h("div", { className: `${className}-empty` }, empty);
  return h("div", { className, "aria-label": ariaLabel, "data-ref-kind": refKind }, chunkedItems(refs, render));
});

/** `AgentUiRefList` for artifact refs (`state.artifacts`). */
export const MemoArtifactRefList = memo(function ArtifactRefList({
  ariaLabel = "Artifact refs",
  className = "agent-artifact-refs",
  refKind = "artifact",
  ...rest
}) {
  return h(MemoAgentUiRefList, { ...rest, ariaLabel, className, refKind });
});

/** `AgentUiRefList` for evidence refs (`state.evidence`). */
export const MemoEvidenceRefList = memo(function EvidenceRefList({
  ariaLabel = "Evidence refs",
  className = "agent-evidence-refs",
  refKind = "evidence",
  ...rest
}) {
  return h(MemoAgentUiRefList, { ...rest, ariaLabel, className, refKind });
});

export const AgentUiRefList = exportView(MemoAgentUiRefList);
export const ArtifactRefList = exportView(MemoArtifactRefList);
export const EvidenceRefList = exportView(MemoEvidenceRefList);

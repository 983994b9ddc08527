// Conversation views: `AgentTimeline` (plain chat messages) and `UIMessagePartsView` (the state's
// message parts). Each message or part is its own memoized component: a part the next state shares
// (`===`) is not rendered again.
import { createElement as h, Fragment, memo, useCallback } from "react";
import { chunkedItems } from "./list.js";
import { exportView } from "./view.js";
import * as defaults from "./labels.js";
import { listElement } from "./windowing.js";

// What an empty conversation shows unless told otherwise.
function noMessagesYet() {
  return h(
    Fragment,
    null,
    h("strong", null, "No messages yet"),
    h("span", null, "Add input sources to begin recording this collaboration."),
  );
}

function emptySession(empty) {
  if (empty === null) return null;
  return h("div", { className: "agent-empty-session" }, empty === undefined ? noMessagesYet() : empty);
}

const TimelineMessage = memo(function TimelineMessage({
  message,
  roleLabel,
  messageTitle,
  messageMeta,
  messagePreview,
  contextDetailsLabel,
  fullOutputDetailsLabel,
}) {
  const preview = messagePreview(message);
  const full = message.content.trim();
  // A preview that shortened or rewrote the text offers the full text behind a disclosure.
  const expandable = typeof preview === "string" && preview !== full;
  return h(
    "article",
    { className: `agent-turn ${message.role}`, "data-role": message.role },
    h("div", { className: "agent-turn-avatar", "aria-hidden": "true" }, roleLabel(message.role)),
    h(
      "div",
      { className: "agent-turn-body" },
      h("div", { className: "agent-turn-head" }, h("strong", null, messageTitle(message)), h("small", null, messageMeta(message))),
      h("p", null, preview),
      message.model ? h("small", { className: "agent-turn-model" }, message.model) : null,
      expandable
        ? h(
            "details",
            { className: "agent-turn-details" },
            h("summary", null, message.role === "user" ? contextDetailsLabel : fullOutputDetailsLabel),
            h("pre", null, full),
          )
        : null,
    ),
  );
});

/** Chat messages (`{id, role, content, model?, createdAt?}`) as turns, then an optional running line. */
export const MemoAgentTimeline = memo(function AgentTimeline({
  messages = [],
  empty,
  runningLabel,
  runtimeStatusLabel = "Running",
  contextDetailsLabel = "View context",
  fullOutputDetailsLabel = "View full output",
  roleLabel = defaults.roleInitial,
  messageTitle = defaults.messageTitle,
  messageMeta = defaults.messageMeta,
  messagePreview = defaults.messagePreview,
}) {
  const renderMessage = useCallback(
    (message) =>
      h(TimelineMessage, {
        key: message.id,
        message,
        roleLabel,
        messageTitle,
        messageMeta,
        messagePreview,
        contextDetailsLabel,
        fullOutputDetailsLabel,
      }),
    [roleLabel, messageTitle, messageMeta, messagePreview, contextDetailsLabel, fullOutputDetailsLabel],
  );
  const turns = messages.length ? chunkedItems(messages, renderMessage) : emptySession(empty);
  const running = runningLabel
    ? h("div", { className: "agent-runtime-event" }, h("strong", null, runtimeStatusLabel), h("span", null, runningLabel))
    : null;
  return h(Fragment, null, turns, running);
});

const MessagePart = memo(function MessagePart({ part, roleLabel, partTitle, partMeta, partPreview }) {
  return h(
    "article",
    {
      className: `agent-message-part ${part.type}`,
      "data-part-type": part.type,
      "data-part-state": part.state,
      "data-role": part.role,
    },
    h("div", { className: "agent-turn-avatar", "aria-hidden": "true" }, roleLabel(part.role ?? "system")),
    h(
      "div",
      { className: "agent-turn-body" },
      h("div", { className: "agent-turn-head" }, h("strong", null, partTitle(part)), h("small", null, partMeta(part))),
      h("p", null, partPreview(part)),
    ),
  );
});

/** The state's message parts (`state.messages`), one article per part; `windowing` optional. */
export const MemoUIMessagePartsView = memo(function UIMessagePartsView({
  parts = [],
  empty,
  ariaLabel = "Message parts",
  roleLabel = defaults.roleInitial,
  partTitle = defaults.partTitle,
  partMeta = defaults.partMeta,
  partPreview = defaults.partPreview,
  windowing,
}) {
  const render = useCallback(
    (part) => h(MessagePart, { key: part.partId, part, roleLabel, partTitle, partMeta, partPreview }),
    [roleLabel, partTitle, partMeta, partPreview],
  );
  if (!parts.length) return emptySession(empty);
  return listElement("div", { className: "agent-message-parts", "aria-label": ariaLabel }, parts, render, windowing, "div");
});

export const AgentTimeline = exportView(MemoAgentTimeline);
export const UIMessagePartsView = exportView(MemoUIMessagePartsView);

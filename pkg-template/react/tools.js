// Tool call and MCP views: one memoized card per tool call, MCP server and MCP tool call.
import { createElement as h, memo, useCallback } from "react";
import { chunkedItems } from "./list.js";
import { exportView } from "./view.js";
import * as defaults from "./labels.js";

// A meta line: the given pieces that are present, separated by a middle dot (each piece its own
// span, the separator leading every piece but the first).
function metaLine(pieces) {
  const present = pieces.filter(Boolean);
  if (!present.length) return null;
  return present.map((piece, index) => h("span", { key: index }, index ? " · " : null, piece));
}

function refCounts(item) {
  return [
    item.artifactRefs.length ? `Artifacts ${item.artifactRefs.length}` : undefined,
    item.evidenceRefs.length ? `Evidence ${item.evidenceRefs.length}` : undefined,
  ];
}

function toolTitle(tool) {
  return tool.displayName || tool.toolName || tool.title;
}

function toolMeta(tool) {
  const progress = tool.progress !== undefined && tool.total !== undefined ? `${tool.progress}/${tool.total}` : undefined;
  return metaLine([
    defaults.toolFamilyLabel(tool.family),
    tool.operationKind,
    tool.mcpServerId,
    tool.skillSlug,
    progress,
    ...refCounts(tool),
  ]);
}

function toolPreview(tool) {
  return tool.errorPreview ?? tool.outputPreview ?? tool.detail ?? tool.inputPreview;
}

function serverTitle(server) {
  return server.label || server.id;
}

function serverMeta(server) {
  return metaLine([
    defaults.toolStatusLabel(server.status),
    `Tools ${server.toolCount}`,
    server.activeToolCount ? `Active ${server.activeToolCount}` : undefined,
    server.failedToolCount ? `Failed ${server.failedToolCount}` : undefined,
  ]);
}

function mcpToolTitle(tool) {
  return tool.toolName || tool.fullName || tool.title;
}

function mcpToolMeta(tool) {
  return metaLine([
    tool.serverId,
    defaults.mcpOperationLabel(tool.operationKind),
    defaults.toolStatusLabel(tool.status),
    ...refCounts(tool),
  ]);
}

// The artifact then evidence ids a tool call produced, as chips.
function refChips(artifactRefs, evidenceRefs) {
  if (!artifactRefs.length && !evidenceRefs.length) return null;
  const chip = (kind) => (id) =>
    h("li", { key: `${kind}:${id}`, "data-tool-ref-kind": kind, "data-tool-ref-id": id }, id);
  return h(
    "ul",
    { className: "agent-tool-refs", "aria-label": "Tool refs" },
    [...artifactRefs.map(chip("artifact")), ...evidenceRefs.map(chip("evidence"))],
  );
}

/** One tool call: family, title, status, meta line, preview, ref chips and lifecycle events. */
export const MemoToolCallCard = memo(function ToolCallCard({
  tool,
  toolFamilyLabel = defaults.toolFamilyLabel,
  toolTitle: title = toolTitle,
  toolMeta: meta = toolMeta,
  toolPreview: previewOf = toolPreview,
  statusLabel = defaults.toolStatusLabel,
}) {
  const preview = previewOf(tool);
  const lifecycle = tool.events.length
    ? h(
        "ol",
        { "aria-label": "Tool lifecycle" },
        tool.events.map((event) =>
          h(
            "li",
            {
              key: event.id,
              "data-event-id": event.eventId,
              "data-event-class": event.eventClass,
              "data-event-status": event.status,
            },
            h("span", null, event.title),
            h("em", null, statusLabel(event.status)),
          ),
        ),
      )
    : null;
  return h(
    "article",
    {
      className: `agent-tool-call ${tool.status}`,
      "data-tool-call-id": tool.toolCallId ?? tool.id,
      "data-tool-name": tool.toolName,
      "data-tool-family": tool.family,
      "data-tool-status": tool.status,
      "data-tool-phase": tool.phase,
      "data-mcp-server": tool.mcpServerId,
      "data-skill-slug": tool.skillSlug,
      "data-artifact-count": tool.artifactRefs.length || undefined,
      "data-evidence-count": tool.evidenceRefs.length || undefined,
    },
    h(
      "header",
      null,
      h("span", null, toolFamilyLabel(tool.family)),
      h("strong", null, title(tool)),
      h("em", null, statusLabel(tool.status)),
    ),
    h("small", null, meta(tool)),
    preview ? h("p", null, preview) : null,
    refChips(tool.artifactRefs, tool.evidenceRefs),
    lifecycle,
  );
});

/** The tool call surface (`state.toolCalls`): counters and one card per call. */
export const MemoToolCallSurface = memo(function ToolCallSurface({
  surface,
  empty,
  ariaLabel = "Tool calls",
  toolFamilyLabel,
  toolTitle,
  toolMeta,
  toolPreview,
  toolStatusLabel,
}) {
  const render = useCallback(
    (tool) =>
      h(MemoToolCallCard, {
        key: tool.id,
        tool,
        toolFamilyLabel,
        toolTitle,
        toolMeta,
        toolPreview,
        statusLabel: toolStatusLabel,
      }),
    [toolFamilyLabel, toolTitle, toolMeta, toolPreview, toolStatusLabel],
  );
  if (!surface?.calls.length) return empty === undefined ? null : h("div", { className: "agent-tool-calls-empty" }, empty);
  return h(
    "section",
    {
      className: "agent-tool-calls",
      "aria-label": ariaLabel,
      "data-tool-call-count": surface.calls.length,
      "data-active-tool-count": surface.activeCallIds.length,
      "data-failed-tool-count": surface.failedCallIds.length,
      "data-completed-tool-count": surface.completedCallIds.length,
    },
    chunkedItems(surface.calls, render),
  );
});

const McpServerCard = memo(function McpServerCard({ server, serverTitle, serverMeta, statusLabel }) {
  return h(
    "article",
    {
      className: `agent-mcp-server ${server.status}`,
      "data-mcp-server": server.id,
      "data-mcp-status": server.status,
      "data-mcp-tool-count": server.toolCount,
      "data-mcp-active-count": server.activeToolCount,
      "data-mcp-failed-count": server.failedToolCount,
    },
    h("header", null, h("strong", null, serverTitle(server)), h("em", null, statusLabel(server.status))),
    h("small", null, serverMeta(server)),
  );
});

/** MCP servers, one card each. */
export const MemoMcpServerList = memo(function McpServerList({
  servers = [],
  empty,
  ariaLabel = "MCP servers",
  serverTitle: title = serverTitle,
  serverMeta: meta = serverMeta,
  statusLabel = defaults.toolStatusLabel,
}) {
  const render = useCallback(
    (server) => h(McpServerCard, { key: server.id, server, serverTitle: title, serverMeta: meta, statusLabel }),
    [title, meta, statusLabel],
  );
  if (!servers.length) return empty === undefined ? null : h("div", { className: "agent-mcp-servers-empty" }, empty);
  return h(
    "section",
    { className: "agent-mcp-servers", "aria-label": ariaLabel, "data-mcp-server-count": servers.length },
    chunkedItems(servers, render),
  );
});

const McpToolCard = memo(function McpToolCard({ tool, toolTitle, toolMeta, toolPreview, operationLabel, statusLabel }) {
  const preview = toolPreview?.(tool) ?? tool.detail;
  return h(
    "article",
    {
      className: `agent-mcp-tool ${tool.status}`,
      "data-mcp-tool-id": tool.id,
      "data-mcp-server": tool.serverId,
      "data-mcp-tool-name": tool.toolName,
      "data-mcp-full-name": tool.fullName,
      "data-mcp-operation": tool.operationKind,
      "data-mcp-status": tool.status,
      "data-artifact-count": tool.artifactRefs.length || undefined,
      "data-evidence-count": tool.evidenceRefs.length || undefined,
    },
    h(
      "header",
      null,
      h("span", null, operationLabel(tool.operationKind)),
      h("strong", null, toolTitle(tool)),
      h("em", null, statusLabel(tool.status)),
    ),
    h("small", null, toolMeta(tool)),
    preview ? h("p", null, preview) : null,
    refChips(tool.artifactRefs, tool.evidenceRefs),
  );
});

/** MCP tool calls, one card each. */
export const MemoMcpToolList = memo(function McpToolList({
  tools = [],
  empty,
  ariaLabel = "MCP tool calls",
  toolTitle = mcpToolTitle,
  toolMeta = mcpToolMeta,
  toolPreview,
  operationLabel = defaults.mcpOperationLabel,
  statusLabel = defaults.toolStatusLabel,
}) {
  const render = useCallback(
    (tool) => h(McpToolCard, { key: tool.id, tool, toolTitle, toolMeta, toolPreview, operationLabel, statusLabel }),
    [toolTitle, toolMeta, toolPreview, operationLabel, statusLabel],
  );
  if (!tools.length) return empty === undefined ? null : h("div", { className: "agent-mcp-tools-empty" }, empty);
  return h(
    "section",
    { className: "agent-mcp-tools", "aria-label": ariaLabel, "data-mcp-tool-count": tools.length },
    chunkedItems(tools, render),
  );
});

/** The MCP surface (`state.mcp`): counters, then its servers and tool calls. */
export const MemoMcpSurface = memo(function McpSurface({
  surface,
  empty,
  ariaLabel = "MCP",
  serversAriaLabel,
  toolsAriaLabel,
  serverTitle,
  serverMeta,
  toolTitle,
  toolMeta,
  toolPreview,
  operationLabel,
  statusLabel,
}) {
  const shown = Boolean(surface?.hasMcp && (surface.servers.length || surface.tools.length));
  if (!shown) return empty === undefined ? null : h("div", { className: "agent-mcp-empty" }, empty);
  return h(
    "section",
    {
      className: "agent-mcp-surface",
      "aria-label": ariaLabel,
      "data-mcp-server-count": surface.servers.length,
      "data-mcp-tool-count": surface.tools.length,
      "data-active-mcp-tool-count": surface.activeToolIds.length,
      "data-failed-mcp-tool-count": surface.failedToolIds.length,
      "data-completed-mcp-tool-count": surface.completedToolIds.length,
    },
    h(MemoMcpServerList, { servers: surface.servers, ariaLabel: serversAriaLabel, serverTitle, serverMeta, statusLabel }),
    h(MemoMcpToolList, { tools: surface.tools, ariaLabel: toolsAriaLabel, toolTitle, toolMeta, toolPreview, operationLabel, statusLabel }),
  );
});

export const ToolCallCard = exportView(MemoToolCallCard);
export const ToolCallSurface = exportView(MemoToolCallSurface);
export const McpServerList = exportView(MemoMcpServerList);
export const McpToolList = exportView(MemoMcpToolList);
export const McpSurface = exportView(MemoMcpSurface);

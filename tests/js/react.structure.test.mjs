// The react subpath's views against the state they are given, with no reference needed (runs in
// CI): every part of the state the views show is in the markup, in the state's order, with its
// identifying attributes; the exports are the view package's names (functions).
import assert from "node:assert/strict";
import { test } from "node:test";
import { api, h, parse, renderToStaticMarkup, sampleStates, views } from "./react-env.mjs";

const VIEW_EXPORTS = [
  "ActionCard", "ActionRequiredList", "AgentTimeline", "AgentUiProjectionView", "AgentUiRefList",
  "AgentWorkbenchSurface", "AgentWorkbenchTaskCard", "ArtifactCard", "ArtifactRefList", "EvidenceCard",
  "EvidenceRefList", "ExecutionGraphView", "McpServerList", "McpSurface", "McpToolList",
  "ProcessTimelineView", "RuntimeEventList", "RuntimeFactCard", "RuntimeFactsPanel", "RuntimeFactsSummary",
  "SubagentActivityList", "SubagentDelegationList", "SubagentThreadList", "SubagentsView", "ToolCallCard",
  "ToolCallSurface", "ToolGroup", "UIMessagePartsView",
];

test("exports: the view package's 28 views (function components) and the hook", () => {
  assert.deepEqual(Object.keys(views).sort(), [...VIEW_EXPORTS, "useAgentUiProjection"].sort());
  for (const name of Object.keys(views)) assert.equal(typeof views[name], "function", name);
});

const attr = (element, name) => element.getAttribute(name) ?? undefined;
const text = (element, selector) => element.querySelector(selector)?.textContent;
const children = (root, selector) => [...(root.querySelector(selector)?.children ?? [])];

/** `list` rendered as `selector`'s children, in order: `check(element, item)` for each. */
function assertList(root, selector, list, check, what) {
  const elements = children(root, selector);
  assert.equal(elements.length, list.length, `${what}: ${elements.length} elements for ${list.length} items`);
  elements.forEach((element, i) => check(element, list[i], `${what}[${i}]`));
}

function assertProjection(name, state) {
  const root = parse(renderToStaticMarkup(h(views.AgentUiProjectionView, { state, onResolveAction() {}, onOpenSubagentThread() {} })));
  const section = root.firstElementChild;
  assert.equal(section.className, "agent-ui-projection");
  assert.equal(attr(section, "data-runtime-status"), state.runtime.status, `${name}: runtime`);
  assert.equal(attr(section, "data-hydration-status"), state.hydration.status, `${name}: hydration`);

  // Message parts (or the empty conversation).
  if (state.messages.length === 0) assert.ok(root.querySelector(".agent-ui-main > .agent-empty-session"), name);
  assertList(root, ".agent-message-parts", state.messages, (element, part, what) => {
    assert.equal(element.className, `agent-message-part ${part.type}`, what);
    assert.equal(attr(element, "data-part-type"), part.type, what);
    assert.equal(attr(element, "data-part-state"), part.state, what);
    assert.equal(attr(element, "data-role"), part.role, what);
  }, `${name}: messages`);

  // Process timeline.
  assertList(root, ".agent-process-timeline", state.timeline, (element, entry, what) => {
    assert.equal(attr(element, "data-entry-kind"), entry.kind, what);
    assert.equal(attr(element, "data-entry-status"), entry.status, what);
    assert.equal(attr(element, "data-owner"), entry.owner, what);
    assert.equal(attr(element, "data-phase"), entry.phase, what);
    assert.equal(text(element, "strong"), entry.title ?? "", what);
    assert.equal(text(element, "p"), entry.detail || undefined, what);
  }, `${name}: timeline`);

  // Runtime facts summary: the four counters, when there are events.
  const summary = root.querySelector(".agent-runtime-summary");
  assert.equal(Boolean(summary), state.readModel.events.length > 0, `${name}: summary`);
  if (summary) {
    const counts = [...summary.children].map((span) => [attr(span, "data-summary-kind"), text(span, "strong")]);
    assert.deepEqual(counts, [
      ["sources", String(state.readModel.sourceCount)],
      ["actions", String(state.readModel.pendingActions.length)],
      ["artifacts", String(state.readModel.artifactRefs.length)],
      ["evidence", String(state.readModel.evidenceRefs.length)],
    ], name);
  }

  const eventCard = (element, event, what) => {
    assert.equal(attr(element, "data-event-id"), event.id, what);
    assert.equal(attr(element, "data-surface"), event.surface, what);
    assert.equal(text(element, "strong"), event.title ?? "", what);
  };
  assertList(root, ".agent-action-required-list", state.actions, eventCard, `${name}: actions`);
  const others = state.readModel.visibleEvents.filter((e) => e.surface !== "human-action" && e.surface !== "tool");
  assertList(root, ".agent-execution-events", others, eventCard, `${name}: other visible events`);

  // Tool calls and MCP.
  assertList(root, ".agent-tool-calls", state.toolCalls.calls, (element, tool, what) => {
    assert.equal(attr(element, "data-tool-call-id"), tool.toolCallId ?? tool.id, what);
    assert.equal(attr(element, "data-tool-family"), tool.family, what);
    assert.equal(attr(element, "data-tool-status"), tool.status, what);
    assert.equal(element.querySelectorAll("ol > li").length, tool.events.length, what);
  }, `${name}: tool calls`);
  const mcpShown = state.mcp.hasMcp && (state.mcp.servers.length > 0 || state.mcp.tools.length > 0);
  assert.equal(Boolean(root.querySelector(".agent-mcp-surface")), mcpShown, `${name}: mcp`);
  if (mcpShown) {
    assertList(root, ".agent-mcp-servers", state.mcp.servers, (element, server, what) => {
      assert.equal(attr(element, "data-mcp-server"), server.id, what);
    }, `${name}: mcp servers`);
    assertList(root, ".agent-mcp-tools", state.mcp.tools, (element, tool, what) => {
      assert.equal(attr(element, "data-mcp-tool-id"), tool.id, what);
    }, `${name}: mcp tools`);
  }

  // Refs.
  const refCard = (kind) => (element, ref, what) => {
    assert.equal(attr(element, "data-ref-kind"), kind, what);
    assert.equal(attr(element, "data-ref-id"), ref.id, what);
    assert.equal(attr(element, "data-source-event-id"), ref.sourceEventId, what);
  };
  assertList(root, ".agent-artifact-refs", state.artifacts, refCard("artifact"), `${name}: artifacts`);
  assertList(root, ".agent-evidence-refs", state.evidence, refCard("evidence"), `${name}: evidence`);

  // Subagents.
  const subagents = state.subagents;
  assert.equal(Boolean(root.querySelector(".agent-subagents")), subagents.hasSubagents, `${name}: subagents`);
  if (subagents.hasSubagents) {
    assertList(root, ".agent-subagent-threads", subagents.threads, (element, thread, what) => {
      assert.equal(attr(element, "data-thread-id"), thread.threadId, what);
      assert.ok(element.querySelector("button"), `${what}: open button`);
    }, `${name}: threads`);
    assertList(root, ".agent-subagent-delegations", subagents.delegationCalls, (element, call, what) => {
      assert.equal(attr(element, "data-delegation-call-id"), call.callId, what);
    }, `${name}: delegations`);
    assertList(root, ".agent-subagent-activities", subagents.activities, (element, activity, what) => {
      assert.equal(attr(element, "data-activity-id"), activity.activityId, what);
    }, `${name}: activities`);
  }

  // Execution graph.
  assertList(root, ".agent-execution-graph", state.graph, (element, node, what) => {
    assert.equal(attr(element, "data-node-type"), node.nodeType, what);
    assert.equal(attr(element, "data-parent-id"), node.parentId, what);
    assert.equal(text(element, "strong"), node.title ?? "", what);
  }, `${name}: graph`);

  // `tools` (every tool event) has its own view, ToolGroup.
  const group = parse(renderToStaticMarkup(h(views.ToolGroup, { tools: state.tools })));
  assertList(group, ".agent-tool-group", state.tools, eventCard, `${name}: tool events`);
}

test("AgentUiProjectionView shows every part of the state (standard fixtures, generated streams)", () => {
  const states = sampleStates({ streams: [[600, 1], [300, 2]], every: 150 });
  assert.ok(states.length > 15);
  for (const [name, state] of states) assertProjection(name, state);
  assertProjection("empty", api.projectAgentUiState({}));
});

test("windowing is off by default: every item is rendered and no attribute is added", () => {
  const events = api.generateRuntimeEvents(400, 5);
  const state = api.projectAgentUiState({ executionEvents: events });
  const markup = renderToStaticMarkup(h(views.AgentUiProjectionView, { state }));
  assert.doesNotMatch(markup, /data-window|style=/);
  assert.equal(parse(markup).querySelectorAll(".agent-process-entry").length, state.timeline.length);
});

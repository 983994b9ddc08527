// The react subpath renders the same markup as the view package @limecloud/agent-runtime-ui for
// the same props: every standard fixture and states along generated streams, through every view
// and label prop; and end to end (the reference's projection + reference views against this
// package's projector + its views).
//
// Needs a local build of the reference views: LIME_REFERENCE_DIR names a tree with
// packages/agent-runtime-ui/dist and packages/agent-runtime-projection/dist, built outside this
// project (bench/README.md, "Reference builds"). Without LIME_REFERENCE_DIR
// this file skips and says so (CI has no reference build; tests/js/react.structure.test.mjs and
// react.renders.test.mjs check the views without one); with it set but the build missing, it fails.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { api, h, React, renderToStaticMarkup, sampleStates, views } from "./react-env.mjs";

const referenceDir = process.env.LIME_REFERENCE_DIR;
const uiEntry = referenceDir && join(referenceDir, "packages", "agent-runtime-ui", "dist", "index.js");
const projectionEntry = referenceDir && join(referenceDir, "packages", "agent-runtime-projection", "dist", "index.js");

if (!referenceDir) {
  test("same markup as the reference views", {
    skip: "LIME_REFERENCE_DIR is not set: no local build of the reference views to compare with (see the header of this file)",
  }, () => {});
} else {
  test("the local reference build is there", () => {
    assert.ok(
      existsSync(uiEntry) && existsSync(projectionEntry),
      `${uiEntry} or ${projectionEntry} is missing: build the reference packages in that checkout (bench/README.md, "Reference builds")`,
    );
  });
  if (existsSync(uiEntry) && existsSync(projectionEntry)) await compareWithReference();
}

async function compareWithReference() {
  const reference = await import(pathToFileURL(uiEntry).href);
  const referenceProjection = await import(pathToFileURL(projectionEntry).href);

  /** Render `make(viewModule)` with both view packages; the markup must be the same. */
  function same(what, make) {
    const expected = renderToStaticMarkup(make(reference));
    const actual = renderToStaticMarkup(make(views));
    if (actual !== expected) {
      let i = 0;
      while (actual[i] === expected[i]) i++;
      assert.fail(`${what}: markup differs at ${i}:\n  reference: …${expected.slice(i - 80, i + 120)}\n  this:      …${actual.slice(i - 80, i + 120)}`);
    }
    return actual;
  }

  // Label functions, the same for both packages, showing what each is given.
  const show = (kind) => (item) => `${kind}:${typeof item === "object" ? JSON.stringify(item).length : item}`;
  const labels = {
    messagePartsAriaLabel: "parts", processTimelineAriaLabel: "timeline", executionGraphAriaLabel: "graph",
    artifactRefsAriaLabel: "artifacts", evidenceRefsAriaLabel: "evidence", subagentsAriaLabel: "subagents",
    subagentThreadsAriaLabel: "threads", subagentDelegationsAriaLabel: "delegations",
    subagentActivitiesAriaLabel: "activities", runtimeSummaryAriaLabel: "summary", executionEventsAriaLabel: "events",
    toolGroupAriaLabel: "tool group", mcpSurfaceAriaLabel: "mcp", mcpServersAriaLabel: "servers",
    mcpToolsAriaLabel: "mcp tools", actionRequiredAriaLabel: "actions",
    summaryLabels: { sources: "S", evidence: h("i", null, "E") },
    roleLabel: show("role"), messagePartTitle: show("part-title"), messagePartMeta: show("part-meta"),
    messagePartPreview: show("part-preview"), timelineEntryTitle: show("entry-title"), timelineEntryMeta: show("entry-meta"),
    graphNodeTitle: show("node-title"), graphNodeMeta: show("node-meta"), artifactRefTitle: show("a-title"),
    artifactRefMeta: show("a-meta"), artifactRefPreview: show("a-preview"), artifactRefActionLabel: show("a-action"),
    evidenceRefTitle: show("e-title"), evidenceRefMeta: show("e-meta"), evidenceRefPreview: show("e-preview"),
    evidenceRefActionLabel: show("e-action"), subagentThreadTitle: show("t-title"), subagentThreadMeta: show("t-meta"),
    subagentThreadSummary: show("t-summary"), subagentDelegationTitle: show("d-title"),
    subagentActivityTitle: show("ac-title"), subagentActivityMeta: show("ac-meta"), actionButtonLabel: show("button"),
    eventStatusLabel: show("status"), toolFamilyLabel: show("family"), toolStatusLabel: show("tool-status"),
    toolTitle: show("tool-title"), toolMeta: show("tool-meta"), toolPreview: show("tool-preview"),
    mcpOperationLabel: show("op"), mcpServerTitle: show("server-title"), mcpServerMeta: show("server-meta"),
    mcpToolTitle: show("mcp-title"), mcpToolMeta: show("mcp-meta"), mcpToolPreview: show("mcp-preview"),
  };
  const handlers = { onResolveAction() {}, onSelectArtifactRef() {}, onSelectEvidenceRef() {}, onOpenSubagentThread() {} };
  const messages = [
    { id: "m1", role: "user", content: "  a question  ", createdAt: "2026-06-07T00:00:00.000Z" },
    { id: "m2", role: "assistant", content: "an answer", model: "model-a" },
    { id: "m3", role: "tool", content: "" },
  ];
  const taskView = (state) => ({
    taskTitle: "task", statusLabel: "working", sourceCount: state.readModel.sourceCount, toolCount: state.toolCalls.calls.length,
    pendingActionCount: state.actions.length, artifactCount: state.artifacts.length, evidenceCount: state.evidence.length,
    taskCount: 0, hasRuntimeFacts: state.readModel.events.length > 0, shouldShowRuntimePanel: true,
    checkpoints: [
      { id: "input", title: "inputs", state: "done", count: 1 },
      { id: "artifact", title: "draft", state: "idle", count: 0 },
      { id: "human-action", title: "review", state: "blocked", count: state.actions.length },
    ],
  });

  /** Every view of `state`, with default and with custom labels, handlers and slots. */
  function compareViews(name, state) {
    same(`${name}: AgentUiProjectionView`, (m) => h(m.AgentUiProjectionView, { state }));
    same(`${name}: AgentUiProjectionView, labels and handlers`, (m) =>
      h(m.AgentUiProjectionView, { state, labels, ...handlers, artifact: h("b", null, "slot"), emptyMessages: "nothing yet" }));
    same(`${name}: AgentUiProjectionView, empty messages hidden`, (m) => h(m.AgentUiProjectionView, { state, emptyMessages: null }));
    same(`${name}: RuntimeFactsPanel`, (m) =>
      h(m.RuntimeFactsPanel, { readModel: state.readModel, artifact: "slot", onResolveAction() {}, labels }));
    same(`${name}: ToolGroup`, (m) => h(m.ToolGroup, { tools: state.tools, empty: "no tools", eventStatusLabel: labels.eventStatusLabel }));
    same(`${name}: SubagentsView`, (m) =>
      h(m.SubagentsView, { state, labels, emptyThreads: "-", emptyDelegations: "-", emptyActivities: "-", onOpenThread() {} }));
    same(`${name}: lists with empty slots`, (m) =>
      h(React.Fragment, null,
        h(m.ProcessTimelineView, { entries: state.timeline, empty: "no entries" }),
        h(m.ExecutionGraphView, { nodes: state.graph, empty: "no nodes" }),
        h(m.ActionRequiredList, { actions: state.actions, empty: "no actions" }),
        h(m.ToolCallSurface, { surface: state.toolCalls, empty: "no calls" }),
        h(m.McpSurface, { surface: state.mcp, empty: "no mcp" }),
        h(m.SubagentThreadList, { threads: state.subagents.threads, empty: "-", threadActionLabel: show("open"), onOpenThread() {} }),
        h(m.ArtifactRefList, { refs: state.artifacts, empty: "-", refPreview: null }),
        h(m.AgentUiRefList, { refs: [...state.artifacts, ...state.evidence], onSelectRef() {} }),
        ...state.readModel.events.slice(0, 5).map((event) => h(m.ActionCard, { key: event.id, event, onResolveAction() {} })),
      ));
    for (const open of [undefined, false]) {
      same(`${name}: AgentWorkbenchSurface (runtimePanelOpen ${open})`, (m) =>
        h(m.AgentWorkbenchSurface, {
          view: taskView(state), state, messages, runtimePanelOpen: open, className: "host", toolbar: "tools",
          composer: h("textarea", { defaultValue: "draft" }), artifact: "artifact", labels: { ...labels, runtimeLabel: "facts" }, ...handlers,
        }));
    }
    same(`${name}: AgentTimeline`, (m) => h(m.AgentTimeline, { messages, runningLabel: "thinking" }));
  }

  test("every standard fixture and generated stream states: the same markup through every view", () => {
    const states = sampleStates();
    assert.ok(states.length > 30);
    for (const [name, state] of states) compareViews(name, state);
    compareViews("empty state", api.projectAgentUiState({}));
    same("empty lists", (m) => h(React.Fragment, null, h(m.AgentTimeline, {}), h(m.AgentTimeline, { empty: null }), h(m.UIMessagePartsView, {})));
  });

  // The reference's own projector computes the runtime status differently from its batch path;
  // this package's projector follows the batch path (README, "Compatibility with the reference"),
  // so the reference side is the batch projection of the events so far.
  test("end to end: reference projection and views against this package's projector and views", () => {
    const streams = api.agentUiConformanceFixtures.map((fixture) => [fixture.id, fixture.events]);
    for (const seed of [1, 2, 3]) streams.push([`generated(500, ${seed})`, api.generateRuntimeEvents(500, seed, { subagentRate: 0.4, actionRate: 0.3 })]);
    for (const [name, events] of streams) {
      const ours = api.createAgentUiProjector({ sourceCount: 1 });
      events.forEach((event, i) => {
        const actual = ours.apply(event);
        if (i % 50 !== 49 && i !== events.length - 1) return;
        const expected = referenceProjection.projectAgentUiState({ executionEvents: events.slice(0, i + 1), sourceCount: 1 });
        const a = renderToStaticMarkup(h(reference.AgentUiProjectionView, { state: expected, ...handlers }));
        const b = renderToStaticMarkup(h(views.AgentUiProjectionView, { state: actual, ...handlers }));
        assert.ok(a === b, `${name} after ${i + 1} events: the markup differs`);
      });
      ours.free();
    }
  });
}

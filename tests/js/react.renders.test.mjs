// What React renders again after an event, with the views fed through useAgentUiProjection: in a
// tree of a 2,000-event generated stream, one apply renders only the items that are new objects in
// the new state (structural sharing reaching React), in one commit; DOM nodes of unchanged items
// are kept (stable keys). No reference needed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { act, api, h, mount, React, views } from "./react-env.mjs";

// Every item view calls exactly one of these label functions once per render, with its item: the
// record of calls is the record of item renders.
const rendered = new Map();
function counting(kind) {
  return (item) => {
    let list = rendered.get(kind);
    if (list === undefined) rendered.set(kind, (list = []));
    list.push(item);
    return kind;
  };
}
const labels = {
  messagePartTitle: counting("messages"),
  timelineEntryTitle: counting("timeline"),
  graphNodeTitle: counting("graph"),
  eventStatusLabel: counting("events"),
  toolTitle: counting("toolCalls"),
  mcpServerTitle: counting("mcpServers"),
  mcpToolTitle: counting("mcpTools"),
  artifactRefTitle: counting("artifacts"),
  evidenceRefTitle: counting("evidence"),
  subagentThreadTitle: counting("threads"),
  subagentDelegationTitle: counting("delegations"),
  subagentActivityTitle: counting("activities"),
};

// The items of each kind in a state (what the label functions above are called with).
function itemsOf(state) {
  const others = state.readModel.visibleEvents.filter((e) => e.surface !== "human-action" && e.surface !== "tool");
  return {
    messages: state.messages,
    timeline: state.timeline,
    graph: state.graph,
    events: [...state.actions, ...others],
    toolCalls: state.toolCalls.calls,
    mcpServers: state.mcp.servers,
    mcpTools: state.mcp.tools,
    artifacts: state.artifacts,
    evidence: state.evidence,
    threads: state.subagents.threads,
    delegations: state.subagents.delegationCalls,
    activities: state.subagents.activities,
  };
}

/** The tree: a component owning a projector through the hook, rendering the whole state. */
async function mountSession(options) {
  const session = { commits: 0 };
  function Session() {
    const projection = views.useAgentUiProjection(options);
    session.projection = projection;
    return h(views.AgentUiProjectionView, { state: projection.state, labels });
  }
  const onRender = () => session.commits++;
  session.mounted = await mount(h(React.Profiler, { id: "session", onRender }, h(Session)));
  return session;
}

test("after one apply in a 2,000-event session, only the new or changed items render", async () => {
  const events = api.generateRuntimeEvents(2060, 21, { subagentRate: 0.4, actionRate: 0.3, stateDeltaRate: 0.2 });
  const session = await mountSession({ schedule: "sync" });
  await act(async () => {
    session.projection.applyMany(events.slice(0, 2000));
  });
  const totals = Object.fromEntries(Object.entries(itemsOf(session.projection.state)).map(([kind, items]) => [kind, items.length]));
  assert.ok(totals.timeline >= 1500 && totals.messages > 100, JSON.stringify(totals));
  let renderedTotal = 0;
  for (const event of events.slice(2000)) {
    const before = itemsOf(session.projection.state);
    rendered.clear();
    const commits = session.commits;
    await act(async () => {
      session.projection.apply(event);
    });
    assert.equal(session.commits, commits + 1, "one commit per accepted event");
    const after = itemsOf(session.projection.state);
    for (const kind of Object.keys(after)) {
      const kept = new Set(before[kind]);
      const changed = after[kind].filter((item) => !kept.has(item));
      assert.deepEqual(
        rendered.get(kind) ?? [],
        changed,
        `${event.id}: ${kind} rendered ${(rendered.get(kind) ?? []).length} items, ${changed.length} are new objects`,
      );
      renderedTotal += changed.length;
    }
  }
  // Sixty events rendered a few items each, out of thousands in the tree.
  const itemsInTree = Object.values(totals).reduce((a, b) => a + b, 0);
  assert.ok(renderedTotal < 5 * 60 && itemsInTree > 2000, `${renderedTotal} item renders for 60 events, ${itemsInTree} items in the tree`);
  // A duplicate event is no change: no commit, no render.
  rendered.clear();
  const commits = session.commits;
  await act(async () => {
    session.projection.apply(events[10]);
  });
  assert.equal(session.commits, commits);
  assert.equal(rendered.size, 0);
  await session.mounted.unmount();
});

test("a parent rendering again with the same state renders no item", async () => {
  const state = api.projectAgentUiState({ executionEvents: api.generateRuntimeEvents(300, 3, { subagentRate: 0.5 }) });
  let setTick;
  function Parent() {
    const [tick, set] = React.useState(0);
    setTick = set;
    return h("div", { "data-tick": tick }, h(views.AgentUiProjectionView, { state, labels }));
  }
  rendered.clear();
  const mounted = await mount(h(Parent));
  assert.ok(rendered.get("timeline").length === state.timeline.length);
  rendered.clear();
  await act(async () => setTick(1));
  assert.equal(mounted.container.firstChild.getAttribute("data-tick"), "1");
  assert.equal(rendered.size, 0);
  await mounted.unmount();
});

test("the DOM nodes of unchanged items are kept across states (stable keys)", async () => {
  const events = api.generateRuntimeEvents(700, 8);
  const session = await mountSession({ schedule: "sync" });
  await act(async () => {
    session.projection.applyMany(events.slice(0, 400));
  });
  const { container } = session.mounted;
  const nodes = (selector) => [...container.querySelectorAll(selector)];
  const timelineBefore = nodes(".agent-process-entry");
  const partsBefore = nodes(".agent-message-part");
  const partIds = session.projection.state.messages.map((part) => part.partId);
  for (const event of events.slice(400)) {
    await act(async () => {
      session.projection.apply(event);
    });
  }
  const timelineAfter = nodes(".agent-process-entry");
  assert.ok(timelineAfter.length > timelineBefore.length);
  timelineBefore.forEach((node, i) => assert.equal(timelineAfter[i], node, `timeline entry ${i} kept its node`));
  const partsAfter = nodes(".agent-message-part");
  const afterIds = session.projection.state.messages.map((part) => part.partId);
  partIds.forEach((id, i) => {
    assert.equal(afterIds[i], id);
    assert.equal(partsAfter[i], partsBefore[i], `message part ${id} kept its node`);
  });
  await session.mounted.unmount();
});

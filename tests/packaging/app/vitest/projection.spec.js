// A React app's own unit tests, importing the packed package by name: they must load and project
// under every vitest environment (node, jsdom, happy-dom).
import { createElement as h, memo, Profiler, useSyncExternalStore } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import {
  createAgentUiProjector,
  getAgentUiFixture,
  projectAgentUiState,
  ready,
} from "@limecloud/agent-runtime-projection-wasm";
import { AgentUiProjectionView, useAgentUiProjection } from "@limecloud/agent-runtime-projection-wasm/react";

const hasDom = typeof document !== "undefined";

function Timeline({ entries }) {
  return h("ul", null, entries.map((entry) => h("li", { key: entry.entryId }, entry.title)));
}

function Status({ runtime }) {
  return h("p", { className: "status" }, runtime.status);
}

describe("the packed package in a component test", () => {
  test("projects a fixture and renders it", async () => {
    await ready;
    const fixture = getAgentUiFixture("tool-success");
    const state = projectAgentUiState({ executionEvents: fixture.events });
    const html = renderToStaticMarkup(h("main", null, h(Status, { runtime: state.runtime }), h(Timeline, { entries: state.timeline })));
    expect(html).toContain(`<p class="status">${state.runtime.status}</p>`);
    expect(html.match(/<li>/g)).toHaveLength(state.timeline.length);
    const projector = createAgentUiProjector();
    for (const event of fixture.events) projector.apply(event);
    expect(projector.getState()).toEqual(state);
    projector.free();
  });
});

describe("the react subpath in a component test", () => {
  test("renders a projected fixture with the views", async () => {
    await ready;
    const state = projectAgentUiState({ executionEvents: getAgentUiFixture("tool-success").events });
    const html = renderToStaticMarkup(h(AgentUiProjectionView, { state }));
    expect(html).toContain(`data-runtime-status="${state.runtime.status}"`);
    expect(html.match(/<li class="agent-process-entry /g)).toHaveLength(state.timeline.length);
  });

  test.runIf(hasDom)("useAgentUiProjection feeds the views; the projector is freed on unmount", async () => {
    const { createRoot } = await import("react-dom/client");
    const { act } = await import("react");
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
    const fixture = getAgentUiFixture("tool-success");
    let session;
    function Session() {
      session = useAgentUiProjection({ schedule: "sync" });
      return h(AgentUiProjectionView, { state: session.state });
    }
    const container = document.createElement("div");
    document.body.append(container);
    const root = createRoot(container);
    await act(async () => root.render(h(Session)));
    await act(async () => {
      for (const event of fixture.events) session.apply(event);
    });
    const expected = projectAgentUiState({ executionEvents: fixture.events });
    expect(session.state).toEqual(expected);
    expect(container.querySelectorAll(".agent-process-entry")).toHaveLength(expected.timeline.length);
    await act(async () => root.unmount());
    container.remove();
  });
});

describe.runIf(hasDom)("a component reading a projector with useSyncExternalStore", () => {
  test("renders once per state change, keeps memoized panels, frees on unmount", async () => {
    const { createRoot } = await import("react-dom/client");
    const { act } = await import("react");
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;

    const fixture = getAgentUiFixture("tool-success");
    const projector = createAgentUiProjector();
    // Panels, each fed one subtree of the state and memoized: it renders again only when that
    // subtree is a new object.
    const panels = {
      status: (state) => state.runtime,
      timeline: (state) => state.timeline,
      artifacts: (state) => state.artifacts,
      subagents: (state) => state.subagents,
    };
    const renders = { app: 0, status: 0, timeline: 0, artifacts: 0, subagents: 0 };
    const Panel = memo(function Panel({ name, value }) {
      renders[name]++;
      return h("section", { "data-panel": name }, Array.isArray(value) ? value.length : typeof value);
    });
    function App() {
      renders.app++;
      const state = useSyncExternalStore(projector.subscribe, projector.getState);
      return h(
        "main",
        null,
        h(Status, { runtime: state.runtime }),
        h(Timeline, { entries: state.timeline }),
        ...Object.entries(panels).map(([name, select]) => h(Panel, { key: name, name, value: select(state) })),
      );
    }

    const container = document.createElement("div");
    document.body.append(container);
    const root = createRoot(container);
    let commits = 0;
    await act(async () => root.render(h(Profiler, { id: "app", onRender: () => commits++ }, h(App))));
    const expected = { app: 1, status: 1, timeline: 1, artifacts: 1, subagents: 1 };
    expect(renders).toEqual(expected);

    for (const event of fixture.events) {
      const before = projector.getState();
      await act(async () => {
        projector.apply(event);
      });
      const after = projector.getState();
      expect(after).not.toBe(before);
      expected.app++;
      for (const [name, select] of Object.entries(panels)) {
        if (select(after) !== select(before)) expected[name]++;
      }
      expect(renders).toEqual(expected);
    }
    // Structural sharing reached React: some panels kept their render across the whole stream.
    expect(expected.artifacts + expected.subagents).toBeLessThan(2 * (fixture.events.length + 1));
    expect(commits).toBe(fixture.events.length + 1);

    // A duplicate event is no change: nothing renders.
    await act(async () => {
      projector.apply(fixture.events[0]);
    });
    expect(renders).toEqual(expected);
    expect(container.querySelectorAll("li")).toHaveLength(projector.getState().timeline.length);

    // Unmount, then free: the projector is released and refuses further use.
    await act(async () => root.unmount());
    projector.free();
    expect(() => projector.getState()).toThrow(/freed/);
    container.remove();
  });
});

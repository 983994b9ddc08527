// Renders a projected conformance fixture with React, importing the package like any app would:
// the main entry (batch projection, a projector) and the react subpath (the views, fed through
// useAgentUiProjection).
import { createElement as h, StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import {
  createAgentUiProjector,
  getAgentUiFixture,
  projectAgentUiState,
} from "@limecloud/agent-runtime-projection-wasm";
import { AgentUiProjectionView, useAgentUiProjection } from "@limecloud/agent-runtime-projection-wasm/react";

const fixture = getAgentUiFixture("tool-success");
const state = projectAgentUiState({ executionEvents: fixture.events });
const projector = createAgentUiProjector();
let incremental;
for (const event of fixture.events) incremental = projector.apply(event);

// The events arrive one by one after mounting; the hook hands the view one state per frame.
function LiveSession() {
  const { state: live, apply } = useAgentUiProjection();
  useEffect(() => {
    for (const event of fixture.events) apply(event);
  }, [apply]);
  return h("div", { id: "live", "data-events": live.readModel.events.length }, h(AgentUiProjectionView, { state: live }));
}

function App() {
  return h(
    "main",
    null,
    h("h1", { id: "status" }, state.runtime.status),
    h("p", { id: "events" }, String(state.readModel.events.length)),
    h("p", { id: "same" }, String(JSON.stringify(incremental) === JSON.stringify(state))),
    h("ul", { id: "timeline" }, state.timeline.map((entry) => h("li", { key: entry.entryId }, entry.title))),
    h(LiveSession),
  );
}

createRoot(document.getElementById("root")).render(h(StrictMode, null, h(App)));

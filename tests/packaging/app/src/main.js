// Renders a projected conformance fixture with React, importing the package like any app would.
import { createElement as h } from "react";
import { createRoot } from "react-dom/client";
import {
  createAgentUiProjector,
  getAgentUiFixture,
  projectAgentUiState,
} from "@limecloud/agent-runtime-projection-wasm";

const fixture = getAgentUiFixture("tool-success");
const state = projectAgentUiState({ executionEvents: fixture.events });
const projector = createAgentUiProjector();
let incremental;
for (const event of fixture.events) incremental = projector.apply(event);

function App() {
  return h(
    "main",
    null,
    h("h1", { id: "status" }, state.runtime.status),
    h("p", { id: "events" }, String(state.readModel.events.length)),
    h("p", { id: "same" }, String(JSON.stringify(incremental) === JSON.stringify(state))),
    h("ul", { id: "timeline" }, state.timeline.map((entry) => h("li", { key: entry.entryId }, entry.title))),
  );
}

createRoot(document.getElementById("root")).render(h(App));

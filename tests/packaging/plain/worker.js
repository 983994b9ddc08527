// A module worker importing the browser entry of the package.
import { createProjector, getAgentUiFixture, projectAgentUiState, ready } from "/pkg/index.js";

await ready;
const fixture = getAgentUiFixture("hitl-action");
const state = projectAgentUiState({ executionEvents: fixture.events });
const projector = createProjector();
projector.applyMany(fixture.events);
postMessage({
  status: state.runtime.status,
  events: state.readModel.events.length,
  same: JSON.stringify(projector.getState()) === JSON.stringify(state),
});
projector.free();

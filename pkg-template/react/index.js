// @limecloud/agent-runtime-projection-wasm/react: the views of @limecloud/agent-runtime-ui (same
// names, props and DOM), memoized so that a part of the state the next state shares (`===`) is not
// rendered again, and `useAgentUiProjection`, a projector owned by a component.
export { useAgentUiProjection } from "./hook.js";
export { AgentTimeline, UIMessagePartsView } from "./messages.js";
export { ProcessTimelineView } from "./timeline.js";
export { ExecutionGraphView } from "./graph.js";
export { AgentUiRefList, ArtifactRefList, EvidenceRefList } from "./refs.js";
export {
  ActionCard,
  ActionRequiredList,
  ArtifactCard,
  EvidenceCard,
  RuntimeEventList,
  RuntimeFactCard,
  RuntimeFactsPanel,
  RuntimeFactsSummary,
  ToolGroup,
} from "./runtimeFacts.js";
export { SubagentActivityList, SubagentDelegationList, SubagentsView, SubagentThreadList } from "./subagents.js";
export { McpServerList, McpSurface, McpToolList, ToolCallCard, ToolCallSurface } from "./tools.js";
export { AgentUiProjectionView } from "./projectionView.js";
export { AgentWorkbenchSurface, AgentWorkbenchTaskCard } from "./workbench.js";

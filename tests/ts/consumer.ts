// Type-checks a consumer of the package against the generated declarations
// (tsc --strict --noEmit; see tsconfig.json). Not executed.
import {
  AgentUiContractValidationError,
  LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES,
  agentUiConformanceFixtures,
  agentUiJsonSchemas,
  createAgentUiProjector,
  createProjector,
  createRuntimeSequenceVerifier,
  generateRuntimeEvents,
  getAgentUiFixture,
  isAgentUiEventClass,
  project,
  projectAgentUiState,
  replayAgentUiFixture,
  runtimeTurnTerminalProjectionFromStatus,
  validateRuntimeEvent,
} from "@limecloud/agent-runtime-projection-wasm";
import type {
  AgentRuntimeExecutionEvent,
  AgentUiArtifactRefView,
  AgentUiEventClass,
  AgentUiFixture,
  AgentUiProjectionState,
  AgentUiRuntimeStatusView,
  AgentUiSubagentsModel,
  AgentUiToolCallView,
  RuntimeSequenceViolation,
  UIMessagePart,
} from "@limecloud/agent-runtime-projection-wasm";

const event: AgentRuntimeExecutionEvent = {
  id: "evt_1",
  kind: "tool",
  status: "running",
  eventClass: "tool.started",
  schemaVersion: "lime-runtime-event/v0.1",
  runtimeId: "runtime",
  sequence: 1,
  toolCallId: "call_1",
  title: "Search",
  createdAt: "2026-06-10T00:00:00.000Z",
  payload: { query: "x" },
};

const checked: AgentRuntimeExecutionEvent = validateRuntimeEvent(event);
const state: AgentUiProjectionState = projectAgentUiState({ executionEvents: [checked], sourceCount: 1 });
const status: AgentUiRuntimeStatusView["status"] = state.runtime.status;
const parts: UIMessagePart[] = state.messages;
const firstText: string | undefined = parts[0]?.text;
const calls: AgentUiToolCallView[] = state.toolCalls.calls;
const family: string = calls[0]?.family ?? "tool";
const artifacts: AgentUiArtifactRefView[] = state.artifacts;
const subagents: AgentUiSubagentsModel = state.subagents;
const hasSubagents: boolean = subagents.hasSubagents;
const sourceEvent: AgentRuntimeExecutionEvent | undefined = state.readModel.events[0]?.source;
const eventCount: number = state.hydration.eventCount;

const batch: AgentUiProjectionState = project([event]);
const projector = createAgentUiProjector({ executionEvents: [] });
const next: AgentUiProjectionState = projector.apply(event);
const many: AgentUiProjectionState = projector.applyMany([event]);
const lean = createProjector();
const change = lean.apply(event);
const accepted: boolean | number = change.accepted;
const leanState: AgentUiProjectionState = lean.getState();
lean.free();

const fixture: AgentUiFixture = getAgentUiFixture("text-basic");
const all: AgentUiFixture[] = agentUiConformanceFixtures;
const replay = replayAgentUiFixture(fixture);
const passed: boolean = replay.passed;
const violations: RuntimeSequenceViolation[] = replay.sequenceViolations;
const verifier = createRuntimeSequenceVerifier();
const pushed: RuntimeSequenceViolation[] = verifier.push(event);
const scope: string | undefined = pushed[0]?.scopeId;
const terminal = runtimeTurnTerminalProjectionFromStatus("completed");
const terminalClass: "turn.completed" | "turn.failed" | "turn.canceled" | undefined = terminal?.eventClass;
const schema: Record<string, unknown> = agentUiJsonSchemas.runtimeEvent;
const generated: AgentRuntimeExecutionEvent[] = generateRuntimeEvents(10, 1, { toolFailureRate: 0.5 });

const candidate: unknown = "action.required";
if (typeof candidate === "string" && isAgentUiEventClass(candidate)) {
  const cls: AgentUiEventClass = candidate;
  void cls;
}

try {
  validateRuntimeEvent({});
} catch (error) {
  if (error instanceof AgentUiContractValidationError) {
    const codes: string[] = error.issues.map((issue) => issue.code);
    void codes;
  }
}

// @ts-expect-error: the state's runtime status is a closed union.
const wrongStatus: AgentUiRuntimeStatusView["status"] = "bogus";
// @ts-expect-error: events need a title.
const wrongEvent: AgentRuntimeExecutionEvent = { id: "x", kind: "tool", status: "running", createdAt: "t" };

void [status, firstText, family, artifacts, hasSubagents, sourceEvent, eventCount, batch, next, many, accepted, leanState, all, passed, violations, scope, terminalClass, schema, generated, wrongStatus, wrongEvent];

// The legacy terminal classes are a literal tuple (generated from the event model).
const legacyFirst: "done" = LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES[0];
void legacyFirst;

// The workloads of bench/ab.mjs and bench/instructions.mjs: each a function of one package's API
// (its calls made on the standard fixtures and on generated streams) returning the call to time;
// and the numeric option reader both use.

/** The number after `name` in `args`, both taken out of `args`; `fallback` when it is absent. */
export function takeNumberOption(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  args.splice(at, 2);
  return value;
}

/**
 * One turn streaming one long message: `n` text deltas of ~25 characters (a real model's answer;
 * the text and the turn's id list grow with every event).
 */
export function streamedMessage(n) {
  const at = "2026-07-01T09:00:00.000Z";
  const events = [{ id: "t0", sequence: 1, eventClass: "turn.started", kind: "turn", status: "running", turnId: "turn1", createdAt: at }];
  for (let i = 1; i <= n; i++) {
    events.push({
      id: `d${i}`, sequence: i + 1, eventClass: "model.delta", kind: "message", status: "running", turnId: "turn1",
      messageId: "m1", createdAt: at, payload: { text: `token${i} and more words ` },
    });
  }
  return events;
}

/** The workloads, each a function of one package's API returning the call to time. */
export function workloads(api) {
  const fixtures = api.agentUiConformanceFixtures;
  const fixtureEvents = fixtures.flatMap((f) => f.events);
  const small = fixtures.filter((f) => f.events.length <= 3);
  const stream = (n) => api.generateRuntimeEvents(n, 42);
  const [g10, g56, g200, g1k, g2k] = [10, 56, 200, 1000, 2000].map(stream);
  const state = api.projectAgentUiState({ executionEvents: fixtureEvents });
  const delta = fixtureEvents.find((e) => e.eventClass === "state.delta");
  const projections = api.projectAgentRuntimeReadModel({ executionEvents: fixtureEvents }).events;
  const batch = (events) => () => api.projectAgentUiState({ executionEvents: events });
  const state1k = api.projectAgentUiState({ executionEvents: g1k });
  const deltaInto = (path) => ({
    ...delta,
    id: "ab-delta",
    payload: { target: "projection", patch: [{ op: "replace", path, value: "running" }] },
  });
  const [intoRuntime, intoTimeline] = ["/runtime/status", "/timeline/2/title"].map(deltaInto);
  const withDelta1k = [...g1k.slice(0, 10), intoRuntime, ...g1k.slice(10)];
  // One message streamed in 5,000 deltas (a long answer).
  const streamed = streamedMessage(5000);
  // A session read of two turns (App Server facts).
  const at = (s) => `2026-01-02T03:04:0${s}.000Z`;
  const turn = (n, status, done) => ({
    turnId: `turn-${n}`, sessionId: "s-1", threadId: "th-1", status, startedAt: at(n), ...(done ? { completedAt: at(n + 1) } : {}),
  });
  const sessionRead = {
    session: { sessionId: "s-1", threadId: "th-1", appId: "bench", status: "running", createdAt: at(0), updatedAt: at(3) },
    turns: [turn(1, "completed", true), turn(2, "running", false)],
  };
  return {
    "batch-fixtures": () => fixtures.forEach((f) => api.projectAgentUiState({ executionEvents: f.events })),
    "batch-small": () => small.forEach((f) => api.projectAgentUiState({ executionEvents: f.events })),
    "batch-10": batch(g10),
    "batch-56": batch(g56),
    "batch-200": batch(g200),
    "batch-1k": batch(g1k),
    // A fresh projector fed 2,000 events, the state never read.
    "live-2k": () => {
      const p = api.createProjector();
      for (const e of g2k) p.apply(e);
      p.free();
    },
    // A fresh projector fed 200 events, the state read after each.
    // A fresh projector fed the streamed message, the state never read.
    "live-stream-5k": () => {
      const p = api.createProjector();
      for (const e of streamed) p.apply(e);
      p.free();
    },
    "state-200": () => {
      const p = api.createAgentUiProjector();
      for (const e of g200) p.apply(e);
      p.free();
    },
    "fresh-fixtures": () => fixtures.forEach((f) => {
      const p = api.createAgentUiProjector();
      for (const e of f.events) p.apply(e);
      p.free();
    }),
    "read-model": () => fixtures.forEach((f) => api.projectAgentRuntimeReadModel({ executionEvents: f.events })),
    "read-model-acc": () => {
      const acc = api.createAgentRuntimeReadModelAccumulator();
      for (const e of fixtureEvents) acc.apply(e);
    },
    "tool-surface": () => api.projectAgentUiToolSurface(projections),
    "delta": () => api.applyAgentRuntimeStateDeltaToProjectionState(state, delta),
    "deltas": () => api.applyAgentRuntimeStateDeltasToProjectionState(state, fixtureEvents),
    // A delta over the state of 1,000 events: the runtime's status, a timeline entry's title.
    "delta-1k": () => api.applyAgentRuntimeStateDeltaToProjectionState(state1k, intoRuntime),
    "delta-timeline-1k": () => api.applyAgentRuntimeStateDeltaToProjectionState(state1k, intoTimeline),
    // The list of 1,000 events with a delta into the runtime after its tenth: the next event
    // supersedes it.
    "deltas-1k": () => api.applyAgentRuntimeStateDeltasToProjectionState(state1k, withDelta1k),
    "coding": () => api.projectCodingWorkbenchView(state),
    "coding-1k": () => api.projectCodingWorkbenchView(state1k),
    "coding-events": () => api.projectCodingWorkbenchViewFromEvents({ executionEvents: fixtureEvents }),
    "snapshot": () => api.projectAgentUiStateFromSessionSnapshot({ executionEvents: fixtures[0].events }),
    "replay": () => fixtures.forEach((f) => api.replayAgentUiFixture(f)),
    "session-read": () => api.projectAppServerSessionReadToExecutionEvents(sessionRead),
  };
}

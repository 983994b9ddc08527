// Live projection-event store: appending events one at a time and reading a few selectors after
// each append, as a UI does while a run streams.
//
//   node bench/event-store.mjs                     # the package's incremental store alone
//   LIME_REFERENCE_DIST=/path/to/lime/packages/agent-runtime-projection/dist node bench/event-store.mjs
//                                                  # and the reference's way, side by side
//   EVENT_STORE_SIZES=10000,100000                 # stream lengths (default)
//
// Ours: `createAgentUiProjectionEventStore()`, `append(event)`, then per event
// `selectEventsByType("tool.result")`, `selectLatestEventForRun(runId)` and
// `selectLatestEventByType(event.type)`.
// The reference's way (what its API offers for a live list): per event a new state
// `{events: state.events.concat(event), ...indexAgentUiProjectionEvents([event], state)}` (the
// state is immutable, as a React store's must be), then the same three reads with
// `selectAgentUiProjectionEventsByTypeFromStore`, `selectLatestAgentUiProjectionEventForRunFromStore`
// and `selectLatestAgentUiProjectionEventByTypeFromStore`.
// Both end with the same by-type list (checked).
//
// Rows "ours, + selectEvents()" and "ours, + getState()" add a read of the whole list per event:
// each such read after an append hands out a new array of n events (an array handed out is never
// mutated), so they show the O(n) copy per read that no array-returning store can avoid; getState()
// also rebuilds, as plain objects, the latest-event maps the append changed (O(their keys)).
// Paths that cost O(n) per event are estimated from sampled windows beyond 20,000 events (see
// `measure`; EVENT_STORE_FULL=1 runs them whole).
//
// The events come from a small deterministic generator below (turns of a run: text deltas, tool
// calls, actions, artifacts, evidence, subagent events); nothing outside this repository is read
// unless LIME_REFERENCE_DIST is set.
import assert from "node:assert/strict";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ours = await import(pathToFileURL(join(root, "pkg", "index.node.js")).href);
const referenceDist = process.env.LIME_REFERENCE_DIST;
const reference = referenceDist ? await import(pathToFileURL(join(referenceDist, "index.js")).href) : undefined;
const sizes = (process.env.EVENT_STORE_SIZES ?? "10000,100000").split(",").map(Number);

/** A deterministic stream of `n` projection events: one session, threads of runs, each run a few turns. */
function generateProjectionEvents(n) {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const events = [];
  let run = 0;
  let tool = 0;
  let action = 0;
  let artifact = 0;
  const push = (type, fields) =>
    events.push({
      type,
      sourceType: "runtime_status",
      sequence: events.length + 1,
      sessionId: "session-1",
      threadId: `thread-${run % 4}`,
      runId: `run-${run}`,
      turnId: `turn-${run}`,
      owner: "runtime",
      scope: "run",
      phase: "acting",
      ...fields,
    });
  while (events.length < n) {
    run += 1;
    push("run.started", { surface: "runtime_status" });
    for (let step = 0; step < 4 && events.length < n; step += 1) {
      const deltas = 3 + Math.floor(random() * 6);
      for (let i = 0; i < deltas; i += 1) push("text.delta", { surface: "conversation", owner: "model", scope: "message" });
      tool += 1;
      const toolCallId = `tool-${tool}`;
      push("tool.started", { toolCallId, surface: "tool_ui", owner: "tool", scope: "tool_call" });
      push("tool.progress", { toolCallId, surface: "tool_ui", owner: "tool", scope: "tool_call" });
      push("tool.result", { toolCallId, surface: "tool_ui", owner: "tool", scope: "tool_call", phase: "completed" });
      const roll = random();
      if (roll < 0.15) {
        action += 1;
        push("action.required", { actionId: `action-${action}`, surface: "hitl", owner: "action", scope: "action_request", phase: "waiting" });
        push("action.resolved", { actionId: `action-${action}`, surface: "hitl", owner: "action", scope: "action_request" });
      } else if (roll < 0.3) {
        artifact += 1;
        push("artifact.preview.ready", { artifactId: `artifact-${artifact}`, surface: "artifact_workspace", owner: "artifact", scope: "artifact" });
        push("evidence.changed", { evidenceId: `evidence-${artifact}`, surface: "timeline_evidence", owner: "evidence", scope: "evidence" });
      } else if (roll < 0.4) {
        push("agent.spawned", { taskId: `task-${run}`, agentId: `agent-${run}`, surface: "delegation_graph", owner: "agent", scope: "agent" });
        push("worker.notification", { taskId: `task-${run}`, surface: "worker_notifications", owner: "agent", scope: "agent" });
      }
    }
    push("run.finished", { surface: "runtime_status", phase: "completed" });
  }
  return events.slice(0, n);
}

/** Our store: `append`, then the three reads (and `extraRead`, if any) per event. */
function oursPath(extraRead) {
  return {
    start(prefix) {
      const store = ours.createAgentUiProjectionEventStore();
      store.appendMany(prefix);
      return { store, list: store.selectEventsByType("tool.result") };
    },
    step(context, event) {
      const { store } = context;
      store.append(event);
      context.list = store.selectEventsByType("tool.result");
      store.selectLatestEventForRun(event.runId);
      store.selectLatestEventByType(event.type);
      if (extraRead) extraRead(store);
    },
  };
}

/** The reference's way (see the header). */
const referencePath = {
  start(prefix) {
    const state = { events: prefix.slice(), ...reference.indexAgentUiProjectionEvents(prefix, reference.createEmptyAgentUiProjectionEventIndex()) };
    return { state, list: reference.selectAgentUiProjectionEventsByTypeFromStore(state, "tool.result") };
  },
  step(context, event) {
    const previous = context.state;
    const state = { events: previous.events.concat(event), ...reference.indexAgentUiProjectionEvents([event], previous) };
    context.state = state;
    context.list = reference.selectAgentUiProjectionEventsByTypeFromStore(state, "tool.result");
    reference.selectLatestAgentUiProjectionEventForRunFromStore(state, event.runId);
    reference.selectLatestAgentUiProjectionEventByTypeFromStore(state, event.type);
  },
};

const WINDOWS = 9;
const WINDOW = 200;

/**
 * Runs `path` over `events`: the whole stream, timed, or (`sampled`) WINDOWS windows of WINDOW
 * events spread over it, each started from a state built in bulk from the events before it (not
 * timed), the total estimated from the per-event costs by the trapezoid rule. Returns the total
 * (ms) and the by-type list after the last event.
 */
function measure(path, events, sampled) {
  if (!sampled) {
    const context = path.start([]);
    const start = performance.now();
    for (const event of events) path.step(context, event);
    return { ms: performance.now() - start, list: context.list };
  }
  const n = events.length;
  const samples = [];
  let list;
  for (let j = 0; j < WINDOWS; j += 1) {
    const from = Math.round((j * (n - WINDOW)) / (WINDOWS - 1));
    const context = path.start(events.slice(0, from));
    const start = performance.now();
    for (let i = from; i < from + WINDOW; i += 1) path.step(context, events[i]);
    samples.push([from + WINDOW / 2, (performance.now() - start) / WINDOW]);
    list = context.list;
  }
  let ms = samples[0][0] * samples[0][1] + (n - samples[WINDOWS - 1][0]) * samples[WINDOWS - 1][1];
  for (let j = 1; j < WINDOWS; j += 1) ms += ((samples[j][0] - samples[j - 1][0]) * (samples[j][1] + samples[j - 1][1])) / 2;
  return { ms, list };
}

// Paths that cost O(n) per event run whole up to this many events; beyond, they are sampled
// (EVENT_STORE_FULL=1 runs everything whole: the reference takes tens of minutes at 100k).
const FULL_UP_TO = process.env.EVENT_STORE_FULL === "1" ? Infinity : 20000;

// Warm-up on a short stream (JIT), not timed.
const warm = generateProjectionEvents(3000);
for (const path of [oursPath(), oursPath((store) => store.getState()), ...(reference ? [referencePath] : [])]) measure(path, warm, false);

const rows = [];
const row = (label, n, result, base) =>
  rows.push([
    result.estimated ? `${label} (est.)` : label,
    n.toLocaleString("en-US"),
    result.ms.toFixed(1),
    ((result.ms * 1000) / n).toFixed(2),
    `${(result.ms / base).toFixed(1)}x`,
  ]);
for (const n of sizes) {
  const events = generateProjectionEvents(n);
  const sampled = n > FULL_UP_TO;
  const run = (path, estimated) => ({ ...measure(path, events, estimated), estimated });
  // The cheap path is timed five times (median): one run is at the mercy of a GC or a busy core.
  const runs = Array.from({ length: 5 }, () => run(oursPath(), false)).sort((x, y) => x.ms - y.ms);
  const base = runs[2];
  row("ours: append + 3 reads", n, base, base.ms);
  row("ours, + selectEvents()", n, run(oursPath((store) => store.selectEvents()), sampled), base.ms);
  row("ours, + getState()", n, run(oursPath((store) => store.getState()), sampled), base.ms);
  if (reference) {
    const result = run(referencePath, sampled);
    assert.deepStrictEqual(base.list, result.list, "ours and the reference end with the same by-type list");
    row("reference: concat + index + 3 reads", n, result, base.ms);
  }
}

const header = ["path", "events", "total ms", "µs/event", "vs ours"];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((cells) => cells[i].length)));
const line = (cells) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(" | ")} |`;
console.log(`Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}; reference: ${reference ? referenceDist : "not loaded (set LIME_REFERENCE_DIST)"}`);
console.log("ours: append + 3 reads is the median of 5 runs; every other row is one run.");
if (sizes.some((n) => n > FULL_UP_TO)) {
  console.log(`(est.): ${WINDOWS} windows of ${WINDOW} events spread over the stream, total by the trapezoid rule (EVENT_STORE_FULL=1 runs them whole)`);
}
console.log(line(header));
console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
for (const cells of rows) console.log(line(cells));

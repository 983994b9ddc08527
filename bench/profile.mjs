// CPU profile of one workload through the package's JS API, with WebAssembly function names:
// where the time goes, by function (self time) and by call subtree (inclusive time).
//
//   bash scripts/build-pkg.sh --profiling        # once: target/pkg-profiling keeps wasm names
//   node --expose-gc bench/profile.mjs <workload> [n] [--pkg <dir>] [--top <k>] [--save <file>]
//
// `--save <file>`: the raw V8 CPU profile as well (`.cpuprofile`, for Chrome DevTools or a script
// that follows callers and callees).
//
// Workloads (streams from `generateRuntimeEvents(n, 42)`; the generator runs before profiling):
//   batch      projectAgentUiState, 3 calls (default n 20,000)
//   live       createProjector().apply, one event at a time (default n 50,000)
//   state      createAgentUiProjector().apply, the state after every event (default n 20,000)
//   validate   collectRuntimeEventsValidationIssues of the JSON array text, 5 calls (default 100,000)
//   short      projectAgentUiState of a short stream, 200 calls (--rounds k: k calls; default n 56:
//              one turn)
//   fresh      a new createAgentUiProjector() fed each standard fixture, state after every
//              event, n rounds (default 300): a fresh projector's fixed cost
//   accumulator  createAgentRuntimeReadModelAccumulator() fed each standard fixture, n rounds
//              (default 300)
//   fixtures   projectAgentUiState of each of the 13 standard fixtures, n rounds (default 2,000):
//              the fixed cost of a short batch
//   tools      projectAgentUiToolSurface of the read-model projections of all 13 fixtures' events,
//              n calls (default 2,000)
//   coding     projectCodingWorkbenchView of the state of all 13 fixtures' events, n calls
//              (default 2,000)
//   readmodel  projectAgentRuntimeReadModel of each standard fixture's events, n rounds
//              (default 2,000)
//   replay     replayAgentUiFixture of each standard fixture, n rounds (default 300)
//   delta      applyAgentRuntimeStateDeltaToProjectionState of the fixtures' state.delta event
//              over the state of all 13 fixtures' events, n calls (default 2,000)
//   deltas     applyAgentRuntimeStateDeltasToProjectionState of all 13 fixtures' events over their
//              state, n calls (default 2,000)
// Sampling adds overhead to short wasm functions; compare shares, not absolute times.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const workload = args[0] ?? "batch";
const defaults = { batch: 20_000, live: 50_000, state: 20_000, validate: 100_000, fixtures: 2_000, delta: 2_000, deltas: 2_000, tools: 2_000, coding: 2_000, readmodel: 2_000, short: 56, fresh: 300, replay: 300, accumulator: 300 };
if (!(workload in defaults)) {
  console.error(`profile: unknown workload ${workload}; one of ${Object.keys(defaults).join(", ")}`);
  process.exit(2);
}
const n = Number(args[1] && !args[1].startsWith("--") ? args[1] : defaults[workload]);
const top = Number(opt("--top", 30));
const rounds = Number(opt("--rounds", 200));
const pkgDir = opt("--pkg", join(root, "target", "pkg-profiling"));
const api = await import(pathToFileURL(join(pkgDir, "index.node.js")).href);

const events = ["fixtures", "delta", "deltas", "tools", "coding", "readmodel", "replay"].includes(workload) ? [] : api.generateRuntimeEvents(n, 42);
const text = workload === "validate" ? JSON.stringify(events) : "";
/** `fn(events)` for each standard fixture's events, `n` rounds. */
function eachFixture(fn) {
  for (let r = 0; r < n; r++) for (const f of api.agentUiConformanceFixtures) fn(f.events);
}
// The delta and coding workloads' arguments: the state of every fixture's events and its
// state.delta event.
const fixtureEvents = api.agentUiConformanceFixtures.flatMap((f) => f.events);
const deltaEvent = fixtureEvents.find((e) => e.eventClass === "state.delta");
const fixtureState = ["delta", "deltas", "coding"].includes(workload) ? api.projectAgentUiState({ executionEvents: fixtureEvents }) : undefined;
const toolProjections =
  workload === "tools" ? api.projectAgentRuntimeReadModel({ executionEvents: fixtureEvents }).events : undefined;

const run = {
  batch: () => {
    for (let r = 0; r < 3; r++) api.projectAgentUiState({ executionEvents: events });
  },
  live: () => {
    const p = api.createProjector();
    for (const e of events) p.apply(e);
  },
  state: () => {
    const p = api.createAgentUiProjector();
    for (const e of events) p.apply(e);
  },
  short: () => {
    for (let r = 0; r < rounds; r++) api.projectAgentUiState({ executionEvents: events });
  },
  fresh: () => eachFixture((events) => {
    const p = api.createAgentUiProjector();
    for (const e of events) p.apply(e);
    p.free();
  }),
  accumulator: () => eachFixture((events) => {
    const a = api.createAgentRuntimeReadModelAccumulator();
    for (const e of events) a.apply(e);
  }),
  fixtures: () => eachFixture((events) => api.projectAgentUiState({ executionEvents: events })),
  replay: () => {
    for (let r = 0; r < n; r++) for (const f of api.agentUiConformanceFixtures) api.replayAgentUiFixture(f);
  },
  readmodel: () => eachFixture((events) => api.projectAgentRuntimeReadModel({ executionEvents: events })),
  tools: () => {
    for (let r = 0; r < n; r++) api.projectAgentUiToolSurface(toolProjections);
  },
  coding: () => {
    for (let r = 0; r < n; r++) api.projectCodingWorkbenchView(fixtureState);
  },
  delta: () => {
    for (let r = 0; r < n; r++) api.applyAgentRuntimeStateDeltaToProjectionState(fixtureState, deltaEvent);
  },
  deltas: () => {
    for (let r = 0; r < n; r++) api.applyAgentRuntimeStateDeltasToProjectionState(fixtureState, fixtureEvents);
  },
  validate: () => {
    for (let r = 0; r < 5; r++) api.collectRuntimeEventsValidationIssues(text);
  },
}[workload];

globalThis.gc?.();
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
const t = performance.now();
run();
const wall = performance.now() - t;
const { profile } = await session.post("Profiler.stop");
const saveTo = opt("--save", undefined);
if (saveTo !== undefined) writeFileSync(saveTo, JSON.stringify(profile));
session.disconnect();

// Self and inclusive time per function name (Rust hashes dropped; a name counts once per stack).
const nameOf = (node) => (node.callFrame.functionName || `(${node.callFrame.url.split("/").pop() || "anonymous"})`).replace(/::h[0-9a-f]{16}$/, "");
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
const sampleTime = new Map();
profile.samples.forEach((id, i) => sampleTime.set(id, (sampleTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const self = new Map();
const incl = new Map();
let total = 0;
for (const [id, us] of sampleTime) {
  total += us;
  const leaf = nameOf(byId.get(id));
  self.set(leaf, (self.get(leaf) ?? 0) + us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const name = nameOf(byId.get(cur));
    if (seen.has(name)) continue;
    seen.add(name);
    incl.set(name, (incl.get(name) ?? 0) + us);
  }
}
const skip = new Set(["(root)", "(program)", "(idle)", "(anonymous)", "(profile.mjs)", "run"]);
const table = (title, map) => {
  console.log(`\n${title}`);
  const rows = [...map].filter(([name]) => !skip.has(name)).sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, us] of rows) {
    console.log(`${(us / 1e3).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name.slice(0, 150)}`);
  }
};
console.log(`profile: ${workload}, ${n.toLocaleString("en-US")} events, ${wall.toFixed(0)} ms under the profiler (${pkgDir})`);
table("self time (the function's own code, inlined callees included)", self);
table("inclusive time (the function and everything it called)", incl);

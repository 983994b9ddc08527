// Every part-1 function of the reference's surface, timed on the arguments the reference's own tests
// pass (../shared/reference/calls/), side by side with the reference when a local build of it is
// given:
//
//   LIME_REFERENCE_DIR=/path/to/lime node bench/surface.mjs [--quick] [--runs k] [--out bench/SURFACE.md] [module ...]
//
// `--runs k`: the whole measurement in k processes one after the other, each function's ratio
// the median of the k (with their range). On a shared machine one process's ratios near 2x swing
// by up to 2x between runs (the state of the heap and of V8's tiers differs per process); a
// verdict needs several.
//
// LIME_REFERENCE_DIR names a local build of the reference packages agent-ui-contracts and
// agent-runtime-projection (their dist/ folders; bench/README.md, "Reference builds"); nothing of
// it is kept here. Without it, only our timings are printed.
//
// Each side of a call first runs for a while (steady state: V8 optimizes hot WebAssembly
// functions as it does hot JS). A call is then timed in rounds of repetitions, ours and the
// reference's alternating (so a change of machine load hits both); its ratio is the median of
// the per-round ratios. Factories replay their recorded method calls on a fresh object each
// time. A function's time is the sum over its recorded calls of their median times; its ratio
// weighs each call's ratio by the reference's time for it. Functions without recorded calls are
// timed on the conformance fixtures' events. Prints a table per function: ours, the
// reference's, and the ratio (ours / reference; > 1 is slower), then the functions over 2x.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { decodeCall } from "../tests/js/reference.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outIndex = args.indexOf("--out");
const outFile = outIndex >= 0 ? args[outIndex + 1] : undefined;
const runsIndex = args.indexOf("--runs");
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 1;
// A run of `--runs` prints its rows as JSON for the process that started it.
const asJson = args.includes("--json");
const optionValues = new Set([outIndex, runsIndex].filter((i) => i >= 0).map((i) => i + 1));
const onlyModules = args.filter((a, i) => !a.startsWith("--") && !optionValues.has(i));
const referenceDir = join(root, "..", "shared", "reference");

const ours = await import(pathToFileURL(join(root, "pkg", "index.node.js")).href);
let reference;
const lime = process.env.LIME_REFERENCE_DIR;
if (lime) {
  const projection = join(lime, "packages", "agent-runtime-projection", "dist", "index.js");
  const contracts = join(lime, "packages", "agent-ui-contracts", "dist", "index.js");
  if (!existsSync(projection) || !existsSync(contracts)) {
    throw new Error(`LIME_REFERENCE_DIR: build ${projection} and ${contracts} with tsc first`);
  }
  reference = { ...(await import(pathToFileURL(contracts).href)), ...(await import(pathToFileURL(projection).href)) };
}

const surface = JSON.parse(readFileSync(join(referenceDir, "surface.json"), "utf8"));
const fixtures = ours.agentUiConformanceFixtures;
const fixtureEvents = fixtures.flatMap((f) => f.events);
// The read-model projections of the fixtures' events (the tool surface's input), per side.
const projectionsOf = (api) => api.projectAgentRuntimeReadModel({ executionEvents: fixtureEvents }).events;

/** Synthetic cases for functions the reference's tests never call: (api) => () => void. */
const synthetic = {
  projectAgentUiToolSurface: (api) => {
    const projections = projectionsOf(api);
    return () => api.projectAgentUiToolSurface(projections);
  },
  projectAgentUiMcpSurface: (api) => {
    const surface = api.projectAgentUiToolSurface(projectionsOf(api));
    return () => api.projectAgentUiMcpSurface(surface);
  },
  parseAgentUiMcpToolName: (api) => () => api.parseAgentUiMcpToolName("mcp__github__search_issues"),
  classifyAgentUiMcpOperationKind: (api) => () => api.classifyAgentUiMcpOperationKind("mcp__github__search_issues"),
  runtimeStatusForEvents: (api) => () => api.runtimeStatusForEvents(fixtureEvents),
  createRuntimeStatusAccumulator: (api) => () => {
    const acc = api.createRuntimeStatusAccumulator();
    for (const event of fixtureEvents) acc.apply(event);
  },
  createAgentRuntimeReadModelAccumulator: (api) => () => {
    const acc = api.createAgentRuntimeReadModelAccumulator();
    for (const event of fixtureEvents) acc.apply(event);
  },
  createAgentUiSubagentsModelAccumulator: (api) => () => {
    const acc = api.createAgentUiSubagentsModelAccumulator();
    for (const event of fixtureEvents) acc.apply(event);
  },
  readAgentRuntimeStateDelta: (api) => () => {
    for (const event of fixtureEvents) api.readAgentRuntimeStateDelta(event);
  },
  applyAgentRuntimeStateDeltasToProjectionState: (api) => {
    const state = api.projectAgentUiState({ executionEvents: fixtureEvents });
    return () => api.applyAgentRuntimeStateDeltasToProjectionState(state, fixtureEvents);
  },
  applyAgentRuntimeStateDeltaToProjectionState: (api) => {
    const state = api.projectAgentUiState({ executionEvents: fixtureEvents });
    const delta = fixtureEvents.find((e) => e.eventClass === "state.delta") ?? fixtureEvents[0];
    return () => api.applyAgentRuntimeStateDeltaToProjectionState(state, delta);
  },
  agentEventStatusLabel: (api) => () => fixtureEvents.forEach((e) => api.agentEventStatusLabel(e.status)),
  agentEventStatusKey: (api) => () => fixtureEvents.forEach((e) => api.agentEventStatusKey(e.status)),
  agentEventDisplayStatusKey: (api) => () => fixtureEvents.forEach((e) => api.agentEventDisplayStatusKey(e)),
  agentEventActionKind: (api) => () => fixtureEvents.forEach((e) => api.agentEventActionKind(e)),
  agentEventTargetModule: (api) => () => fixtureEvents.forEach((e) => api.agentEventTargetModule(e)),
  projectAgentRuntimeAction: (api) => () => fixtureEvents.forEach((e) => api.projectAgentRuntimeAction(e)),
  agentEventSurface: (api) => () => fixtureEvents.forEach((e) => api.agentEventSurface(e)),
  projectAgentRuntimeEvent: (api) => () => fixtureEvents.forEach((e) => api.projectAgentRuntimeEvent(e)),
  buildAgentUiCollaborationPayloadMetadata: (api) => () =>
    api.buildAgentUiCollaborationPayloadMetadata({
      sourceType: "item_started",
      surface: "team_roster",
      metadata: { collaborationFacts: { collaborationPhase: "running", riskLevel: "low" } },
    }),
  projectAppServerEvidenceExportToExecutionEvents: undefined,
};

/**
 * Call `fn` for about `ms` milliseconds (at least 20 times). The same in quick runs: with 10 ms,
 * a function called rarely (one recorded call of ~25 µs) was timed before V8 had optimized it,
 * at 14x the reference instead of 2.7x.
 */
function warm(fn, ms = 40) {
  const start = performance.now();
  for (let n = 0; n < 20 || performance.now() - start < ms; n++) sink = fn();
}

/** How many calls of `fn` take about 2 ms. */
function calibrate(fn) {
  let reps = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) sink = fn();
    if (performance.now() - t > 2 || reps > 1e6) return reps;
    reps *= 4;
  }
}

// Results go to a sink, so the engine cannot drop a call whose result is unused.
let sink;

function round(fn, reps) {
  const t = performance.now();
  for (let i = 0; i < reps; i++) sink = fn();
  return ((performance.now() - t) / reps) * 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * `{a, b, ratio}`: median ns per call of `a` and of `b` and the median of the per-round ratios
 * a/b, the two timed in alternating rounds so that a change of machine load hits both.
 */
function measurePair(a, b, budgetMs) {
  // Steady state: each side runs for a while first, so that the engines have optimized what the
  // call runs (V8 compiles a WebAssembly function with its optimizing tier only once it is hot,
  // as it does JS; a function called a few hundred times is timed mostly before that).
  warm(a);
  if (b) warm(b);
  const repsA = calibrate(a);
  const repsB = b ? calibrate(b) : 0;
  const rounds = quick ? 5 : 11;
  const ta = [];
  const tb = [];
  const ratios = [];
  const start = performance.now();
  for (let r = 0; r < rounds; r++) {
    const x = round(a, repsA);
    ta.push(x);
    if (b) {
      const y = round(b, repsB);
      tb.push(y);
      ratios.push(x / y);
    }
    if (r >= 2 && performance.now() - start > budgetMs) break;
  }
  return { a: median(ta), b: b ? median(tb) : undefined, ratio: b ? median(ratios) : undefined };
}

/** A callable replaying one recorded call on `api` (throws are part of the call). */
function replayer(api, call) {
  const fnName = call.name;
  if (call.kind === "value") return undefined;
  const args = decodeCall(call.args ?? []);
  const steps = (call.steps ?? []).map((s) => ({ method: s.method, args: decodeCall(s.args ?? []) }));
  const target = api[fnName];
  if (typeof target !== "function") return undefined;
  return () => {
    let made;
    try {
      made = call.kind === "construct" ? new target(...args) : target(...args);
    } catch (error) {
      return error;
    }
    let last = made;
    for (const step of steps) {
      try {
        last = made[step.method](...step.args);
      } catch (error) {
        last = error;
      }
    }
    return last;
  };
}

function modulesToRun() {
  const names = Object.entries(surface.modules).filter(([, info]) => info.part === 1).map(([name]) => name);
  return onlyModules.length > 0 ? names.filter((n) => onlyModules.includes(n)) : names;
}

const budget = quick ? 40 : 150;
const rows = runs > 1 ? severalRuns() : oneRun();

/** The rows of `runs` runs, each in a process of its own: per function the median ratio. */
function severalRuns() {
  // Every argument but `--runs k` and `--out file` (the table is written here).
  const dropped = new Set([runsIndex, outIndex].filter((i) => i >= 0).flatMap((i) => [i, i + 1]));
  const childArgs = args.filter((a, i) => !dropped.has(i));
  const all = [];
  for (let r = 0; r < runs; r++) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...childArgs, "--json"], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (child.status !== 0) throw new Error(`surface: run ${r + 1} of ${runs} failed (${child.status})`);
    all.push(JSON.parse(child.stdout));
  }
  const middle = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return all[0].map((row, i) => {
    const same = all.map((rs) => rs[i]);
    const ratios = same.map((x) => x.ratio).filter((x) => x !== undefined);
    if (ratios.length === 0) return row;
    return {
      ...row,
      oursNs: middle(same.map((x) => x.oursNs)),
      refNs: middle(same.map((x) => x.refNs)),
      ratio: middle(ratios),
      range: [Math.min(...ratios), Math.max(...ratios)],
    };
  });
}

function oneRun() {
const rows = [];
for (const module of modulesToRun()) {
  const info = surface.modules[module];
  const file = join(referenceDir, "calls", "projection", `${module}.json`);
  const calls = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).calls : [];
  for (const name of info.values) {
    const recorded = calls.filter((c) => c.name === name && c.kind !== "value");
    const isConstant = calls.some((c) => c.name === name && c.kind === "value") || typeof ours[name] !== "function";
    if (isConstant) continue;
    let oursNs = 0;
    let refNs = reference ? 0 : undefined;
    // The function's ratio: the per-call ratios weighted by the reference's time of each call.
    let weighted = 0;
    let source = "recorded";
    const cases = [];
    if (recorded.length > 0) {
      for (const call of recorded) {
        const a = replayer(ours, call);
        if (a) cases.push([a, reference ? replayer(reference, call) : undefined]);
      }
    } else if (synthetic[name]) {
      source = "fixtures";
      cases.push([synthetic[name](ours), reference ? synthetic[name](reference) : undefined]);
    } else {
      rows.push({ module, name, source: "no calls", oursNs: undefined, refNs: undefined, calls: 0 });
      continue;
    }
    for (const [a, b] of cases) {
      const m = measurePair(a, b, budget / cases.length);
      oursNs += m.a;
      if (b) {
        refNs += m.b;
        weighted += m.ratio * m.b;
      }
    }
    const ratio = reference && refNs > 0 ? weighted / refNs : undefined;
    rows.push({ module, name, source, oursNs, refNs, ratio, calls: recorded.length });
  }
}
return rows;
}

if (asJson) {
  process.stdout.write(JSON.stringify(rows));
  process.exit(0);
}

const fmt = (ns) => (ns === undefined ? "" : ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);
const lines = [];
lines.push(`# Part-1 functions against the reference`);
lines.push("");
lines.push(`Node ${process.version}; ${reference ? "reference: LIME_REFERENCE_DIR build" : "no reference given (ours only)"}; ${quick ? "quick" : "full"} ${runs > 1 ? `runs: ${runs} processes, the median of their times and ratios (range in brackets)` : "run"}. Time per function = the sum over its recorded calls of each call's median time (factories replay their recorded steps); "fixtures" = no recorded call, timed on the 13 conformance fixtures' events. Ratio = ours / reference (> 1: slower), the median of alternating rounds per call, weighted by the reference's time per call.`);
lines.push("");
lines.push("| module | function | cases | ours | reference | ratio |");
lines.push("|---|---|---|---:|---:|---:|");
for (const r of rows) {
  const ratio = r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}${r.range ? ` (${r.range[0].toFixed(2)}-${r.range[1].toFixed(2)})` : ""}`;
  lines.push(`| ${r.module} | ${r.name} | ${r.source === "recorded" ? r.calls : r.source} | ${fmt(r.oursNs)} | ${fmt(r.refNs)} | ${ratio} |`);
}
if (reference) {
  const slow = rows.filter((r) => r.ratio !== undefined && r.ratio > 2);
  lines.push("");
  lines.push(`Over 2x slower than the reference: ${slow.length === 0 ? "none" : slow.map((r) => `${r.name} (${r.ratio.toFixed(2)}x)`).join(", ")}.`);
}
const text = `${lines.join("\n")}\n`;
if (sink === Symbol.for("never")) console.log(sink);
process.stdout.write(text);
if (outFile) writeFileSync(outFile, text);

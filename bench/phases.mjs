// Where the slowest 1% of live events spend their time: inside the wasm `apply`, in
// `take_patch`, or in JS (JSON.stringify of the event, patch parse and `applyPatch`, GC); and
// where a batch projection spends its time, step by step.
//
//   node --expose-gc bench/phases.mjs state [n]   createAgentUiProjector().apply, state every event (default 20,000)
//   node --expose-gc bench/phases.mjs live [n]    createProjector().apply, no state read (default 100,000)
//   node --expose-gc bench/phases.mjs batch [n]   projectAgentUiState, by step (default 20,000)
//   node --expose-gc bench/phases.mjs short [k]   projectAgentUiState of short inputs, by step (k calls each)
//   node --expose-gc bench/phases.mjs delta [k]   the state-delta functions: the module's calls and the JS around them
//
// The batch mode takes the steps of `projectAgentUiState` one by one through the package's
// internals (JSON.stringify of the input, its UTF-8 copy into wasm memory, the wasm `project`
// with the decoding of its output text, JSON.parse of that text, the wire decoding walk) and
// prints the median of each over 5 runs after a warm-up, next to the JSON round-trip floor.
//
// The short mode does the same for the inputs the side-by-side table calls short (10 and 56
// generated events, each standard fixture), which take the tape path (`project_tape`, read by
// `tapeOf`) rather than the wire text: per input, the median µs per call of each step over `k`
// calls (default 20,000) after a warm-up, the whole `projectAgentUiState` call timed in the
// same loop, and the module's fixed cost (a batch of no events through `project_tape`).
//
// The delta mode times `applyAgentRuntimeStateDeltaToProjectionState` (the standard fixtures'
// `state.delta` event) and `applyAgentRuntimeStateDeltasToProjectionState` (all their 68 events)
// over the state of those events, `k` calls each (default 20,000) after a warm-up: the mean µs of
// a call, of each `WasmStateDeltaPass` method it calls (wrapped with timers: `run` is the module
// reading the state's part, running the deltas, diffing and writing the tape), and the rest,
// which is the wrapper's JS (the event's and the part's text, the tape read, the patch) and
// making and freeing the pass.
//
// It wraps the package's `WasmProjector.prototype.apply` / `take_patch` with timers, so the
// phases of each event are measured inside one ordinary run. Prints mean µs per phase over all
// events and over the slowest 1%, where in the stream the slowest 1% fall, and (by event class)
// which classes are over-represented among them.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const mode = process.argv[2] ?? "state";
if (!["state", "live", "batch", "short", "delta"].includes(mode)) {
  console.error("phases: mode must be state, live, batch, short or delta");
  process.exit(2);
}
const n = Number(process.argv[3] ?? (mode === "live" ? 100_000 : 20_000));
const pkg = join(root, "pkg");
const api = await import(pathToFileURL(join(pkg, "index.node.js")).href);
const glue = await import(pathToFileURL(join(pkg, "glue", "agent_runtime_projection.js")).href);

if (mode === "short") {
  const at = (file) => import(pathToFileURL(join(pkg, file)).href);
  const { jsonText, putText, tapeOf } = await at("boundary.js");
  const { shareBatchViews } = await at("wire.js");
  const { shareEmptySurfaces } = await at("empty-surfaces.js");
  const calls = Number(process.argv[3] ?? 20_000);
  const inputs = [
    ["generated, 10 events", api.generateRuntimeEvents(10, 42)],
    ["generated, 56 events", api.generateRuntimeEvents(56, 42)],
    ...api.agentUiConformanceFixtures.map((f) => [`fixture ${f.id} (${f.events.length})`, f.events]),
  ];
  const names = ["JSON text", "UTF-8 copy", "wasm project_tape", "tape read", "views shared", "projectAgentUiState"];
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  /** The median µs of each step of `calls` batches of `events`, after a warm-up. */
  const stepsOf = (events) => {
    const times = names.map(() => new Float64Array(calls));
    for (let c = -Math.min(calls, 2_000); c < calls; c++) {
      const t0 = performance.now();
      const text = jsonText(events, "phases");
      const t1 = performance.now();
      const len = putText(text);
      const t2 = performance.now();
      const at = glue.project_tape(len, undefined, false);
      const t3 = performance.now();
      const state = tapeOf(at, events);
      const t4 = performance.now();
      shareEmptySurfaces(shareBatchViews(state, events), undefined, events, "phases");
      const t5 = performance.now();
      api.projectAgentUiState({ executionEvents: events });
      const t6 = performance.now();
      if (c < 0) continue;
      [t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5].forEach((t, k) => (times[k][c] = t * 1e3));
    }
    return times.map((xs) => median(Array.from(xs)));
  };
  console.log(`phases: short inputs, median µs per call of ${calls.toLocaleString("en-US")} (steps timed one by one; the last column is the whole call)`);
  console.log(`| input | ${names.join(" | ")} |\n|---|${names.map(() => "---:").join("|")}|`);
  for (const [name, events] of inputs) console.log(`| ${name} | ${stepsOf(events).map((t) => t.toFixed(1)).join(" | ")} |`);
  const none = stepsOf([]);
  console.log(`module's fixed cost (a batch of no events through project_tape, then its tape read): ${none[2].toFixed(1)} + ${none[3].toFixed(1)} µs`);
  process.exit(0);
}

if (mode === "delta") {
  const calls = Number(process.argv[3] ?? 20_000);
  const events = api.agentUiConformanceFixtures.flatMap((f) => f.events);
  const state = api.projectAgentUiState({ executionEvents: events });
  const delta = events.find((e) => e.eventClass === "state.delta");
  const proto = glue.WasmStateDeltaPass.prototype;
  const spent = new Map();
  for (const name of ["is_empty", "needed", "run", "later_areas", "more"]) {
    const inner = proto[name];
    spent.set(name, 0);
    proto[name] = function (...args) {
      const t = performance.now();
      try {
        return inner.apply(this, args);
      } finally {
        spent.set(name, spent.get(name) + performance.now() - t);
      }
    };
  }
  const perCall = (ms) => ((ms * 1e3) / calls).toFixed(1);
  console.log(`phases: delta, mean µs per call of ${calls.toLocaleString("en-US")}, over the state of the standard fixtures' ${events.length} events`);
  console.log(`| function | call | ${[...spent.keys()].join(" | ")} | the rest |\n|---|---:|${[...spent.keys()].map(() => "---:").join("|")}|---:|`);
  for (const [name, fn] of [
    ["applyAgentRuntimeStateDeltaToProjectionState", () => api.applyAgentRuntimeStateDeltaToProjectionState(state, delta)],
    ["applyAgentRuntimeStateDeltasToProjectionState", () => api.applyAgentRuntimeStateDeltasToProjectionState(state, events)],
  ]) {
    for (let c = 0; c < Math.min(calls, 2_000); c++) fn();
    for (const key of spent.keys()) spent.set(key, 0);
    const t = performance.now();
    for (let c = 0; c < calls; c++) fn();
    const total = performance.now() - t;
    const inModule = [...spent.values()].reduce((a, b) => a + b, 0);
    console.log(`| ${name} | ${perCall(total)} | ${[...spent.values()].map(perCall).join(" | ")} | ${perCall(total - inModule)} |`);
  }
  process.exit(0);
}

if (mode === "batch") {
  const { core } = await import(pathToFileURL(join(pkg, "core.js")).href);
  const { decodeWire } = await import(pathToFileURL(join(pkg, "wire.js")).href);
  const events = api.generateRuntimeEvents(n, 42);
  const encoder = new TextEncoder();
  const steps = { "JSON.stringify of the input": [], "UTF-8 copy into wasm memory": [], "wasm project + output text decoding": [], "JSON.parse of the output": [], "wire decoding walk": [], total: [], "floor: JSON.parse(JSON.stringify(events))": [] };
  let outputChars = 0;
  for (let run = 0; run < 6; run++) {
    globalThis.gc?.();
    const t0 = performance.now();
    const text = JSON.stringify(events);
    const t1 = performance.now();
    // As the package's putText, in one encodeInto.
    const ptr = glue.input_buffer(text.length * 3 + 16); // room for any text: 3 bytes a UTF-16 unit
    const { written } = encoder.encodeInto(text, new Uint8Array(core.exports.memory.buffer, ptr, text.length * 3 + 16));
    const t2 = performance.now();
    const out = glue.project(written, undefined);
    const t3 = performance.now();
    const parsed = JSON.parse(out);
    const t4 = performance.now();
    decodeWire(parsed, events);
    const t5 = performance.now();
    outputChars = out.length;
    const floorStart = performance.now();
    JSON.parse(JSON.stringify(events));
    const floor = performance.now() - floorStart;
    if (run === 0) continue;
    const times = [t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0, floor];
    Object.values(steps).forEach((xs, k) => xs.push(times[k]));
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  console.log(`phases: batch, ${n.toLocaleString("en-US")} events, output ${(outputChars / 1e6).toFixed(1)}M characters (median ms of 5 runs)`);
  for (const [step, xs] of Object.entries(steps)) console.log(`  ${step.padEnd(42)} ${median(xs).toFixed(1)}`);
  process.exit(0);
}

let tApply = 0;
let tPatch = 0;
const proto = glue.WasmProjector.prototype;
const apply = proto.apply;
const takePatch = proto.take_patch;
proto.apply = function (...args) {
  const t = performance.now();
  const r = apply.apply(this, args);
  tApply = performance.now() - t;
  return r;
};
proto.take_patch = function () {
  const t = performance.now();
  const r = takePatch.call(this);
  tPatch = performance.now() - t;
  return r;
};

const events = JSON.parse(JSON.stringify(api.generateRuntimeEvents(n, 42)));
const p = mode === "state" ? api.createAgentUiProjector() : api.createProjector();
const rows = [];
for (let i = 0; i < n; i++) {
  tApply = 0;
  tPatch = 0;
  const t = performance.now();
  p.apply(events[i]);
  const total = performance.now() - t;
  rows.push({ i, total, wasm: tApply, patch: tPatch, js: total - tApply - tPatch });
}
p.free?.();

const sorted = rows.slice().sort((a, b) => b.total - a.total);
const top = sorted.slice(0, Math.max(1, Math.floor(n / 100)));
const us = (xs, k) => ((xs.reduce((s, r) => s + r[k], 0) / xs.length) * 1e3).toFixed(0);
const line = (label, xs) =>
  `${label}: total ${us(xs, "total")}, wasm apply ${us(xs, "wasm")}, take_patch ${us(xs, "patch")}, JS ${us(xs, "js")} µs (mean)`;
console.log(`phases: ${mode}, ${n.toLocaleString("en-US")} events`);
console.log(line("all events", rows));
console.log(line("slowest 1%", top));
const p99 = sorted[top.length - 1].total;
console.log(`p99 ${(p99 * 1e3).toFixed(1)} µs; slowest 1% in the last fifth of the stream: ${((100 * top.filter((r) => r.i >= n * 0.8).length) / top.length).toFixed(0)}%`);
const byClass = {};
for (const r of rows) {
  const c = events[r.i].eventClass ?? events[r.i].kind ?? "?";
  byClass[c] ??= { all: 0, slow: 0 };
  byClass[c].all++;
  if (r.total >= p99) byClass[c].slow++;
}
const classes = Object.entries(byClass)
  .filter(([, v]) => v.slow > 0)
  .sort((a, b) => b[1].slow / b[1].all - a[1].slow / a[1].all)
  .slice(0, 8);
console.log("share of each class's events in the slowest 1% (top 8):");
for (const [c, v] of classes) console.log(`  ${c}: ${((100 * v.slow) / v.all).toFixed(1)}% of ${v.all}`);

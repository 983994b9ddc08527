// The two projection paths side by side with the TypeScript reference, in one process, warm:
// batch `projectAgentUiState` and `createAgentUiProjector().apply` reading the state after every
// event, on generated streams of 10, 56 (one turn), 200 and 1,000 events and on the 13 standard
// fixtures.
//
//   LIME_REFERENCE_DIR=/path/to/lime node --expose-gc bench/sidebyside.mjs [--quick] [--out file.md]
//
// LIME_REFERENCE_DIR names a local build of the reference packages (bench/README.md, "Reference
// builds"; nothing of it is kept here); without it only our side is timed. Each measure runs in rounds,
// ours and the reference's alternating (a change of machine load hits both); a row shows each
// side's median round and the median of the per-round ratios (ours / reference: < 1 is faster).
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { streamedMessage } from "./workloads.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outIndex = args.indexOf("--out");
const outFile = outIndex >= 0 ? args[outIndex + 1] : undefined;

const ours = await import(pathToFileURL(join(root, "pkg", "index.node.js")).href);
// The package's internals, for the boundary floor of a batch (see `floorOf`).
const glue = await import(pathToFileURL(join(root, "pkg", "glue", "agent_runtime_projection.js")).href);
const { putText } = await import(pathToFileURL(join(root, "pkg", "boundary.js")).href);
const { parseWire } = await import(pathToFileURL(join(root, "pkg", "wire.js")).href);
let reference;
const lime = process.env.LIME_REFERENCE_DIR;
if (lime) {
  const projection = join(lime, "packages", "agent-runtime-projection", "dist", "index.js");
  if (!existsSync(projection)) throw new Error(`LIME_REFERENCE_DIR: build ${projection} with tsc first`);
  reference = await import(pathToFileURL(projection).href);
}

let sink;

/** Calls of `fn` per round so that a round takes about `ms` (at least 1). */
function calibrate(fn, ms) {
  let reps = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) sink = fn();
    const took = performance.now() - t;
    if (took > ms || reps >= 1 << 16) return Math.max(1, Math.round((reps * ms) / Math.max(took, 1e-3)));
    reps *= 2;
  }
}

function timeRound(fn, reps) {
  const t = performance.now();
  for (let i = 0; i < reps; i++) sink = fn();
  return (performance.now() - t) / reps;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// How long each side of a row runs before it is timed.
const WARM_MS = 150;

/**
 * Median ms per call of each side's `fn`, and the median per-round ratio (ours / reference).
 * `floor`, when given, is timed in the same rounds: its median, and the median per-round ratio
 * of it to the reference's side.
 */
function measure(make, rounds, roundMs, floor) {
  const sides = reference ? [ours, reference] : [ours];
  const fns = sides.map((api) => make(api));
  if (floor) fns.push(floor);
  // Each side runs for a while first: V8 optimizes hot JS and tiers hot WebAssembly up only
  // after many calls, and the first rows would otherwise time code still on its way there (the
  // 10-event row measured 1.3x and 3.9x the reference in two runs of one build with 3 calls).
  fns.forEach((fn) => {
    const start = performance.now();
    for (let i = 0; i < 3 || performance.now() - start < WARM_MS; i++) sink = fn();
  });
  const reps = fns.map((fn) => calibrate(fn, roundMs));
  const times = fns.map(() => []);
  const ratios = [];
  const floorRatios = [];
  for (let r = 0; r < rounds; r++) {
    globalThis.gc?.();
    const t = fns.map((fn, i) => timeRound(fn, reps[i]));
    t.forEach((x, i) => times[i].push(x));
    if (reference) ratios.push(t[0] / t[1]);
    if (reference && floor) floorRatios.push(t[2] / t[1]);
  }
  return {
    ours: median(times[0]),
    reference: reference ? median(times[1]) : undefined,
    ratio: reference ? median(ratios) : undefined,
    floor: floor ? median(times[fns.length - 1]) : undefined,
    floorRatio: floorRatios.length > 0 ? median(floorRatios) : undefined,
  };
}

const batch = (events) => (api) => () => api.projectAgentUiState({ executionEvents: events });

/**
 * What a batch pays at the JS boundary alone, with the module's work taken as free: the input's
 * `JSON.stringify` and the `JSON.parse` + wire decoding of the package's own result text for
 * these events. A short stream whose floor exceeds the reference's whole batch cannot be projected
 * faster than the reference through JSON text, however fast the core.
 */
function floorOf(events) {
  const text = glue.project(putText(JSON.stringify(events)), undefined, false);
  return () => {
    sink = JSON.stringify(events);
    return parseWire(text, events);
  };
}
const live = (events) => (api) => () => {
  const p = api.createAgentUiProjector();
  let state;
  for (const e of events) state = p.apply(e);
  p.free?.();
  return state;
};


/**
 * One turn running one long tool call: a start and `n - 1` progress events of the same call (a
 * long command streaming its progress; the call's event list grows with every event).
 */
function longToolCall(n) {
  const at = "2026-07-01T09:00:00.000Z";
  const events = [];
  for (let i = 0; i < n; i++) {
    events.push({
      id: `p${i}`, sequence: i + 1, eventClass: i === 0 ? "tool.started" : "tool.progress", kind: "tool", status: "running",
      turnId: "turn1", toolCallId: "call1", title: `step ${i}`, createdAt: at, payload: { toolName: "long_tool", progress: i },
    });
  }
  return events;
}

const workloads = [
  ...[10, 56, 200, 1000].map((n) => ({ name: `generated, ${n.toLocaleString("en-US")} events`, events: ours.generateRuntimeEvents(n, 42) })),
  { name: "one message streamed in 2,000 deltas", events: streamedMessage(2000) },
  { name: "one tool call of 500 events", events: longToolCall(500) },
  ...ours.agentUiConformanceFixtures.map((f) => ({ name: `fixture \`${f.id}\` (${f.events.length})`, events: f.events })),
];

const fmt = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);
const lines = [];
const header = reference
  ? "| stream | batch: ours / reference (ratio) | batch's boundary floor (ratio to the reference's batch) | apply, state after every event, per event: ours / reference (ratio) |\n|---|---|---|---|"
  : "| stream | batch: ours | batch's boundary floor | apply, state after every event, per event: ours |\n|---|---|---|---|";
lines.push(header);
for (const w of workloads) {
  const n = w.events.length;
  const big = n >= 1000;
  const rounds = quick ? 5 : big ? 9 : 21;
  const b = measure(batch(w.events), rounds, big ? 40 : 20, floorOf(w.events));
  const l = measure(live(w.events), quick ? 3 : big ? 5 : 15, big ? 200 : 30);
  const per = (x) => (x === undefined ? undefined : x / n);
  const cell = (r, scale = (x) => x) =>
    reference
      ? `${fmt(scale(r.ours))} / ${fmt(scale(r.reference))} (${r.ratio.toFixed(2)}x)`
      : fmt(scale(r.ours));
  const floorCell = reference ? `${fmt(b.floor)} (${b.floorRatio.toFixed(2)}x)` : fmt(b.floor);
  const row = `| ${w.name} | ${cell(b)} | ${floorCell} | ${cell(l, per)} |`;
  lines.push(row);
  console.error(row);
}
const text = `${lines.join("\n")}\n`;
if (outFile) writeFileSync(outFile, text);
else process.stdout.write(text);
void sink;

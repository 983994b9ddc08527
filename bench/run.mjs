// Benchmark of the built package (pkg/) through its public JS API, on Node.
//
//   node --expose-gc bench/run.mjs [--quick] [--native <file with the native Markdown table>]
//     [--sidebyside <file with bench/sidebyside.mjs's table>]
//
// Streams come from the package's own generator (`generateRuntimeEvents`, seed 42, default
// options). Every figure is the median of several runs; the per-event figures come from timing
// each call with performance.now(). Writes bench/RESULTS.md and prints it.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { cpus } from "node:os";
import { execFileSync } from "node:child_process";
import { makeFloorState } from "./floor.mjs";
import { mean, median, perEvent, perEventRuns as perEventRunsOf, quantile } from "./stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkgDir = join(root, "pkg");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const sideAt = args.indexOf("--sidebyside");
const sideFile = sideAt >= 0 ? args[sideAt + 1] : undefined;
const nativeAt = args.indexOf("--native");
const nativeFile = nativeAt >= 0 ? args[nativeAt + 1] : undefined;

const entry = join(pkgDir, "index.node.js");
if (!existsSync(entry)) {
  console.error(`bench: ${entry} is missing; build the package first (bash scripts/build-pkg.sh)`);
  process.exit(1);
}
const api = await import(pathToFileURL(entry).href);
/** Bytes of the module's linear memory (it only grows), when the loader exposes it. */
async function wasmMemoryBytes() {
  try {
    const { core } = await import(pathToFileURL(join(pkgDir, "core.js")).href);
    return core?.exports?.memory?.buffer?.byteLength;
  } catch {
    return undefined;
  }
}

const SEED = 42;
const RUNS = quick ? { small: 3, mid: 2, large: 1 } : { small: 9, mid: 5, large: 3 };
const gc = typeof globalThis.gc === "function" ? globalThis.gc : () => {};

// ---------------------------------------------------------------------------------------------
// Helpers

const fmtInt = (n) => Math.round(n).toLocaleString("en-US");
const fmtMs = (x) => `${x.toFixed(1)} ms`;
const fmtUs = (x) => `${x.toFixed(2)} µs`;
const fmtKB = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Median wall time (ms) of `runs` calls of `fn(setup())`, after one warm-up call (skipped for
 * the largest streams, which warm up by themselves); `teardown` gets each input afterwards
 * (untimed).
 */
function timeMs(runs, fn, setup = () => undefined, teardown = () => {}, warmUp = true) {
  if (warmUp) {
    const warm = setup();
    fn(warm);
    teardown(warm);
  }
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const input = setup();
    gc();
    const t = performance.now();
    fn(input);
    samples.push(performance.now() - t);
    teardown(input);
  }
  return median(samples);
}

/** Release a lean projector's wasm memory when it can be released explicitly. */
const release = (p) => (typeof p?.free === "function" ? p.free() : undefined);

/** The median of each per-event statistic over `runs` runs; `make` gives `[step, done]`. */
const perEventRuns = (runs, events, make) => perEventRunsOf(runs, events, make, gc);

const rows = [];
/** One table row; `ok` is true/false against the target, or undefined where none applies. */
function row(what, n, result, target = "", ok = undefined) {
  rows.push({ what, n: n === "" ? "" : fmtInt(n), result, target, ok });
  const mark = ok === undefined ? "" : ok ? " ✔" : " ✘";
  console.error(`  ${what} [${n}] ${result}${mark}`);
}

// ---------------------------------------------------------------------------------------------
// Streams

console.error("bench: generating streams");
const genStart = performance.now();
const all = api.generateRuntimeEvents(100_000, SEED);
const genMs = performance.now() - genStart;
const stream = { 1_000: all.slice(0, 1_000), 20_000: all.slice(0, 20_000), 100_000: all };
const bytes20k = Buffer.byteLength(JSON.stringify(stream[20_000]));
row("generateRuntimeEvents (package generator)", 100_000, `${fmtMs(genMs)} (1 run)`);

// ---------------------------------------------------------------------------------------------
// Batch projection and the JSON floor

console.error("bench: batch projection");
const batch = {};
for (const [n, runs] of [[1_000, RUNS.small], [20_000, RUNS.mid], [100_000, RUNS.large]]) {
  batch[n] = timeMs(runs, () => api.projectAgentUiState({ executionEvents: stream[n] }), undefined, undefined, n < 100_000);
}
const floor20k = timeMs(RUNS.mid, () => JSON.parse(JSON.stringify(stream[20_000])));
row("`projectAgentUiState`", 1_000, fmtMs(batch[1_000]));
row("`projectAgentUiState`", 20_000, `${fmtMs(batch[20_000])} (${fmtUs((batch[20_000] * 1e3) / 20_000)}/event)`);
row(
  `floor: \`JSON.parse(JSON.stringify(events))\` (${(bytes20k / 1e6).toFixed(1)} MB)`,
  20_000,
  fmtMs(floor20k),
);
const ratio20k = batch[20_000] / floor20k;
row("batch / floor", 20_000, `${ratio20k.toFixed(2)}×`, "≤ 3×", ratio20k <= 3);
row("`projectAgentUiState`", 100_000, fmtMs(batch[100_000]), "< 1.5 s", batch[100_000] < 1_500);

/** The numbers a module script prints on its last line, run in a fresh Node process. */
function freshProcessNumbers(script) {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", maxBuffer: 1 << 26 });
  return out.trim().split(" ").map(Number);
}

/**
 * The first batch projection of a fresh process (what a page load pays): the module's memory
 * still has to grow and V8 compiles functions on first use. Median of `runs` child processes.
 */
/** Median time of the first batch call in fresh processes, and the wasm memory after it. */
function firstCall(n, runs) {
  const script = `
    const api = await import(${JSON.stringify(pathToFileURL(entry).href)});
    const { core } = await import(${JSON.stringify(pathToFileURL(join(pkgDir, "core.js")).href)});
    const events = api.generateRuntimeEvents(${n}, ${SEED});
    const t = performance.now();
    api.projectAgentUiState({ executionEvents: events });
    console.log(performance.now() - t, core.exports.memory.buffer.byteLength);`;
  const samples = [];
  const memory = [];
  for (let i = 0; i < runs; i++) {
    const [ms, bytes] = freshProcessNumbers(script);
    samples.push(ms);
    memory.push(bytes);
  }
  return { ms: median(samples), memoryMB: median(memory) / 1e6 };
}
for (const n of [20_000, 100_000]) {
  const runs = n < 100_000 ? RUNS.large : 1;
  const first = firstCall(n, runs);
  const ratio = first.ms / batch[n];
  row(
    `\`projectAgentUiState\`, first call in a fresh process (${runs === 1 ? "1 run" : `median of ${runs}`}): time; wasm memory after it; against the warm batch above`,
    n,
    `${fmtMs(first.ms)}; ${first.memoryMB.toFixed(0)} MB; ${ratio.toFixed(2)}×`,
    "≤ 1.5× warm",
    ratio <= 1.5,
  );
}

/**
 * The native batch's time for `n` events (ms), from the native benchmark's table, if given: the
 * batch from the JSON array text, as the wasm batch projects it.
 */
function nativeBatchMs(n) {
  if (!nativeFile || !existsSync(nativeFile)) return undefined;
  const label = `| ${n.toLocaleString("en-US")} |`;
  const line = readFileSync(nativeFile, "utf8")
    .split("\n")
    .find((l) => l.startsWith("| batch from JSON text") && l.includes(label));
  const ms = line?.match(/\| ([\d.]+) ms/);
  return ms ? Number(ms[1]) : undefined;
}
for (const n of [20_000, 100_000]) {
  const native = nativeBatchMs(n);
  if (native === undefined) continue;
  const ratio = batch[n] / native;
  row("wasm batch / native batch (`cargo bench --bench native`, same events)", n, `${ratio.toFixed(2)}×`, "≤ 2×", ratio <= 2);
}

/**
 * Peak wasm memory of a batch, in a fresh process: how much one `project` call grows the
 * module's memory (which never shrinks, so its size after the call is the call's peak), over
 * the input's UTF-8 bytes. The call goes to the installed instance directly (inputs this large
 * otherwise run on a fresh instance of the module, dropped afterwards, whose peak is the same).
 * Memory grows by at least a quarter at a time, so this is an upper bound.
 */
function batchPeak(n) {
  const at = (file) => JSON.stringify(pathToFileURL(join(pkgDir, file)).href);
  const script = `
    const api = await import(${JSON.stringify(pathToFileURL(entry).href)});
    const { core } = await import(${at("core.js")});
    const { call, putText } = await import(${at("boundary.js")});
    const glue = await import(${at("glue/agent_runtime_projection.js")});
    const text = JSON.stringify(api.generateRuntimeEvents(${n}, ${SEED}));
    const before = core.exports.memory.buffer.byteLength;
    // With a sink for the wire text, as projectAgentUiState calls it for inputs this long.
    const pieces = [];
    call("bench", () => glue.project(putText(text), undefined, false, (piece) => pieces.push(piece)));
    console.log(before, core.exports.memory.buffer.byteLength, Buffer.byteLength(text));`;
  const [before, after, bytes] = freshProcessNumbers(script);
  return { grownMB: (after - before) / 1e6, ratio: (after - before) / bytes };
}
for (const n of [20_000, 100_000]) {
  const peak = batchPeak(n);
  row(
    "peak wasm memory of a batch: memory one `project` call grows a fresh instance by (1 run), against its input's UTF-8 bytes",
    n,
    `${peak.grownMB.toFixed(0)} MB (${peak.ratio.toFixed(2)}× the input)`,
    "≤ 3×",
    peak.ratio <= 3,
  );
}

/**
 * Wasm memory a live projector holds per event, in a fresh process: the memory 100k
 * `createProjector().apply` calls grow the module by, per event, and the same less the event's
 * JSON text (which the projector keeps on purpose, to read an event again).
 */
function livePerEvent(n) {
  const script = `
    const api = await import(${JSON.stringify(pathToFileURL(entry).href)});
    const { core } = await import(${JSON.stringify(pathToFileURL(join(pkgDir, "core.js")).href)});
    const events = api.generateRuntimeEvents(${n}, ${SEED});
    let text = 0;
    for (const e of events) text += Buffer.byteLength(JSON.stringify(e));
    const p = api.createProjector();
    const before = core.exports.memory.buffer.byteLength;
    for (const e of events) p.apply(e);
    console.log(before, core.exports.memory.buffer.byteLength, text);`;
  const [before, after, text] = freshProcessNumbers(script);
  return { perEvent: (after - before) / n, beyondText: (after - before - text) / n };
}
{
  const live = livePerEvent(100_000);
  row(
    "wasm memory of a live `createProjector()` per event (1 run): all; beyond the event's kept JSON text",
    100_000,
    `${fmtInt(live.perEvent)} B; ${fmtInt(live.beyondText)} B`,
    "≤ 1 KB beyond the text",
    live.beyondText <= 1000,
  );
}

// ---------------------------------------------------------------------------------------------
// Live projection, one event at a time

console.error("bench: live apply");
const live = perEventRuns(RUNS.large, stream[100_000], () => {
  const p = api.createProjector();
  return [(e) => p.apply(e), () => release(p)];
});
row("live `createProjector().apply`, no state read: p50 / p99", 100_000, `${fmtUs(live.p50)} / ${fmtUs(live.p99)}`, "p99 < 40 µs", live.p99 < 40);
row("  same: mean", 100_000, fmtUs(live.mean), "< 8 µs", live.mean < 8);
row(
  "  same: mean first 10% / last 10% (ratio)",
  100_000,
  `${fmtUs(live.first)} / ${fmtUs(live.last)} (${live.ratio.toFixed(2)})`,
  "ratio < 1.2",
  live.ratio < 1.2,
);

const every = perEventRuns(RUNS.large, stream[20_000], () => {
  const p = api.createAgentUiProjector();
  return [(e) => p.apply(e), () => release(p)];
});
row(
  "live `createAgentUiProjector().apply` (returns the state) after every event: p50 / p99",
  20_000,
  `${fmtUs(every.p50)} / ${fmtUs(every.p99)}`,
  "p99 < 0.5 ms",
  every.p99 < 500,
);
row(
  "  same: mean first 10% / last 10% (ratio)",
  20_000,
  // No target: the issue sets none for this row, since every state must hold fresh copies of
  // the lists that grow, whose cost grows with the stream (the floor's own ratio, below).
  `${fmtUs(every.first)} / ${fmtUs(every.last)} (${every.ratio.toFixed(2)})`,
);
// The same run's pure-JS floor (bench/floor.mjs): only the copies of the two lists that grow
// every event, which any immutable state must make.
const floorEvery = perEventRuns(RUNS.large, stream[20_000], () => {
  const f = makeFloorState();
  return [(e) => f.apply(e), () => {}];
});
row(
  "  floor, pure JS: copy the two growing lists per event, no wasm: p50 / p99 (last/first 10%)",
  20_000,
  `${fmtUs(floorEvery.p50)} / ${fmtUs(floorEvery.p99)} (${floorEvery.ratio.toFixed(2)}); p99 ${(every.p99 / floorEvery.p99).toFixed(2)}× the floor`,
);

// getState() once every 100 events: apply and getState timed separately.
{
  const reads = [];
  const applies = [];
  for (let r = 0; r < RUNS.large; r++) {
    gc();
    const p = api.createProjector();
    const readTimes = [];
    const stats = perEvent(stream[100_000], (e, i) => {
      p.apply(e);
      if ((i + 1) % 100 === 0) {
        const t = performance.now();
        p.getState();
        readTimes.push((performance.now() - t) * 1e3);
      }
    });
    applies.push(stats);
    release(p);
    const sorted = Float64Array.from(readTimes).sort();
    const tenth = Math.max(1, Math.floor(readTimes.length / 10));
    reads.push({
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      ratio: mean(readTimes.slice(-tenth)) / mean(readTimes.slice(0, tenth)),
      totalMs: stats.totalMs,
    });
  }
  const pick = (xs, k) => median(xs.map((x) => x[k]));
  row(
    "live apply + `getState()` every 100 events: getState p50 / p99",
    100_000,
    `${fmtUs(pick(reads, "p50"))} / ${fmtUs(pick(reads, "p99"))} (last/first 10% ${pick(reads, "ratio").toFixed(2)})`,
  );
  row(
    "  same: whole stream (apply + reads)",
    100_000,
    `${fmtMs(pick(reads, "totalMs"))} (${fmtUs((pick(reads, "totalMs") * 1e3) / 100_000)}/event)`,
  );
}

// ---------------------------------------------------------------------------------------------
// Hydrate

console.error("bench: hydrate");
for (const [n, runs] of [[20_000, RUNS.mid], [100_000, RUNS.large]]) {
  const hydrate = (p) => p.hydrate({ executionEvents: stream[n] });
  const lean = timeMs(runs, hydrate, () => api.createProjector(), release, n < 100_000);
  const full = timeMs(runs, hydrate, () => api.createAgentUiProjector(), release, n < 100_000);
  row("`createProjector().hydrate` (state not read)", n, fmtMs(lean));
  row("`createAgentUiProjector().hydrate` (returns the state)", n, fmtMs(full));
}

// ---------------------------------------------------------------------------------------------
// Validation

console.error("bench: validation");
{
  const n = 100_000;
  const events = stream[n];
  const perCall = timeMs(RUNS.large, () => {
    let issues = 0;
    for (const e of events) issues += api.collectRuntimeEventValidationIssues(e).length;
    if (issues !== 0) throw new Error(`bench: generated events have ${issues} validation issues`);
  });
  const perCallRate = n / (perCall / 1e3);
  row(
    "`collectRuntimeEventValidationIssues`, one call per event",
    n,
    `${fmtMs(perCall)} (${fmtInt(perCallRate)} events/s)`,
    "≥ 1,000,000 events/s",
    perCallRate >= 1e6,
  );
  // A whole-stream validator, when the package has one.
  const whole = ["collectRuntimeEventsValidationIssues", "collectRuntimeEventStreamValidationIssues"].find(
    (name) => typeof api[name] === "function",
  );
  if (whole) {
    const t = timeMs(RUNS.large, () => api[whole](events));
    const rate = n / (t / 1e3);
    row(`\`${whole}\`, whole stream in one call`, n, `${fmtMs(t)} (${fmtInt(rate)} events/s)`, "≥ 1,000,000 events/s", rate >= 1e6);
    // The same stream as JSON text, as it arrives from a socket or a file (no JSON.stringify,
    // no JSON.parse), when the validator takes text.
    const arrayText = JSON.stringify(events);
    const ndjson = events.map((e) => JSON.stringify(e)).join("\n");
    let takesText = false;
    try {
      takesText = Array.isArray(api[whole]("[]"));
    } catch {
      takesText = false;
    }
    if (takesText) {
      const mb = (text) => `${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB`;
      for (const [label, text] of [
        [`JSON array text (${mb(arrayText)})`, arrayText],
        [`NDJSON text (${mb(ndjson)})`, ndjson],
      ]) {
        const tt = timeMs(RUNS.mid, () => {
          const issues = api[whole](text);
          if (issues.length !== 0) throw new Error(`bench: generated events have ${issues.length} validation issues`);
        });
        const r = n / (tt / 1e3);
        row(`\`${whole}(text)\`, ${label}`, n, `${fmtMs(tt)} (${fmtInt(r)} events/s)`, "≥ 1,000,000 events/s", r >= 1e6);
      }
      const str = timeMs(RUNS.mid, () => JSON.stringify(events));
      row("for scale: `JSON.stringify(events)` alone (what the array path pays first)", n, `${fmtMs(str)} (${fmtInt(n / (str / 1e3))} events/s)`);
    }
  }
  const seq = timeMs(RUNS.large, () => {
    const v = api.verifyRuntimeEventSequence(events);
    if (v.length !== 0) throw new Error(`bench: generated stream has ${v.length} sequence violations`);
  });
  row("`verifyRuntimeEventSequence`, whole stream", n, `${fmtMs(seq)} (${fmtInt(n / (seq / 1e3))} events/s)`);
}

// ---------------------------------------------------------------------------------------------
// Memory

console.error("bench: memory");
{
  gc();
  const before = process.memoryUsage();
  let state = api.projectAgentUiState({ executionEvents: stream[100_000] });
  gc();
  const after = process.memoryUsage();
  row(
    "JS heap used after `projectAgentUiState` (events + state held)",
    100_000,
    `${(after.heapUsed / 1e6).toFixed(0)} MB (state adds ${((after.heapUsed - before.heapUsed) / 1e6).toFixed(0)} MB; rss ${(after.rss / 1e6).toFixed(0)} MB)`,
  );
  state = undefined;
  gc();
  const p = api.createProjector();
  for (const e of stream[100_000]) p.apply(e);
  gc();
  const lean = process.memoryUsage();
  row(
    "JS heap used after 100k `createProjector().apply` (state not read)",
    100_000,
    `${(lean.heapUsed / 1e6).toFixed(0)} MB (rss ${(lean.rss / 1e6).toFixed(0)} MB)`,
  );
  release(p);
  void state;
  const linear = await wasmMemoryBytes();
  if (linear !== undefined) {
    // Not one workload's peak: the projectors this synchronous script drops are released by
    // wasm-bindgen's FinalizationRegistry, whose callbacks only run once the script yields.
    row(
      "wasm linear memory at the end of this whole run (it never shrinks; dropped projectors are only released after the run yields)",
      "",
      `${(linear / 1e6).toFixed(0)} MB`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Size

{
  const glueDir = join(pkgDir, "glue");
  const wasmFile = "agent_runtime_projection_bg.wasm";
  const wasmBytes = readFileSync(join(glueDir, wasmFile));
  // The budget is 300,000 bytes of `gzip -9` (GNU gzip, what scripts/test.sh reports); Node's
  // zlib at level 9 compresses this module ~1% worse, so both are shown.
  const zlibGz = gzipSync(wasmBytes, { level: 9 }).length;
  let gnuGz;
  try {
    gnuGz = execFileSync("gzip", ["-9", "-c", join(glueDir, wasmFile)], { maxBuffer: 1 << 26 }).length;
  } catch {
    gnuGz = undefined;
  }
  const wasmGz = gnuGz ?? zlibGz;
  row(
    `\`${wasmFile}\` raw / gzip -9 (GNU gzip; Node zlib level 9)`,
    "",
    `${wasmBytes.length.toLocaleString("en-US")} B / ${gnuGz === undefined ? "no gzip command" : `${gnuGz.toLocaleString("en-US")} B`} (${zlibGz.toLocaleString("en-US")} B)`,
    "≤ 300,000 B (gzip -9)",
    wasmGz <= 300_000,
  );
  // The event generator's own module (generateRuntimeEvents only; compiled on its first call).
  const generatorBytes = readFileSync(join(glueDir, "generator.wasm"));
  row("`generator.wasm` raw / gzip", "", `${fmtKB(generatorBytes.length)} / ${fmtKB(gzipSync(generatorBytes, { level: 9 }).length)}`);
  const glueJs = readdirSync(glueDir).filter((f) => f.endsWith(".js") && !f.endsWith("-inline.js"));
  const glueBytes = glueJs.map((f) => readFileSync(join(glueDir, f)));
  const glueRaw = glueBytes.reduce((a, b) => a + b.length, 0);
  const glueGz = glueBytes.reduce((a, b) => a + gzipSync(b, { level: 9 }).length, 0);
  row(`JS glue (wasm-bindgen: ${glueJs.join(", ")}) raw / gzip`, "", `${fmtKB(glueRaw)} / ${fmtKB(glueGz)}`);
  const wrapperJs = readdirSync(pkgDir).filter((f) => f.endsWith(".js"));
  const wrapperBytes = wrapperJs.map((f) => readFileSync(join(pkgDir, f)));
  row(
    `JS wrapper (${wrapperJs.length} files) raw / gzip`,
    "",
    `${fmtKB(wrapperBytes.reduce((a, b) => a + b.length, 0))} / ${fmtKB(wrapperBytes.reduce((a, b) => a + gzipSync(b, { level: 9 }).length, 0))}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Report

function gitRev() {
  try {
    return execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

const cpu = cpus();
const lines = [
  "# Benchmark results",
  "",
  `Measured ${new Date().toISOString().slice(0, 10)} at commit \`${gitRev()}\` with \`bash bench/run.sh\`${quick ? " (quick mode: fewer runs)" : ""}.`,
  `Machine: ${cpu.length} CPU (${cpu[0]?.model ?? "unknown"}), Node ${process.version}, ${process.platform}/${process.arch}.`,
  `Streams: \`generateRuntimeEvents(n, ${SEED})\` with default options (~${Math.round(bytes20k / 20_000)} bytes of JSON per event).`,
  `Medians of ${RUNS.small} (1k), ${RUNS.mid} (20k) and ${RUNS.large} (100k) runs; per-event figures time each call.`,
  "Shared machines are noisy: compare ratios rather than absolute times.",
  "",
  "## Through the JS API of `pkg/` (Node)",
  "",
  "| measure | events | result | target | met |",
  "|---|---:|---|---|:-:|",
  ...rows.map((r) => `| ${r.what} | ${r.n} | ${r.result} | ${r.target} | ${r.ok === undefined ? "" : r.ok ? "yes" : "**no**"} |`),
  "",
];
if (nativeFile && existsSync(nativeFile)) {
  const table = readFileSync(nativeFile, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("|"));
  lines.push("## Native Rust core (`cargo bench --bench native`)", "", ...table, "");
}
if (sideFile && existsSync(sideFile)) {
  const table = readFileSync(sideFile, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("|"));
  const against = process.env.LIME_REFERENCE_DIR
    ? "ours against the TypeScript reference (a local `tsc` build named by `LIME_REFERENCE_DIR`), in one process, warm; ratio < 1: ours is faster"
    : "ours alone (set `LIME_REFERENCE_DIR` to a local `tsc` build of the reference for the side-by-side figures)";
  lines.push("## Short and long streams, both paths (`bench/sidebyside.mjs`)", "", `${against}.`, "", ...table, "");
}
const report = lines.join("\n");
writeFileSync(join(root, "bench", "RESULTS.md"), report);
console.log(report);

// Where the slowest 1% of live events spend their time: inside the wasm `apply`, in
// `take_patch`, or in JS (JSON.stringify of the event, patch parse and `applyPatch`, GC).
//
//   node --expose-gc bench/phases.mjs state [n]   createAgentUiProjector().apply, state every event (default 20,000)
//   node --expose-gc bench/phases.mjs live [n]    createProjector().apply, no state read (default 100,000)
//
// It wraps the package's `WasmProjector.prototype.apply` / `take_patch` with timers, so the
// phases of each event are measured inside one ordinary run. Prints mean µs per phase over all
// events and over the slowest 1%, where in the stream the slowest 1% fall, and (by event class)
// which classes are over-represented among them.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const mode = process.argv[2] ?? "state";
if (mode !== "state" && mode !== "live") {
  console.error("phases: mode must be state or live");
  process.exit(2);
}
const n = Number(process.argv[3] ?? (mode === "state" ? 20_000 : 100_000));
const pkg = join(root, "pkg");
const api = await import(pathToFileURL(join(pkg, "index.node.js")).href);
const glue = await import(pathToFileURL(join(pkg, "glue", "agent_runtime_projection.js")).href);

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

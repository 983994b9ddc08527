// Two builds of the package, one workload at a time, in one process: is a change faster?
//
//   node bench/ab.mjs <package A> <package B> [workload ...] [--rounds k] [--warm ms]
//
// For a change to the package: copy the package built before it (`cp -r pkg /tmp/pkg-before`),
// build again, then `node bench/ab.mjs /tmp/pkg-before pkg`. Both packages load into one
// process; each workload first runs on both for a while (V8 optimizes hot WebAssembly and JS
// only after many calls), then in rounds of about 4 ms where A and B alternate and take turns
// going first, so a change of machine load or a GC hits both. Prints, per workload, the median
// time of a call on each side and the median of the per-round ratios B / A (< 1: B is faster).
// Separate processes per side swing by up to 2x on a shared machine; rounds interleaved in one
// process keep the ratio within a few percent: two copies of one build (A/A) gave 0.96-1.06
// with 11 rounds, so read a difference under ~6% as noise.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { takeNumberOption, workloads } from "./workloads.mjs";

const args = process.argv.slice(2);
const rounds = takeNumberOption(args, "--rounds", 21);
const warmMs = takeNumberOption(args, "--warm", 700);
const [dirA, dirB, ...only] = args;
if (!dirA || !dirB) {
  console.error("usage: node bench/ab.mjs <package A> <package B> [workload ...] [--rounds k] [--warm ms]");
  process.exit(2);
}
const load = (dir) => import(pathToFileURL(resolve(dir, "index.node.js")).href);
const [A, B] = [await load(dirA), await load(dirB)];

const [wa, wb] = [workloads(A), workloads(B)];
const unknown = only.filter((name) => !(name in wa));
if (unknown.length > 0) {
  console.error(`ab: unknown workload ${unknown.join(", ")}; one of ${Object.keys(wa).join(", ")}`);
  process.exit(2);
}

let sink;
const timeCalls = (fn, n) => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink = fn();
  return Number(process.hrtime.bigint() - start) / n / 1e3;
};
const warm = (fn) => {
  const start = performance.now();
  while (performance.now() - start < warmMs) sink = fn();
};
const median = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);

console.log(`A ${dirA}\nB ${dirB}\n${rounds} rounds\n`);
console.log("| workload | A | B | B / A |\n|---|---:|---:|---:|");
for (const name of Object.keys(wa)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const [a, b] = [wa[name], wb[name]];
  for (const fn of [a, b, a, b]) warm(fn);
  let n = 1;
  while (timeCalls(a, n) * n < 4000) n *= 2;
  const ta = [];
  const tb = [];
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    // A and B take turns going first.
    let x;
    let y;
    if (r % 2 === 0) {
      x = timeCalls(a, n);
      y = timeCalls(b, n);
    } else {
      y = timeCalls(b, n);
      x = timeCalls(a, n);
    }
    ta.push(x);
    tb.push(y);
    ratios.push(y / x);
  }
  console.log(`| ${name} | ${fmt(median(ta))} | ${fmt(median(tb))} | ${median(ratios).toFixed(3)} |`);
}
if (sink === Symbol.for("never")) console.log(sink);

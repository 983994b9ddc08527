// Instructions a call takes, counted by valgrind (callgrind): a measure of a change that a noisy
// machine does not blur, for changes too small for bench/ab.mjs's timings (its noise is ~5%).
//
//   node bench/instructions.mjs <package> [package ...] [workload ...] [--calls n] [--base k]
//
// Each package (a built `pkg/` directory, e.g. a copy made before a change) runs each workload of
// bench/workloads.mjs in a child `node` under `valgrind --tool=callgrind`, twice: `k` calls, then
// `k + n` calls (defaults 200 and 200). The difference of the two counts over `n` is a call's
// instructions, the process's start, the module's compilation and the first calls left out. The
// child runs with `--single-threaded --predictable --predictable-gc-schedule --no-liftoff`: V8
// compiles the module once with its optimizing compiler, does no work on other threads, and
// schedules its garbage collections by allocation alone (by default they also follow time, which
// valgrind stretches: two runs of one build then differed by 2-3%). Two runs of one build differ
// by ~0.5% (a 56-event batch, 200 calls after 200: 6.48M and 6.45M instructions a call). V8 still
// compiles the wrapper's hot JS during the first calls, on the same thread: with only 20 calls
// first, a 10-event batch counted 2.8M a call, with 400 first 1.4M, so keep `k` in the hundreds.
// Everything a call does counts: the wrapper's JS, V8's JSON and GC work, and the module's code.
// Slow: valgrind runs node ~50x slower (a 56-event batch, 200 + 400 calls: ~1.5 min a build).
// Needs valgrind (`apt-get install valgrind`); the test command does not run this.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { takeNumberOption, workloads } from "./workloads.mjs";

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);

if (args[0] === "--child") {
  // One run: `calls` calls of one workload of one package.
  const [, dir, name, calls] = args;
  const api = await import(pathToFileURL(join(dir, "index.node.js")).href);
  const call = workloads(api)[name];
  let sink;
  for (let i = 0; i < Number(calls); i++) sink = call();
  if (sink === Symbol.for("never")) console.log(sink);
  process.exit(0);
}

const calls = takeNumberOption(args, "--calls", 200);
const base = takeNumberOption(args, "--base", 200);
const packages = args.filter((a) => existsSync(join(a, "index.node.js"))).map((a) => resolve(a));
const names = args.filter((a) => !existsSync(join(a, "index.node.js")));
if (packages.length === 0) {
  console.error("usage: node bench/instructions.mjs <package> [package ...] [workload ...] [--calls n] [--base k]");
  process.exit(2);
}
try {
  execFileSync("valgrind", ["--version"], { stdio: "ignore" });
} catch {
  console.error("bench/instructions.mjs needs valgrind (apt-get install valgrind).");
  process.exit(2);
}
const known = Object.keys(workloads(await import(pathToFileURL(join(packages[0], "index.node.js")).href)));
const unknown = names.filter((n) => !known.includes(n));
if (unknown.length > 0) {
  console.error(`instructions: unknown workload ${unknown.join(", ")}; one of ${known.join(", ")}`);
  process.exit(2);
}

/** Instructions of one child run (`n` calls). */
function count(dir, name, n) {
  const run = spawnSync(
    "valgrind",
    ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--smc-check=all-non-file",
      process.execPath, "--single-threaded", "--predictable", "--predictable-gc-schedule", "--no-liftoff", self, "--child", dir, name, String(n)],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(run.stderr ?? "");
  if (run.status !== 0 || !refs) throw new Error(`instructions: ${name} on ${dir} failed:\n${run.stderr}`);
  return Number(refs[1].replaceAll(",", ""));
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(3)}M` : `${(x / 1e3).toFixed(1)}k`);
console.log(`instructions a call (${calls} calls after ${base}), per package: ${packages.map((p, i) => `${i + 1} ${p}`).join("; ")}\n`);
const ratioCols = packages.slice(1).map((_, i) => ` ${i + 2} / 1 |`).join("");
console.log(`| workload |${packages.map((_, i) => ` ${i + 1} |`).join("")}${ratioCols}`);
console.log(`|---|${packages.map(() => "---:|").join("")}${packages.slice(1).map(() => "---:|").join("")}`);
for (const name of names.length > 0 ? names : known) {
  const perCall = packages.map((dir) => (count(dir, name, base + calls) - count(dir, name, base)) / calls);
  const ratios = perCall.slice(1).map((x) => ` ${(x / perCall[0]).toFixed(4)} |`).join("");
  console.log(`| ${name} |${perCall.map((x) => ` ${fmt(x)} |`).join("")}${ratios}`);
}

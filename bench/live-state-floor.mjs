// The pure-JS floor of the "live createAgentUiProjector().apply after every event" figure of
// bench/run.mjs (bench/floor.mjs; run.mjs also reports it): no WebAssembly, no patch, no
// decoding, only the copies any immutable state must make when two lists grow every event.
//
//   node --expose-gc bench/live-state-floor.mjs [n=20000] [runs=3]
//
// Prints the same statistics as bench/run.mjs (median over runs) and the cost of one fresh copy
// of an array by length: V8 (Node 20, no pointer compression) keeps arrays of more than 16,383
// items (backing store > 128 KiB) in large-object space, where each new array is a fresh
// mapping and each dead one is unmapped at the next scavenge, so a copy costs several times
// more per item above that size.
import { makeFloorState } from "./floor.mjs";
import { perEventRuns } from "./stats.mjs";

const n = Number(process.argv[2] ?? 20_000);
const runs = Number(process.argv[3] ?? 3);
const gc = typeof globalThis.gc === "function" ? globalThis.gc : () => {};

const items = Array.from({ length: n }, (_, i) => ({ id: `evt_${i}`, sequence: i, title: `item ${i}` }));

const floor = perEventRuns(runs, items, () => {
  const f = makeFloorState();
  return [(item) => f.apply(item), () => {}];
}, gc);
const pick = (k) => floor[k];
console.log(
  `floor, ${n} events: p50 ${pick("p50").toFixed(1)} µs, p99 ${pick("p99").toFixed(1)} µs, ` +
    `first 10% ${pick("first").toFixed(1)} µs, last 10% ${pick("last").toFixed(1)} µs (ratio ${pick("ratio").toFixed(2)})`,
);

// One fresh copy (`slice`) of an array of objects, by length (mean of 500 copies).
const sizes = [4_000, 8_000, 12_000, 16_000, 16_383, 16_384, 17_000, 20_000];
const line = [];
for (const size of sizes) {
  const list = items.length >= size ? items.slice(0, size) : Array.from({ length: size }, (_, i) => ({ i }));
  let keep = list.slice();
  gc();
  const t = performance.now();
  for (let k = 0; k < 500; k++) keep = list.slice();
  line.push(`${size}: ${(((performance.now() - t) / 500) * 1e3).toFixed(1)} µs`);
  if (keep.length !== size) throw new Error("unreachable");
}
console.log(`one array copy by length: ${line.join(", ")}`);

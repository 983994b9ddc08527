// The pure-JS floor of the "live createAgentUiProjector().apply after every event" figure of
// bench/run.mjs: no WebAssembly, no patch, no decoding, only what any structurally shared,
// immutable state must do per event when two lists grow by one item every event (the state's
// `timeline` and `readModel.events`): copy both lists into new arrays one item longer (the
// previous state keeps its own arrays), and copy the two objects on their paths.
//
//   node --expose-gc bench/live-state-floor.mjs [n=20000] [runs=3]
//
// Prints the same statistics as bench/run.mjs (median over runs) and the cost of one fresh copy
// of an array by length: V8 (Node 20, no pointer compression) keeps arrays of more than 16,383
// items (backing store > 128 KiB) in large-object space, where each new array is a fresh
// mapping and each dead one is unmapped at the next scavenge, so a copy costs several times
// more per item above that size.
const n = Number(process.argv[2] ?? 20_000);
const runs = Number(process.argv[3] ?? 3);
const gc = typeof globalThis.gc === "function" ? globalThis.gc : () => {};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * q))];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

const items = Array.from({ length: n }, (_, i) => ({ id: `evt_${i}`, sequence: i, title: `item ${i}` }));

const results = [];
for (let r = 0; r < runs; r++) {
  gc();
  let state = { runtime: {}, timeline: [], readModel: { events: [], visibleEvents: [] }, hydration: {} };
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const item = items[i];
    state = {
      ...state,
      runtime: { latestEventId: item.id },
      timeline: state.timeline.concat([{ entryId: item.id, sequence: i }]),
      readModel: { ...state.readModel, events: state.readModel.events.concat([{ id: item.id, source: item }]) },
      hydration: { eventCount: i + 1 },
    };
    times[i] = (performance.now() - t) * 1e3;
  }
  const tenth = Math.max(1, Math.floor(n / 10));
  const sorted = Float64Array.from(times).sort();
  const first = mean(times.subarray(0, tenth));
  const last = mean(times.subarray(n - tenth));
  results.push({ p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), first, last, ratio: last / first });
}
const pick = (k) => median(results.map((x) => x[k]));
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

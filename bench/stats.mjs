// Small statistics helpers shared by the benchmark scripts.

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * q))];
export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Per-call statistics of `step(item, i)` over `items`, timed one call at a time: p50, p99,
 * mean of the first and of the last 10% (µs), their ratio, and the total (ms).
 */
export function perEvent(items, step) {
  const times = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const t = performance.now();
    step(items[i], i);
    times[i] = (performance.now() - t) * 1e3;
  }
  const tenth = Math.max(1, Math.floor(items.length / 10));
  const first = mean(times.subarray(0, tenth));
  const last = mean(times.subarray(items.length - tenth));
  const sorted = Float64Array.from(times).sort();
  return {
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    first,
    last,
    ratio: last / first,
    mean: mean(times),
    totalMs: times.reduce((a, b) => a + b, 0) / 1e3,
  };
}

/** The median of each `perEvent` statistic over `runs` runs; `make()` gives `[step, done]`. */
export function perEventRuns(runs, items, make, gc = globalThis.gc ?? (() => {})) {
  const results = [];
  for (let r = 0; r < runs; r++) {
    gc();
    const [step, done] = make();
    results.push(perEvent(items, step));
    done();
  }
  const pick = (k) => median(results.map((x) => x[k]));
  return { p50: pick("p50"), p99: pick("p99"), first: pick("first"), last: pick("last"), ratio: pick("ratio"), mean: pick("mean"), totalMs: pick("totalMs") };
}

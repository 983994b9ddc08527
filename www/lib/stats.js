// Timing samples for projector applies (microseconds), with percentiles.

export class ApplyStats {
  constructor() {
    this.reset();
  }

  reset() {
    this.samples = new Float64Array(1024);
    this.count = 0;
    this.last = NaN;
    this.sortedCache = null;
  }

  add(us) {
    if (this.count === this.samples.length) {
      const next = new Float64Array(this.samples.length * 2);
      next.set(this.samples);
      this.samples = next;
    }
    this.samples[this.count++] = us;
    this.last = us;
    this.sortedCache = null;
  }

  /** The q-quantile (0..1) of all samples, NaN when empty. Sorting is cached between adds. */
  quantile(q) {
    if (this.count === 0) return NaN;
    if (!this.sortedCache) this.sortedCache = this.samples.slice(0, this.count).sort();
    const idx = Math.min(this.count - 1, Math.max(0, Math.ceil(q * this.count) - 1));
    return this.sortedCache[idx];
  }
}

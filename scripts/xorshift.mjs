// The seeded random numbers of the differential scripts (odd-diff.mjs, calls-diff.mjs): a 32-bit
// xorshift, so that a seed names one run exactly.

/** `{ rnd, pick }` for `seed`: `rnd()` in [0, 1), `pick(list)` one of its items. */
export function xorshift(seed) {
  let state = seed >>> 0 || 1;
  const rnd = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  return { rnd, pick: (xs) => xs[Math.floor(rnd() * xs.length)] };
}

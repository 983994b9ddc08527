//! A fast hasher for the crate's internal maps (ids, group keys, positions).
//!
//! The multiply-rotate scheme of the Firefox/rustc "Fx" hash: far cheaper than SipHash on short
//! keys. Each map gets a starting state of its own, derived from the standard library's
//! per-process random keys, so a provider cannot precompute ids that all land in one bucket.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const SEED_MUL: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The step between two maps' starting states (odd: every state of the 2^64 differs).
const SEED_STEP: u64 = 0x9e_37_79_b9_7f_4a_7c_15;

/// The last map's starting state (0: none yet). The first is drawn from the random keys, each
/// next one is a step further. The views make many short-lived maps; a SipHash of fresh random
/// keys for each was ~1.4% of a short batch. (Two threads that race here may give two maps the
/// same state: harmless.)
static LAST_SEED: AtomicU64 = AtomicU64::new(0);

fn next_seed() -> u64 {
    let mut seed = LAST_SEED.load(Relaxed);
    if seed == 0 {
        seed = RandomState::new().hash_one(0x5eed_u64);
    }
    seed = seed.wrapping_add(SEED_STEP);
    LAST_SEED.store(seed, Relaxed);
    seed
}

/// Builds `FxHasher`s from a per-map state.
#[derive(Clone, Copy, Debug)]
pub struct FxBuild(u64);

impl Default for FxBuild {
    fn default() -> FxBuild {
        FxBuild(next_seed())
    }
}

impl BuildHasher for FxBuild {
    type Hasher = FxHasher;
    fn build_hasher(&self) -> FxHasher {
        FxHasher(self.0)
    }
}

/// The hasher state.
#[derive(Clone, Copy, Debug)]
pub struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(SEED_MUL);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Words read in place (`copy_from_slice` into a buffer compiles to a `memcpy` call in the
        // size-optimized module: a third of the time of hashing a short name).
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            if let Ok(w) = <&[u8; 8]>::try_from(c) {
                self.add(u64::from_le_bytes(*w));
            }
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let w = rest
                .iter()
                .rev()
                .fold(0u64, |w, &b| (w << 8) | u64::from(b));
            self.add(w ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // Final avalanche so the high bits (hashbrown's control bytes) depend on every input bit.
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(SEED_MUL) ^ (h >> 32)
    }
}

/// `HashMap` with `FxBuild` (construct with `HashMap::default()`).
pub type HashMap<K, V> = std::collections::HashMap<K, V, FxBuild>;
/// `HashSet` with `FxBuild` (construct with `HashSet::default()`).
pub type HashSet<K> = std::collections::HashSet<K, FxBuild>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_maps_work() {
        let b = FxBuild::default();
        assert_eq!(b.hash_one("abc"), b.hash_one("abc"));
        assert_ne!(b.hash_one("abc"), b.hash_one("abd"));
        let mut m: HashMap<String, usize> = HashMap::default();
        for i in 0..1000 {
            m.insert(format!("id-{i}"), i);
        }
        assert_eq!(m.get("id-417"), Some(&417));
        assert_eq!(m.len(), 1000);
    }
}

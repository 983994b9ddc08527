//! The seeded pseudo-random source of the generator: FNV-1a seed hashing and mulberry32.
//!
//! Both follow the JS reference generator bit for bit (32-bit wrapping arithmetic, floats in
//! `[0, 1)` as `u32 / 2^32`), so a stream made here equals the one made in JS for the same seed.

/// FNV-1a over the UTF-16 code units of the seed's text form (JS `String(seed)`).
pub fn seed_hash(seed_text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for unit in seed_text.encode_utf16() {
        h ^= u32::from(unit);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// mulberry32: a small 32-bit generator with helpers for integers, chances and picks.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u32,
}

impl Rng {
    /// A generator seeded from the seed's text form.
    pub fn new(seed_text: &str) -> Rng {
        Rng {
            state: seed_hash(seed_text),
        }
    }

    /// The next float in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x6d2b_79f5);
        let mut t = self.state;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        f64::from(t ^ (t >> 14)) / 4_294_967_296.0
    }

    /// An integer in `[min, max]` (`min + floor(r * (max - min + 1))`, in doubles as JS does).
    pub fn int(&mut self, min: i64, max: i64) -> i64 {
        let span = (max - min + 1) as f64;
        min + (self.next_f64() * span).floor() as i64
    }

    /// An integer in the inclusive range `(min, max)`.
    pub fn range(&mut self, (min, max): (i64, i64)) -> i64 {
        self.int(min, max)
    }

    /// True with probability `p` (`r < p`).
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }

    /// One element of a non-empty list, uniformly; `None` only for an empty list.
    pub fn pick<'a, T>(&mut self, list: &'a [T]) -> Option<&'a T> {
        let at = (self.next_f64() * list.len() as f64).floor() as usize;
        list.get(at.min(list.len().saturating_sub(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_of_decimal_seed() {
        // FNV-1a offset basis for the empty text.
        assert_eq!(seed_hash(""), 0x811c_9dc5);
        assert_eq!(seed_hash("1"), 0x340c_a71c);
    }

    #[test]
    fn floats_stay_in_unit_interval() {
        let mut r = Rng::new("7");
        for _ in 0..10_000 {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
        }
    }
}

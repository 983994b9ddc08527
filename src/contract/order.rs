//! Stable sorting by an integer key, through one shared sort.
//!
//! A stable sort by key is an unstable sort of `(key, original position)` pairs, whatever the
//! element type. Every stable sort of the crate goes through [`stable_sort_by_key`], so the wasm
//! module holds one copy of the sort code instead of one per element type and key closure.

/// Sort `items` by `key`, ascending; items with equal keys keep their order.
pub fn stable_sort_by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let mut order: Vec<(u64, usize)> = items.iter().map(&key).zip(0..).collect();
    if order.windows(2).all(|w| w.first() <= w.get(1)) {
        return;
    }
    sort_pairs(&mut order);
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(
        order
            .into_iter()
            .filter_map(|(_, i)| slots.get_mut(i).and_then(Option::take)),
    );
}

/// The one sort instantiation (pairs are distinct, so unstable is exact).
#[inline(never)]
fn sort_pairs(pairs: &mut [(u64, usize)]) {
    pairs.sort_unstable();
}

/// A key ordering finite doubles as `partial_cmp` does (`-0` equal to `0`).
pub fn f64_key(x: f64) -> u64 {
    let bits = if x == 0.0 { 0 } else { x.to_bits() };
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_order_as_the_std_stable_sort() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..60 {
            let mut items: Vec<(f64, usize)> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let x = [-2.5, -0.0, 0.0, 1.0, 1e300, -1e-300, 7.0][(seed % 7) as usize];
                    (x, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
            stable_sort_by_key(&mut items, |x| f64_key(x.0));
            let pos = |v: &[(f64, usize)]| v.iter().map(|x| x.1).collect::<Vec<_>>();
            assert_eq!(pos(&items), pos(&expected));
        }
    }
}

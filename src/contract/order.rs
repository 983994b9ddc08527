//! Ordering by integer keys through shared code: stable sorting and ordered maps.
//!
//! A stable sort by key is an unstable sort of `(key, original position)` pairs, whatever the
//! element type. Every stable sort of the crate goes through [`stable_sort_by_key`], so the wasm
//! module holds one copy of the sort code instead of one per element type and key closure.
//!
//! Likewise every ordered map or set keyed by a position or a sequence number is an [`OrdMap`]:
//! one `BTreeMap<u64, usize>` (key to slot) over a plain vector of entries. The B-tree code is
//! large and is instantiated per key and value type; with the index shared, the module holds it
//! once.

use std::collections::BTreeMap;

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

/// Sort a list of indexes ascending: an insertion sort for the short lists patches hold (a few
/// dirty slots), the shared pair sort beyond that (no sort instantiation of its own).
pub fn sort_indexes(items: &mut [usize]) {
    if items.len() <= 32 {
        for i in 1..items.len() {
            let mut j = i;
            while j > 0 && items.get(j - 1) > items.get(j) {
                items.swap(j - 1, j);
                j -= 1;
            }
        }
        return;
    }
    let mut pairs: Vec<(u64, usize)> = items.iter().map(|&i| (i as u64, 0)).collect();
    sort_pairs(&mut pairs);
    for (slot, (k, _)) in items.iter_mut().zip(pairs) {
        *slot = k as usize;
    }
}

/// The one sort instantiation (pairs are distinct, so unstable is exact).
#[inline(never)]
fn sort_pairs(pairs: &mut [(u64, usize)]) {
    pairs.sort_unstable();
}

/// A key an [`OrdMap`] orders by (its value as a `u64`, order preserved).
pub trait OrdKey: Copy {
    fn to_key(self) -> u64;
    fn from_key(k: u64) -> Self;
}

impl OrdKey for u64 {
    fn to_key(self) -> u64 {
        self
    }
    fn from_key(k: u64) -> u64 {
        k
    }
}

impl OrdKey for usize {
    fn to_key(self) -> u64 {
        self as u64
    }
    fn from_key(k: u64) -> usize {
        k as usize
    }
}

/// An ordered map from integer keys to values (`BTreeMap` semantics: one value per key,
/// iteration in ascending key order), O(log n) per insert, remove and lookup.
pub struct OrdMap<K, V> {
    /// Key -> position in `entries`.
    index: BTreeMap<u64, usize>,
    /// The entries in no particular order (a removal moves the last one into the hole).
    entries: Vec<(K, V)>,
}

/// An ordered set of integer keys.
pub type OrdSet<K> = OrdMap<K, ()>;

impl<K, V> Default for OrdMap<K, V> {
    fn default() -> Self {
        OrdMap {
            index: BTreeMap::new(),
            entries: Vec::new(),
        }
    }
}

impl<K: OrdKey, V> OrdMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.index.clear();
        self.entries.clear();
    }

    /// Set the value of `k`; returns the previous one.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        if let Some(&at) = self.index.get(&k.to_key()) {
            if let Some(slot) = self.entries.get_mut(at) {
                return Some(std::mem::replace(&mut slot.1, v));
            }
        }
        self.index.insert(k.to_key(), self.entries.len());
        self.entries.push((k, v));
        None
    }

    /// Remove `k`; returns its value.
    pub fn remove(&mut self, k: K) -> Option<V> {
        let at = self.index.remove(&k.to_key())?;
        if at >= self.entries.len() {
            return None;
        }
        let (_, v) = self.entries.swap_remove(at);
        // The former last entry now sits at `at`.
        if let Some((moved, _)) = self.entries.get(at) {
            if let Some(slot) = self.index.get_mut(&moved.to_key()) {
                *slot = at;
            }
        }
        Some(v)
    }

    pub fn get(&self, k: K) -> Option<&V> {
        let at = *self.index.get(&k.to_key())?;
        self.entries.get(at).map(|e| &e.1)
    }

    pub fn contains_key(&self, k: K) -> bool {
        self.index.contains_key(&k.to_key())
    }

    /// `(key, value)` in ascending key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + '_ {
        self.index
            .values()
            .filter_map(|&at| self.entries.get(at).map(|(k, v)| (*k, v)))
    }

    /// Keys in ascending order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + '_ {
        self.index.keys().map(|&k| K::from_key(k))
    }

    /// Values in ascending key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + '_ {
        self.iter().map(|(_, v)| v)
    }

    /// Keys `>= from`, ascending.
    pub fn keys_from(&self, from: K) -> impl Iterator<Item = K> + '_ {
        self.index
            .range(from.to_key()..)
            .map(|(&k, _)| K::from_key(k))
    }

    pub fn first_key(&self) -> Option<K> {
        self.keys().next()
    }

    pub fn last_key(&self) -> Option<K> {
        self.keys().next_back()
    }

    /// The values in ascending key order, consuming the map.
    pub fn into_values(self) -> Vec<V> {
        let order: Vec<usize> = self.index.into_values().collect();
        let mut slots: Vec<Option<V>> = self.entries.into_iter().map(|(_, v)| Some(v)).collect();
        order
            .into_iter()
            .filter_map(|at| slots.get_mut(at).and_then(Option::take))
            .collect()
    }
}

impl<K: OrdKey> OrdMap<K, ()> {
    /// Add a key; true when it was not there.
    pub fn add(&mut self, k: K) -> bool {
        self.insert(k, ()).is_none()
    }

    /// Remove a key; true when it was there.
    pub fn delete(&mut self, k: K) -> bool {
        self.remove(k).is_some()
    }
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
    fn indexes_sort_ascending_at_every_length() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for len in [0usize, 1, 2, 5, 31, 32, 33, 100, 1000] {
            let mut v: Vec<usize> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 50) as usize
                })
                .collect();
            let mut expected = v.clone();
            expected.sort();
            sort_indexes(&mut v);
            assert_eq!(v, expected);
        }
    }

    #[test]
    fn ord_map_behaves_as_a_btree_map() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut ours: OrdMap<usize, u32> = OrdMap::new();
        let mut std_map: BTreeMap<usize, u32> = BTreeMap::new();
        for step in 0..5000u32 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let k = (seed % 97) as usize;
            match seed % 5 {
                0..=2 => assert_eq!(ours.insert(k, step), std_map.insert(k, step)),
                3 => assert_eq!(ours.remove(k), std_map.remove(&k)),
                _ => assert_eq!(ours.get(k), std_map.get(&k)),
            }
            assert_eq!(ours.len(), std_map.len());
            assert_eq!(ours.first_key(), std_map.keys().next().copied());
            assert_eq!(ours.last_key(), std_map.keys().next_back().copied());
            if step % 97 == 0 {
                let a: Vec<(usize, u32)> = ours.iter().map(|(k, v)| (k, *v)).collect();
                let b: Vec<(usize, u32)> = std_map.iter().map(|(k, v)| (*k, *v)).collect();
                assert_eq!(a, b);
                let from: Vec<usize> = ours.keys_from(40).collect();
                let std_from: Vec<usize> = std_map.range(40..).map(|(k, _)| *k).collect();
                assert_eq!(from, std_from);
                assert!(ours.values().rev().eq(std_map.values().rev()));
            }
        }
        let b: Vec<u32> = std_map.into_values().collect();
        assert_eq!(ours.into_values(), b);
        let mut set: OrdSet<u64> = OrdSet::new();
        assert!(set.add(5) && !set.add(5) && set.contains_key(5));
        assert!(set.delete(5) && !set.delete(5) && set.is_empty());
    }

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

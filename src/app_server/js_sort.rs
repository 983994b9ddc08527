//! `Array.prototype.sort(compare)` step for step as V8 runs it (its TimSort: natural runs
//! extended by binary insertion to a minimum run length, merged with galloping).
//!
//! With a consistent comparator every stable sort gives the same order. The reference sorts
//! App Server events with a comparator that is not one (by sequence when both events have one,
//! by creation time otherwise), and there the order depends on which pairs the algorithm
//! compares; so does the comparator's first `TypeError`. Reproducing V8's sequence of
//! comparisons reproduces both.

/// Galloping starts after this many consecutive wins of one run (V8's `kMinGallopWins`).
const MIN_GALLOP: usize = 7;

/// "Is `x` before `y`": the comparator's result is negative (NaN counts as 0, as in V8).
type Less<'c, E> = &'c mut dyn FnMut(usize, usize) -> Result<bool, E>;

/// Sort `items` (opaque handles) with `less(x, y)` meaning `compare(x, y) < 0`. An error of the
/// comparator stops the sort and is returned (the order is then unspecified).
pub fn js_sort<E>(items: &mut [usize], less: Less<'_, E>) -> Result<(), E> {
    let n = items.len();
    if n < 2 {
        return Ok(());
    }
    let mut s = Sorter {
        a: items,
        tmp: Vec::new(),
        runs: Vec::new(),
        min_gallop: MIN_GALLOP,
        less,
    };
    let min_run = min_run_length(n);
    let mut low = 0;
    let mut remaining = n;
    while remaining != 0 {
        let mut run = s.count_run(low, low + remaining)?;
        if run < min_run {
            let forced = min_run.min(remaining);
            s.binary_insertion(low, low + run, low + forced)?;
            run = forced;
        }
        s.runs.push((low, run));
        s.merge_collapse()?;
        low += run;
        remaining -= run;
    }
    while s.runs.len() > 1 {
        let mut i = s.runs.len() - 2;
        if i > 0 && s.run_len(i - 1) < s.run_len(i + 1) {
            i -= 1;
        }
        s.merge_at(i)?;
    }
    Ok(())
}

/// `n` below 64, else a length in 32..=64 that splits `n` into a power of two of runs (or
/// slightly fewer).
fn min_run_length(mut n: usize) -> usize {
    let mut r = 0;
    while n >= 64 {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

struct Sorter<'s, 'c, E> {
    a: &'s mut [usize],
    tmp: Vec<usize>,
    /// Pending runs: (base, length).
    runs: Vec<(usize, usize)>,
    min_gallop: usize,
    less: Less<'c, E>,
}

/// Read slot `i` of a work array (never out of range by construction; 0 if it were).
fn at(arr: &[usize], i: isize) -> usize {
    usize::try_from(i)
        .ok()
        .and_then(|i| arr.get(i))
        .copied()
        .unwrap_or(0)
}

fn put(arr: &mut [usize], i: isize, v: usize) {
    if let Some(slot) = usize::try_from(i).ok().and_then(|i| arr.get_mut(i)) {
        *slot = v;
    }
}

/// Copy `len` slots from `src[from..]` to `dst[to..]` (distinct arrays).
fn copy_into(src: &[usize], from: isize, dst: &mut [usize], to: isize, len: isize) {
    for k in 0..len.max(0) {
        put(dst, to + k, at(src, from + k));
    }
}

/// Move `len` slots within `arr` from `from` to `to` (overlap allowed).
fn move_within(arr: &mut [usize], from: isize, to: isize, len: isize) {
    if len <= 0 {
        return;
    }
    if from < to {
        for k in (0..len).rev() {
            put(arr, to + k, at(arr, from + k));
        }
    } else {
        for k in 0..len {
            put(arr, to + k, at(arr, from + k));
        }
    }
}

/// Where `key` goes in the sorted `arr[base..base + len]`, before any equal element;
/// the search starts at `hint`.
fn gallop_left<E>(
    less: &mut dyn FnMut(usize, usize) -> Result<bool, E>,
    arr: &[usize],
    key: usize,
    base: isize,
    len: isize,
    hint: isize,
) -> Result<isize, E> {
    let el = |i: isize| at(arr, base + i);
    let (mut last, mut ofs): (isize, isize) = (0, 1);
    if less(el(hint), key)? {
        let max = len - hint;
        while ofs < max {
            if !less(el(hint + ofs), key)? {
                break;
            }
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max);
        last += hint;
        ofs += hint;
    } else {
        let max = hint + 1;
        while ofs < max {
            if less(el(hint - ofs), key)? {
                break;
            }
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max);
        (last, ofs) = (hint - ofs, hint - last);
    }
    last += 1;
    while last < ofs {
        let m = last + ((ofs - last) >> 1);
        if less(el(m), key)? {
            last = m + 1;
        } else {
            ofs = m;
        }
    }
    Ok(ofs)
}

/// Where `key` goes in the sorted `arr[base..base + len]`, after any equal element.
fn gallop_right<E>(
    less: &mut dyn FnMut(usize, usize) -> Result<bool, E>,
    arr: &[usize],
    key: usize,
    base: isize,
    len: isize,
    hint: isize,
) -> Result<isize, E> {
    let el = |i: isize| at(arr, base + i);
    let (mut last, mut ofs): (isize, isize) = (0, 1);
    if less(key, el(hint))? {
        let max = hint + 1;
        while ofs < max {
            if !less(key, el(hint - ofs))? {
                break;
            }
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max);
        (last, ofs) = (hint - ofs, hint - last);
    } else {
        let max = len - hint;
        while ofs < max {
            if less(key, el(hint + ofs))? {
                break;
            }
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max);
        last += hint;
        ofs += hint;
    }
    last += 1;
    while last < ofs {
        let m = last + ((ofs - last) >> 1);
        if less(key, el(m))? {
            ofs = m;
        } else {
            last = m + 1;
        }
    }
    Ok(ofs)
}

/// How a merge ended: the rest of the temporary run goes to the end, or the last element of
/// one run goes after (low merge) / before (high merge) the rest of the other.
enum End {
    Done,
    LastOfRun,
}

impl<E> Sorter<'_, '_, E> {
    fn less(&mut self, x: usize, y: usize) -> Result<bool, E> {
        (self.less)(x, y)
    }

    fn run_len(&self, i: usize) -> usize {
        self.runs.get(i).map_or(0, |r| r.1)
    }

    /// The length of the run starting at `lo` (a strictly descending one is reversed).
    fn count_run(&mut self, lo: usize, hi: usize) -> Result<usize, E> {
        let low = lo + 1;
        if low == hi {
            return Ok(1);
        }
        let a = |s: &Self, i: usize| at(s.a, i as isize);
        let mut run = 2;
        let descending = self.less(a(self, low), a(self, low - 1))?;
        let mut prev = a(self, low);
        for idx in low + 1..hi {
            let cur = a(self, idx);
            let before = self.less(cur, prev)?;
            if descending != before {
                break;
            }
            prev = cur;
            run += 1;
        }
        if descending {
            if let Some(slice) = self.a.get_mut(lo..lo + run) {
                slice.reverse();
            }
        }
        Ok(run)
    }

    /// Sort `a[low..high]` by binary insertion, `a[low..start]` being sorted already.
    fn binary_insertion(&mut self, low: usize, start: usize, high: usize) -> Result<(), E> {
        let mut start = if low == start { start + 1 } else { start };
        while start < high {
            let pivot = at(self.a, start as isize);
            let (mut left, mut right) = (low, start);
            while left < right {
                let mid = left + ((right - left) >> 1);
                if self.less(pivot, at(self.a, mid as isize))? {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            move_within(
                self.a,
                left as isize,
                left as isize + 1,
                (start - left) as isize,
            );
            put(self.a, left as isize, pivot);
            start += 1;
        }
        Ok(())
    }

    fn merge_collapse(&mut self) -> Result<(), E> {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            let holds =
                |s: &Self, n: usize| n < 2 || s.run_len(n - 2) > s.run_len(n - 1) + s.run_len(n);
            if !holds(self, n + 1) || !holds(self, n) {
                if self.run_len(n - 1) < self.run_len(n + 1) {
                    n -= 1;
                }
                self.merge_at(n)?;
            } else if self.run_len(n) <= self.run_len(n + 1) {
                self.merge_at(n)?;
            } else {
                break;
            }
        }
        Ok(())
    }

    /// Merge pending runs `i` and `i + 1`.
    fn merge_at(&mut self, i: usize) -> Result<(), E> {
        let (Some(&(base_a, len_a)), Some(&(base_b, len_b))) =
            (self.runs.get(i), self.runs.get(i + 1))
        else {
            return Ok(());
        };
        if let Some(r) = self.runs.get_mut(i) {
            r.1 = len_a + len_b;
        }
        self.runs.remove(i + 1);
        let (base_a, len_a, base_b, len_b) = (
            base_a as isize,
            len_a as isize,
            base_b as isize,
            len_b as isize,
        );
        // Elements of a already before b's first one stay where they are.
        let key = at(self.a, base_b);
        let k = gallop_right(&mut *self.less, self.a, key, base_a, len_a, 0)?;
        let (base_a, len_a) = (base_a + k, len_a - k);
        if len_a == 0 {
            return Ok(());
        }
        // Elements of b already after a's last one stay where they are.
        let key = at(self.a, base_a + len_a - 1);
        let len_b = gallop_left(&mut *self.less, self.a, key, base_b, len_b, len_b - 1)?;
        if len_b == 0 {
            return Ok(());
        }
        if len_a <= len_b {
            self.merge_low(base_a, len_a, base_b, len_b)
        } else {
            self.merge_high(base_a, len_a, base_b, len_b)
        }
    }

    /// Merge, front to back, the runs at `base_a` and `base_b` (the first one the shorter).
    fn merge_low(
        &mut self,
        base_a: isize,
        len_a: isize,
        base_b: isize,
        len_b: isize,
    ) -> Result<(), E> {
        let (mut len_a, mut len_b) = (len_a, len_b);
        self.tmp.clear();
        self.tmp.extend((0..len_a).map(|k| at(self.a, base_a + k)));
        let mut dest = base_a;
        let mut ct: isize = 0;
        let mut cb = base_b;
        put(self.a, dest, at(self.a, cb));
        dest += 1;
        cb += 1;
        let end = 'merge: {
            len_b -= 1;
            if len_b == 0 {
                break 'merge End::Done;
            }
            if len_a == 1 {
                break 'merge End::LastOfRun;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut wins_a, mut wins_b) = (0usize, 0usize);
                loop {
                    let (b, t) = (at(self.a, cb), at(&self.tmp, ct));
                    if self.less(b, t)? {
                        put(self.a, dest, b);
                        dest += 1;
                        cb += 1;
                        wins_b += 1;
                        len_b -= 1;
                        wins_a = 0;
                        if len_b == 0 {
                            break 'merge End::Done;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    } else {
                        put(self.a, dest, t);
                        dest += 1;
                        ct += 1;
                        wins_a += 1;
                        len_a -= 1;
                        wins_b = 0;
                        if len_a == 1 {
                            break 'merge End::LastOfRun;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    let key = at(self.a, cb);
                    let k = gallop_right(&mut *self.less, &self.tmp, key, ct, len_a, 0)?;
                    wins_a = k as usize;
                    if k > 0 {
                        copy_into(&self.tmp, ct, self.a, dest, k);
                        dest += k;
                        ct += k;
                        len_a -= k;
                        if len_a == 1 {
                            break 'merge End::LastOfRun;
                        }
                        if len_a == 0 {
                            break 'merge End::Done;
                        }
                    }
                    put(self.a, dest, at(self.a, cb));
                    dest += 1;
                    cb += 1;
                    len_b -= 1;
                    if len_b == 0 {
                        break 'merge End::Done;
                    }
                    let key = at(&self.tmp, ct);
                    let k = gallop_left(&mut *self.less, self.a, key, cb, len_b, 0)?;
                    wins_b = k as usize;
                    if k > 0 {
                        move_within(self.a, cb, dest, k);
                        dest += k;
                        cb += k;
                        len_b -= k;
                        if len_b == 0 {
                            break 'merge End::Done;
                        }
                    }
                    put(self.a, dest, at(&self.tmp, ct));
                    dest += 1;
                    ct += 1;
                    len_a -= 1;
                    if len_a == 1 {
                        break 'merge End::LastOfRun;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match end {
            End::Done => {
                if len_a > 0 {
                    copy_into(&self.tmp, ct, self.a, dest, len_a);
                }
            }
            End::LastOfRun => {
                move_within(self.a, cb, dest, len_b);
                put(self.a, dest + len_b, at(&self.tmp, ct));
            }
        }
        Ok(())
    }

    /// Merge, back to front, the runs at `base_a` and `base_b` (the second one the shorter).
    fn merge_high(
        &mut self,
        base_a: isize,
        len_a: isize,
        base_b: isize,
        len_b: isize,
    ) -> Result<(), E> {
        let (mut len_a, mut len_b) = (len_a, len_b);
        self.tmp.clear();
        self.tmp.extend((0..len_b).map(|k| at(self.a, base_b + k)));
        let mut dest = base_b + len_b - 1;
        let mut ct = len_b - 1;
        let mut ca = base_a + len_a - 1;
        put(self.a, dest, at(self.a, ca));
        dest -= 1;
        ca -= 1;
        let end = 'merge: {
            len_a -= 1;
            if len_a == 0 {
                break 'merge End::Done;
            }
            if len_b == 1 {
                break 'merge End::LastOfRun;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut wins_a, mut wins_b) = (0usize, 0usize);
                loop {
                    let (t, x) = (at(&self.tmp, ct), at(self.a, ca));
                    if self.less(t, x)? {
                        put(self.a, dest, x);
                        dest -= 1;
                        ca -= 1;
                        wins_a += 1;
                        len_a -= 1;
                        wins_b = 0;
                        if len_a == 0 {
                            break 'merge End::Done;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    } else {
                        put(self.a, dest, t);
                        dest -= 1;
                        ct -= 1;
                        wins_b += 1;
                        len_b -= 1;
                        wins_a = 0;
                        if len_b == 1 {
                            break 'merge End::LastOfRun;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    let key = at(&self.tmp, ct);
                    let k = gallop_right(&mut *self.less, self.a, key, base_a, len_a, len_a - 1)?;
                    let won = len_a - k;
                    wins_a = won as usize;
                    if won > 0 {
                        dest -= won;
                        ca -= won;
                        move_within(self.a, ca + 1, dest + 1, won);
                        len_a -= won;
                        if len_a == 0 {
                            break 'merge End::Done;
                        }
                    }
                    put(self.a, dest, at(&self.tmp, ct));
                    dest -= 1;
                    ct -= 1;
                    len_b -= 1;
                    if len_b == 1 {
                        break 'merge End::LastOfRun;
                    }
                    let key = at(self.a, ca);
                    let k = gallop_left(&mut *self.less, &self.tmp, key, 0, len_b, len_b - 1)?;
                    let won = len_b - k;
                    wins_b = won as usize;
                    if won > 0 {
                        dest -= won;
                        ct -= won;
                        copy_into(&self.tmp, ct + 1, self.a, dest + 1, won);
                        len_b -= won;
                        if len_b == 1 {
                            break 'merge End::LastOfRun;
                        }
                        if len_b == 0 {
                            break 'merge End::Done;
                        }
                    }
                    put(self.a, dest, at(self.a, ca));
                    dest -= 1;
                    ca -= 1;
                    len_a -= 1;
                    if len_a == 0 {
                        break 'merge End::Done;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match end {
            End::Done => {
                if len_b > 0 {
                    copy_into(&self.tmp, 0, self.a, dest - (len_b - 1), len_b);
                }
            }
            End::LastOfRun => {
                dest -= len_a;
                ca -= len_a;
                move_within(self.a, ca + 1, dest + 1, len_a);
                put(self.a, dest, at(&self.tmp, ct));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(keys: &[i64]) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..keys.len()).collect();
        let mut less = |x: usize, y: usize| -> Result<bool, ()> { Ok(keys[x] < keys[y]) };
        js_sort(&mut idx, &mut less).unwrap();
        idx
    }

    /// Deterministic pseudo-random keys.
    fn keys(n: usize, seed: u64, range: i64) -> Vec<i64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 33) as i64) % range
            })
            .collect()
    }

    #[test]
    fn a_consistent_comparator_gives_the_stable_order() {
        for (n, range) in [
            (0, 5),
            (1, 5),
            (10, 3),
            (63, 10),
            (64, 10),
            (65, 2),
            (1000, 50),
            (5000, 7),
        ] {
            let k = keys(n, n as u64 + 1, range);
            let mut expected: Vec<usize> = (0..n).collect();
            expected.sort_by_key(|&i| k[i]);
            assert_eq!(sorted(&k), expected, "n={n}");
        }
        // Runs that trigger galloping: long ascending blocks interleaved.
        let k: Vec<i64> = (0..3000)
            .map(|i| if i < 1500 { i * 2 } else { (i - 1500) * 2 + 1 })
            .collect();
        let mut expected: Vec<usize> = (0..k.len()).collect();
        expected.sort_by_key(|&i| k[i]);
        assert_eq!(sorted(&k), expected);
        let k: Vec<i64> = (0..500).rev().chain(0..500).collect();
        let mut expected: Vec<usize> = (0..k.len()).collect();
        expected.sort_by_key(|&i| k[i]);
        assert_eq!(sorted(&k), expected);
    }

    #[test]
    fn comparator_errors_stop_the_sort() {
        let mut idx: Vec<usize> = (0..10).rev().collect();
        let mut calls = 0;
        let mut less = |_: usize, _: usize| -> Result<bool, &str> {
            calls += 1;
            if calls == 3 {
                Err("boom")
            } else {
                Ok(true)
            }
        };
        assert_eq!(js_sort(&mut idx, &mut less), Err("boom"));
    }

    #[test]
    fn min_run_lengths() {
        assert_eq!(min_run_length(63), 63);
        assert_eq!(min_run_length(64), 32);
        assert_eq!(min_run_length(65), 33);
        assert_eq!(min_run_length(2112), 33);
    }
}

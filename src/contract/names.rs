//! Which of a fixed list of member names a key is: one table load and one inline comparison.
//!
//! A `match` on strings compiles to a chain of length checks and `memcmp` calls, and the wasm
//! build's `memcmp` compares byte by byte behind a call; the event readers and validators look
//! member names up millions of times. Each list gets a 128-entry table built at compile time
//! from a small hash of the name; two names of one list sharing a bucket is a compile error.

/// Bucket of a name: its length and four of its bytes, mixed.
#[inline(always)]
pub const fn name_hash(b: &[u8]) -> usize {
    let n = b.len();
    if n == 0 {
        return 0;
    }
    (n * 5 + b[0] as usize + ((b[n - 1] as usize) << 1) + b[n / 2] as usize + b[1 % n] as usize * 4)
        & 127
}

/// The lookup table of `names`: entry `name_hash(names[i])` holds `i` (255: no name).
pub const fn name_table(names: &[&str]) -> [u8; 128] {
    assert!(names.len() < 255, "a name table holds at most 254 names");
    let mut t = [255u8; 128];
    let mut i = 0;
    while i < names.len() {
        let h = name_hash(names[i].as_bytes());
        assert!(
            t[h] == 255,
            "two names of one list share a bucket: change name_hash"
        );
        t[h] = i as u8;
        i += 1;
    }
    t
}

/// Position of `key` in `names`, whose table is `table` (inlined: for a literal key it is
/// computed at compile time).
#[inline(always)]
pub fn name_index(names: &[&str], table: &[u8; 128], key: &[u8]) -> Option<usize> {
    let at = *table.get(name_hash(key))? as usize;
    same_short(names.get(at)?.as_bytes(), key).then_some(at)
}

/// Position of `name` in `names`, at compile time (for constants derived from a list).
pub const fn const_position(names: &[&str], name: &str) -> Option<usize> {
    let mut i = 0;
    while i < names.len() {
        if const_eq(names[i].as_bytes(), name.as_bytes()) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Byte equality usable in constants.
pub const fn const_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Byte equality for short names, compared inline rather than through `memcmp`.
#[inline(always)]
fn same_short(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_found_and_nothing_else_is() {
        const NAMES: [&str; 6] = ["id", "kind", "status", "payload", "refIds", "x"];
        const TABLE: [u8; 128] = name_table(&NAMES);
        for (i, n) in NAMES.iter().enumerate() {
            assert_eq!(name_index(&NAMES, &TABLE, n.as_bytes()), Some(i));
        }
        for k in [
            "", "i", "ID", "idx", "payloads", "refids", "y", "\u{0}", "é",
        ] {
            assert_eq!(name_index(&NAMES, &TABLE, k.as_bytes()), None, "{k:?}");
        }
    }
}

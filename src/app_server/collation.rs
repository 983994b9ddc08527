//! `a.localeCompare(b)` with the default locale of Node's ICU (en-US, the root collation).
//!
//! Exact for ASCII text (timestamps, ids): characters compare first by their primary weight
//! (white space, then punctuation and symbols in ICU's order, digits, then letters with case
//! folded), then by case (lower before upper); control characters other than TAB..CR are
//! ignored. Characters beyond ASCII are ordered after all ASCII by code point, without ICU's
//! accent and script tailoring (an approximation: `é` sorts after `z` here, after `e` in ICU).

use std::cmp::Ordering;

/// ASCII white space, punctuation, symbols and digits in ICU root order (letters follow).
const ORDER: &[u8] = b"\t\n\x0b\x0c\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";

/// The primary weight of a character; `None` for a completely ignorable one.
fn primary(c: char) -> Option<u32> {
    if !c.is_ascii() {
        return Some(0x1000 + c as u32);
    }
    let b = c as u8;
    if b.is_ascii_alphabetic() {
        return Some(0x100 + u32::from(b.to_ascii_lowercase()));
    }
    ORDER.iter().position(|&x| x == b).map(|p| p as u32 + 1)
}

/// `a.localeCompare(b)`: -1, 0 or 1.
pub fn locale_compare(a: &str, b: &str) -> i32 {
    let weights = |s: &str| s.chars().filter_map(primary).collect::<Vec<u32>>();
    let order = weights(a).cmp(&weights(b)).then_with(|| {
        let case = |s: &str| {
            s.chars()
                .filter(|&c| primary(c).is_some())
                .map(|c| c.is_ascii_uppercase())
                .collect::<Vec<bool>>()
        };
        case(a).cmp(&case(b))
    });
    match order {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icu_root_order_for_ascii() {
        // Punctuation before digits before letters; not code-unit order.
        assert_eq!(locale_compare("_", "-"), -1);
        assert_eq!(locale_compare("$", "0"), -1);
        assert_eq!(locale_compare("9", "a"), -1);
        assert_eq!(locale_compare("Z", "a"), 1);
        assert_eq!(locale_compare("a", "A"), -1);
        assert_eq!(locale_compare("ab", "Aa"), 1);
        assert_eq!(locale_compare("a", "a\u{0}"), 0);
        assert_eq!(locale_compare(" ", "\t"), 1);
        assert_eq!(
            locale_compare("2026-06-10T00:00:00Z", "2026-06-10T00:00:00.000Z"),
            1
        );
        assert_eq!(locale_compare("2026-06-10", "2026-06-10"), 0);
    }
}

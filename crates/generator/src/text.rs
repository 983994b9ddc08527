//! English-like text and its splitting into streamed pieces.
//!
//! Every word list here is ASCII, so byte offsets equal the JS (UTF-16) offsets the reference
//! generator works with; the tests check that.

use super::rng::Rng;

/// The vocabulary of generated prose.
pub const WORDS: &[&str] = &[
    "the",
    "a",
    "an",
    "of",
    "to",
    "in",
    "for",
    "on",
    "with",
    "by",
    "from",
    "as",
    "at",
    "into",
    "over",
    "this",
    "that",
    "these",
    "those",
    "function",
    "module",
    "component",
    "projection",
    "runtime",
    "event",
    "stream",
    "state",
    "snapshot",
    "reducer",
    "handler",
    "request",
    "response",
    "error",
    "value",
    "result",
    "input",
    "output",
    "buffer",
    "cache",
    "index",
    "schema",
    "field",
    "record",
    "payload",
    "message",
    "thread",
    "turn",
    "tool",
    "call",
    "artifact",
    "evidence",
    "action",
    "approval",
    "review",
    "patch",
    "diff",
    "file",
    "path",
    "config",
    "test",
    "build",
    "compile",
    "render",
    "update",
    "apply",
    "merge",
    "replay",
    "hydrate",
    "validate",
    "normalize",
    "parse",
    "serialize",
    "compute",
    "return",
    "throw",
    "await",
    "import",
    "export",
    "define",
    "implement",
    "we",
    "should",
    "first",
    "then",
    "next",
    "also",
    "because",
    "however",
    "therefore",
    "so",
    "now",
    "it",
    "is",
    "are",
    "was",
    "will",
    "can",
    "may",
    "must",
    "need",
    "check",
    "verify",
    "ensure",
    "keep",
    "avoid",
    "handle",
    "use",
    "add",
    "remove",
    "rename",
    "move",
    "split",
    "extract",
    "inline",
    "cover",
    "fix",
    "refactor",
    "optimize",
    "measure",
    "simple",
    "small",
    "large",
    "fast",
    "slow",
    "stable",
    "pending",
    "running",
    "completed",
    "failed",
    "new",
    "existing",
    "current",
    "previous",
    "final",
    "incremental",
    "streaming",
    "partial",
    "missing",
];

/// Inline code spans sprinkled into prose (4% of words).
pub const CODE_SPANS: &[&str] = &[
    "`applyPatch()`",
    "`src/index.ts`",
    "`npm test`",
    "`Map<string, Node>`",
    "`useEffect`",
    "`cargo build --release`",
    "`JSON.parse`",
    "`turnId`",
    "`tsconfig.json`",
    "`Array.from()`",
];

fn is_ws_at(text: &[u8], at: i64) -> bool {
    usize::try_from(at)
        .ok()
        .and_then(|i| text.get(i))
        .is_some_and(|&b| is_js_whitespace_byte(b))
}

/// Whether byte `b`, read as the code point U+00`b`, is white space to JS `trim` and `\s`
/// (the part of that set below U+0100: tab, line feed, vertical tab, form feed, carriage
/// return, space and no-break space).
fn is_js_whitespace_byte(b: u8) -> bool {
    matches!(b, 0x09..=0x0D | 0x20 | 0xA0)
}

/// Sentences of random words until at least `target_chars` characters and a sentence end;
/// paragraphs (and sometimes list items) every four sentences.
pub fn make_text(rng: &mut Rng, target_chars: i64) -> String {
    let mut out = String::new();
    let mut sentence_words = 0i64;
    let mut sentence_length = rng.int(6, 18);
    let mut sentences = 0i64;
    while (out.len() as i64) < target_chars || sentence_words != 0 {
        let word = if rng.chance(0.04) {
            rng.pick(CODE_SPANS)
        } else {
            rng.pick(WORDS)
        }
        .copied()
        .unwrap_or("the");
        if sentence_words == 0 {
            if !out.is_empty() {
                out.push_str(if sentences % 4 == 0 { "\n\n" } else { " " });
                if sentences % 4 == 0 && rng.chance(0.3) {
                    out.push_str("- ");
                }
            }
            let mut chars = word.chars();
            match chars.next() {
                Some('`') | None => out.push_str(word),
                Some(first) => {
                    out.push(first.to_ascii_uppercase());
                    out.push_str(chars.as_str());
                }
            }
        } else {
            out.push(' ');
            out.push_str(word);
        }
        sentence_words += 1;
        if sentence_words >= sentence_length {
            out.push(if rng.chance(0.15) { ':' } else { '.' });
            sentence_words = 0;
            sentences += 1;
            sentence_length = rng.int(6, 18);
        }
    }
    out
}

/// Streamed chunks of about `[min, max]` characters (`min >= 1`), cut before white space when
/// one is near; the chunks concatenate to `text`. Every random draw happens before the caller
/// emits anything, as in the reference.
pub fn chunk_text<'t>(rng: &mut Rng, text: &'t str, (min, max): (i64, i64)) -> Vec<&'t str> {
    let bytes = text.as_bytes();
    let len = bytes.len() as i64;
    let mut chunks = Vec::new();
    let mut start = 0i64;
    while start < len {
        let target = rng.int(min, max).max(1);
        let mut end = len.min(start + target);
        if end < len {
            let mut probe = end;
            while probe < len && probe < start + max + 12 && !is_ws_at(bytes, probe) {
                probe += 1;
            }
            if probe < len && is_ws_at(bytes, probe) {
                end = probe;
            }
        }
        chunks.push(slice(text, start, end));
        start = end;
    }
    chunks
}

/// `count` contiguous pieces of `text` cut at white space near the even split points; empty
/// pieces are dropped, so the pieces concatenate to `text`.
pub fn split_into<'t>(rng: &mut Rng, text: &'t str, count: i64) -> Vec<&'t str> {
    let bytes = text.as_bytes();
    let len = bytes.len() as i64;
    let lenf = len as f64;
    let countf = count as f64;
    // Distinct cut points in ascending order (a sorted, deduplicated vector).
    let mut cuts: Vec<i64> = Vec::new();
    for i in 1..count {
        let jitter = (rng.next_f64() - 0.5) * (lenf / countf / 2.0);
        let mut at = ((lenf * i as f64) / countf + jitter).floor() as i64;
        while at < len && !is_ws_at(bytes, at) {
            at += 1;
        }
        if at > 0 && at < len {
            if let Err(pos) = cuts.binary_search(&at) {
                cuts.insert(pos, at);
            }
        }
    }
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0i64;
    for cut in cuts {
        pieces.push(slice(text, start, cut));
        start = cut;
    }
    pieces.push(slice(text, start, len));
    pieces.retain(|p| !p.is_empty());
    pieces
}

/// `text[start..end]` on ASCII text, empty when out of range.
fn slice(text: &str, start: i64, end: i64) -> &str {
    let s = usize::try_from(start).unwrap_or(0);
    let e = usize::try_from(end).unwrap_or(0);
    text.get(s..e).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_is_ascii() {
        assert!(WORDS
            .iter()
            .chain(CODE_SPANS)
            .all(|w| w.is_ascii() && !w.is_empty()));
    }

    #[test]
    fn pieces_concatenate_to_text() {
        let mut r = Rng::new("3");
        for target in [0, 1, 50, 400, 1600] {
            let text = make_text(&mut r, target);
            assert!(text.len() as i64 >= target);
            assert_eq!(chunk_text(&mut r, &text, (12, 28)).concat(), text);
            assert_eq!(split_into(&mut r, &text, 5).concat(), text);
            assert_eq!(split_into(&mut r, &text, 0).concat(), text);
        }
    }
}

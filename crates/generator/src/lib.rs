//! Deterministic realistic event streams for benchmarks and tests.
//!
//! A stream is one simulated agent session (see [`session`]) made of turns: reasoning, tool
//! calls (some gated by approvals, some failing), artifacts and evidence, subagent blocks and
//! streamed assistant text. The same `(n, seed, options)` always gives the same events, equal
//! key for key and byte for byte (as JSON text) to the JS benchmark generator the project was
//! modelled on, and `generate(n, ..)` is the first `n` events of `generate(m, ..)` for `n <= m`.

pub mod clock;
pub mod options;
pub mod rng;
pub mod session;
pub mod text;
pub mod vocab;

pub use options::GenOptions;
use serde_json::Value;
use session::{EventSink, Full, Session};

/// The largest stream [`generate_json`] makes.
pub const MAX_EVENTS: usize = 5_000_000;
/// The largest JSON text [`generate_json`] returns (below the longest string a JS engine holds).
pub const MAX_JSON_BYTES: usize = 500 * 1024 * 1024;

/// Collects events up to a count.
struct Collect {
    events: Vec<Value>,
    limit: usize,
}

impl EventSink for Collect {
    fn push(&mut self, event: Value) -> Result<(), Full> {
        self.events.push(event);
        if self.events.len() >= self.limit {
            Err(Full)
        } else {
            Ok(())
        }
    }
}

/// Writes events as the members of a JSON array, up to a count and a size.
struct WriteJson {
    text: Vec<u8>,
    count: usize,
    limit: usize,
    too_large: bool,
}

impl EventSink for WriteJson {
    fn push(&mut self, event: Value) -> Result<(), Full> {
        if self.count > 0 {
            self.text.push(b',');
        }
        if serde_json::to_writer(&mut self.text, &event).is_err()
            || self.text.len() > MAX_JSON_BYTES
        {
            self.too_large = true;
            return Err(Full);
        }
        self.count += 1;
        if self.count >= self.limit {
            Err(Full)
        } else {
            Ok(())
        }
    }
}

/// Exactly `n` events of the session for `seed`, `sequence` running 1..=n. Work and memory are
/// proportional to `n` (plus one turn's text).
pub fn generate(n: usize, seed: u32, opts: &GenOptions) -> Vec<Value> {
    let mut sink = Collect {
        events: Vec::with_capacity(n.min(1 << 20)),
        limit: n,
    };
    if n > 0 {
        Session::new(&seed.to_string(), opts).run(&mut sink);
    }
    sink.events
}

/// Calls `each` with the first `n` events of the session for `seed`, one at a time, without
/// keeping them.
pub fn for_each_event(n: usize, seed: u32, opts: &GenOptions, each: impl FnMut(Value)) {
    struct Each<F> {
        each: F,
        left: usize,
    }
    impl<F: FnMut(Value)> EventSink for Each<F> {
        fn push(&mut self, event: Value) -> Result<(), Full> {
            (self.each)(event);
            self.left = self.left.saturating_sub(1);
            if self.left == 0 {
                Err(Full)
            } else {
                Ok(())
            }
        }
    }
    if n > 0 {
        Session::new(&seed.to_string(), opts).run(&mut Each { each, left: n });
    }
}

/// `n` as a stream length for [`generate_json`], or the error for a count above [`MAX_EVENTS`]
/// (a count beyond `usize`, as a 32-bit WebAssembly module may be given, is refused the same way).
pub fn checked_count(n: u64) -> Result<usize, String> {
    match usize::try_from(n) {
        Ok(count) if count <= MAX_EVENTS => Ok(count),
        _ => Err(format!(
            "generateRuntimeEvents: count {n} is above the limit of {MAX_EVENTS} events"
        )),
    }
}

/// [`generate`] as JSON array text (the same text as `JSON.stringify` of the JS generator's
/// output). `options_json` is a JSON object of options (or `null`, or empty for defaults).
/// Refuses `n` above [`MAX_EVENTS`], output above [`MAX_JSON_BYTES`] and bad options.
pub fn generate_json(n: usize, seed: u32, options_json: &str) -> Result<String, String> {
    let n = checked_count(n as u64)?;
    let opts = if options_json.trim().is_empty() {
        GenOptions::default()
    } else {
        let v = serde_json::from_str::<Value>(options_json)
            .map_err(|e| format!("generator options are not valid JSON: {e}"))?;
        GenOptions::from_json(&v)?
    };
    let mut sink = WriteJson {
        text: Vec::with_capacity(n.saturating_mul(560).min(MAX_JSON_BYTES) + 2),
        count: 0,
        limit: n,
        too_large: false,
    };
    sink.text.push(b'[');
    if n > 0 {
        Session::new(&seed.to_string(), &opts).run(&mut sink);
    }
    if sink.too_large {
        return Err(format!(
            "generateRuntimeEvents: the stream of {n} events is larger than {MAX_JSON_BYTES} bytes of JSON"
        ));
    }
    sink.text.push(b']');
    String::from_utf8(sink.text).map_err(|e| e.to_string())
}

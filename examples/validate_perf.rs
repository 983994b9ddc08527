//! Native timing of the runtime-event validators on a generated stream: the per-event validator
//! on parsed values, and the stream validator on the JSON text of the array (and NDJSON).
//!
//! Run: `cargo run --release --example validate_perf -- [n] [runs]` (default 100000 7).

use agent_runtime_projection::contract::validation::{
    collect_runtime_event_issues, collect_runtime_events_issues,
};
use agent_runtime_projection::generator::{generate, GenOptions};
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

fn median_ms(runs: usize, mut f: impl FnMut() -> usize) -> f64 {
    black_box(f());
    let mut xs: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(0.0)
}

fn report(what: &str, n: usize, ms: f64) {
    let rate = n as f64 / (ms / 1e3);
    println!(
        "{what}: {ms:.1} ms, {rate:.0} events/s, {:.2} µs/event",
        ms * 1e3 / n as f64
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(7);
    let events = generate(n, 42, &GenOptions::default());
    let text = serde_json::to_string(&events).unwrap_or_default();
    println!(
        "{n} events, {:.1} bytes/event",
        text.len() as f64 / n as f64
    );

    let per_event = median_ms(runs, || {
        events
            .iter()
            .map(|e| collect_runtime_event_issues(e, "$").len())
            .sum()
    });
    report(
        "per event on parsed values (collect_runtime_event_issues)",
        n,
        per_event,
    );

    let stream = median_ms(runs, || {
        collect_runtime_events_issues(&text, "$").map_or(usize::MAX, |i| i.len())
    });
    report(
        "stream on array text (collect_runtime_events_issues)",
        n,
        stream,
    );

    let parse = median_ms(runs, || {
        serde_json::from_str::<Value>(&text).map_or(0, |v| v.as_array().map_or(0, Vec::len))
    });
    report(
        "for scale: serde_json::from_str::<Value> of the array",
        n,
        parse,
    );
}

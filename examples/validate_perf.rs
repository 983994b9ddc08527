//! Native timing of the runtime-event validators on a generated stream: the per-event validator
//! on parsed values, and the stream validator on the JSON text of the array (and NDJSON).
//!
//! Run: `cargo run --release --example validate_perf -- [n] [runs] [only]` (default 100000 7;
//! `only` is one of `values`, `text`, `parse` to time one of them, e.g. under `perf record`).

use agent_runtime_projection::contract::validation::{
    collect_runtime_event_issues, collect_runtime_events_issues,
};
use agent_runtime_projection::generator::{generate, GenOptions};
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

/// CPU time of this process so far in ms (Linux `/proc/self/stat`, 10 ms ticks; 0 elsewhere):
/// on a shared machine it shows the work without the waits.
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let after = s.rsplit_once(')')?.1;
            let f: Vec<&str> = after.split_whitespace().collect();
            let utime: f64 = f.get(11)?.parse().ok()?;
            let stime: f64 = f.get(12)?.parse().ok()?;
            Some((utime + stime) * 10.0)
        })
        .unwrap_or(0.0)
}

/// Median wall time and mean CPU time (ms) of `runs` calls after one warm-up call.
fn median_ms(runs: usize, mut f: impl FnMut() -> usize) -> (f64, f64) {
    black_box(f());
    let cpu0 = cpu_ms();
    let mut xs: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let cpu = (cpu_ms() - cpu0) / runs.max(1) as f64;
    xs.sort_by(f64::total_cmp);
    (xs.get(xs.len() / 2).copied().unwrap_or(0.0), cpu)
}

fn report(what: &str, n: usize, (ms, cpu): (f64, f64)) {
    let rate = n as f64 / (ms / 1e3);
    println!(
        "{what}: median {ms:.1} ms, {rate:.0} events/s, {:.2} µs/event (CPU time {:.2} µs/event, {:.0} events/s)",
        ms * 1e3 / n as f64,
        cpu * 1e3 / n as f64,
        n as f64 / (cpu / 1e3),
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(7);
    let only = args.next().unwrap_or_default();
    let wanted = |what: &str| only.is_empty() || only == what;
    let events = generate(n, 42, &GenOptions::default());
    let text = serde_json::to_string(&events).unwrap_or_default();
    println!(
        "{n} events, {:.1} bytes/event",
        text.len() as f64 / n as f64
    );

    if wanted("values") {
        let t = median_ms(runs, || {
            events
                .iter()
                .map(|e| collect_runtime_event_issues(e, "$").len())
                .sum()
        });
        report(
            "per event on parsed values (collect_runtime_event_issues)",
            n,
            t,
        );
    }
    if wanted("text") {
        let t = median_ms(runs, || {
            collect_runtime_events_issues(&text, "$").map_or(usize::MAX, |i| i.len())
        });
        report("stream on array text (collect_runtime_events_issues)", n, t);
    }
    if wanted("parse") {
        let t = median_ms(runs, || {
            serde_json::from_str::<Value>(&text).map_or(0, |v| v.as_array().map_or(0, Vec::len))
        });
        report(
            "for scale: serde_json::from_str::<Value> of the array",
            n,
            t,
        );
    }
}

//! Native cost of live `apply` (parse of the event's JSON text + `Projector::apply`, the work one
//! wasm `apply` call does) by event class, to find what makes the p99 of the stream: prints, per
//! class, its share of the events, mean and p99 µs, and how many of the stream's slowest 1% it
//! holds.
//!
//! Run: `cargo run --release --example class_costs -- [n]` (default 100000).

use agent_runtime_projection::contract::json::parse_value;
use agent_runtime_projection::generator::{generate, GenOptions};
use agent_runtime_projection::projection::projector::Projector;
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000usize);
    let texts: Vec<(String, String)> = generate(n, 42, &GenOptions::default())
        .iter()
        .map(|e| {
            let class = e
                .get("eventClass")
                .or_else(|| e.get("type"))
                .and_then(|c| c.as_str())
                .unwrap_or("?")
                .to_string();
            (class, e.to_string())
        })
        .collect();
    let mut p = Projector::new(None);
    let mut times: Vec<(f64, usize)> = Vec::with_capacity(n);
    for (i, (_, text)) in texts.iter().enumerate() {
        let t = Instant::now();
        if let Ok(v) = parse_value(text) {
            let _ = p.apply(v, i as u32);
        }
        times.push((t.elapsed().as_secs_f64() * 1e6, i));
    }
    let mut sorted: Vec<f64> = times.iter().map(|t| t.0).collect();
    sorted.sort_by(f64::total_cmp);
    let q = |s: &[f64], f: f64| s.get(((s.len() as f64 - 1.0) * f) as usize).copied().unwrap_or(0.0);
    let p99 = q(&sorted, 0.99);
    println!("n={n}: p50 {:.1} µs, p99 {p99:.1} µs", q(&sorted, 0.5));
    let mut by: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut slow: BTreeMap<&str, usize> = BTreeMap::new();
    for &(t, i) in &times {
        let class = texts.get(i).map(|x| x.0.as_str()).unwrap_or("?");
        by.entry(class).or_default().push(t);
        if t > p99 {
            *slow.entry(class).or_default() += 1;
        }
    }
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by(|a, b| b.1.len().cmp(&a.1.len()));
    println!("{:<28} {:>7} {:>9} {:>9} {:>9} {:>8}", "class", "share", "mean", "p50", "p99", "in >p99");
    for (class, mut ts) in rows {
        ts.sort_by(f64::total_cmp);
        let mean = ts.iter().sum::<f64>() / ts.len() as f64;
        println!(
            "{class:<28} {:>6.2}% {mean:>9.1} {:>9.1} {:>9.1} {:>8}",
            100.0 * ts.len() as f64 / n as f64,
            q(&ts, 0.5),
            q(&ts, 0.99),
            slow.get(class).copied().unwrap_or(0)
        );
    }
}

//! Native cost of live `apply` (`ProjectorCore::apply_text`: the event reader's parse of the
//! event's JSON text and the projection, the work one wasm `apply` call does) by event class,
//! to find what makes the p99 of the stream: prints, per class, its share of the events, mean
//! and p99 µs, and how many of the stream's slowest 1% it holds, and its mean over the first
//! and the last tenth of the stream.
//!
//! Run: `cargo run --release --example class_costs -- [n]` (default 100000).

use agent_runtime_projection::generator::{generate, GenOptions};
use agent_runtime_projection::projection::projector::ProjectorCore;
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
    let mut p = ProjectorCore::new(None);
    let mut times: Vec<(f64, usize)> = Vec::with_capacity(n);
    for (i, (_, text)) in texts.iter().enumerate() {
        let t = Instant::now();
        let _ = std::hint::black_box(p.apply_text(text, i as u32));
        times.push((t.elapsed().as_secs_f64() * 1e6, i));
    }
    let mut sorted: Vec<f64> = times.iter().map(|t| t.0).collect();
    sorted.sort_by(f64::total_cmp);
    let q = |s: &[f64], f: f64| {
        s.get(((s.len() as f64 - 1.0) * f) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let p99 = q(&sorted, 0.99);
    println!("n={n}: p50 {:.1} µs, p99 {p99:.1} µs", q(&sorted, 0.5));
    let mut by: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    // Mean per class over the first and the last tenth of the stream (growth with position).
    let mut ends: BTreeMap<&str, [(f64, usize); 2]> = BTreeMap::new();
    let mut slow: BTreeMap<&str, usize> = BTreeMap::new();
    for &(t, i) in &times {
        let class = texts.get(i).map(|x| x.0.as_str()).unwrap_or("?");
        by.entry(class).or_default().push(t);
        let part = if i < n / 10 {
            Some(0)
        } else if i >= n - n / 10 {
            Some(1)
        } else {
            None
        };
        if let Some(e) = part.and_then(|k| ends.entry(class).or_default().get_mut(k)) {
            e.0 += t;
            e.1 += 1;
        }
        if t > p99 {
            *slow.entry(class).or_default() += 1;
        }
    }
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by_key(|b| std::cmp::Reverse(b.1.len()));
    println!(
        "{:<24} {:>7} {:>7} {:>7} {:>7} {:>8} {:>7} {:>7}",
        "class", "share", "mean", "p50", "p99", "in >p99", "first", "last"
    );
    for (class, mut ts) in rows {
        ts.sort_by(f64::total_cmp);
        let mean = ts.iter().sum::<f64>() / ts.len() as f64;
        let avg = |k: usize| {
            let (sum, count) = ends
                .get(class)
                .and_then(|e| e.get(k))
                .copied()
                .unwrap_or((0.0, 0));
            sum / count.max(1) as f64
        };
        println!(
            "{class:<24} {:>6.2}% {mean:>7.1} {:>7.1} {:>7.1} {:>8} {:>7.1} {:>7.1}",
            100.0 * ts.len() as f64 / n as f64,
            q(&ts, 0.5),
            q(&ts, 0.99),
            slow.get(class).copied().unwrap_or(0),
            avg(0),
            avg(1)
        );
    }
}

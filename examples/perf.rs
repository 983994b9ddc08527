//! Quick native timing of the projector on generated streams: per-event `apply` + `take_patch`
//! cost (p50, p99, first/last 10% means) and batch `project` time.
//!
//! Run: `cargo run --release --example perf -- [n ...]` (default 20000 100000).

use agent_runtime_projection::generator::{generate, GenOptions};
use agent_runtime_projection::projection::projector::{project, Projector};
use std::hint::black_box;
use std::time::Instant;

/// Resident set size in MiB (Linux; 0 elsewhere).
fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map(|pages| pages * 4096.0 / 1048576.0)
        .unwrap_or(0.0)
}

fn run(n: usize) {
    let events = generate(n, 42, &GenOptions::default());
    let rss0 = rss_mib();
    let mut p = Projector::new(None);
    let mut us = Vec::with_capacity(n);
    let mut patch_us = Vec::with_capacity(n);
    for (i, e) in events.iter().enumerate() {
        let e = e.clone();
        let t = Instant::now();
        let _ = black_box(p.apply(e, i as u32));
        let t2 = Instant::now();
        let patch = p.take_patch().expect("readable state");
        let t3 = Instant::now();
        black_box(patch);
        us.push((t3 - t).as_secs_f64() * 1e6);
        patch_us.push((t3 - t2).as_secs_f64() * 1e6);
    }
    let rss1 = rss_mib();
    println!("n={n}: rss after generate {rss0:.0} MiB, after apply {rss1:.0} MiB");
    let t = Instant::now();
    drop(p);
    let drop_ms = t.elapsed().as_secs_f64() * 1e3;
    let tenth = (n / 10).max(1);
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let first = mean(&us[..tenth]);
    let last = mean(&us[n - tenth..]);
    let mut sorted = us.clone();
    sorted.sort_by(f64::total_cmp);
    let q = |f: f64| sorted[((n - 1) as f64 * f).round() as usize];
    let total_s: f64 = us.iter().sum::<f64>() / 1e6;
    let patch_s: f64 = patch_us.iter().sum::<f64>() / 1e6;
    let t = Instant::now();
    let st = project(&events, None).expect("projected");
    let batch = t.elapsed().as_secs_f64();
    let t = Instant::now();
    drop(st);
    let st_drop = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "n={n}: apply+patch total {total_s:.3}s (patch {patch_s:.3}s) p50 {:.2}us p99 {:.2}us \
         first10% {first:.2}us last10% {last:.2}us ratio {:.2} | projector drop {drop_ms:.1}ms | \
         batch {batch:.3}s (state drop {st_drop:.1}ms)",
        q(0.5),
        q(0.99),
        last / first
    );
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let ns = if args.is_empty() {
        vec![20_000, 100_000]
    } else {
        args
    };
    for n in ns {
        run(n);
    }
}

//! Native benchmark of the Rust core alone (no JS, no wasm): batch projection, per-event apply
//! cost and its growth over a stream, hydrate, validation throughput, and serde_json costs for
//! scale. Streams come from the project's deterministic generator.
//!
//! Run: `cargo bench --bench native` (add `-- --quick` for a short run with fewer repetitions,
//! `-- --only project|validate|serde` for one section).
//! Prints one Markdown table.

use agent_runtime_projection::contract::tape::Tape;
use agent_runtime_projection::contract::val::Val;
use agent_runtime_projection::contract::validation::{
    collect_runtime_event_issues, collect_runtime_events_issues,
};
use agent_runtime_projection::generator::{generate, GenOptions};
use agent_runtime_projection::projection::projector::{project, Projector, ProjectorCore};
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

/// Streams are generated with this seed and the default options.
const SEED: u32 = 42;

/// One line of the results table.
struct Row {
    what: String,
    n: String,
    value: String,
    target: String,
}

impl Row {
    fn new(what: &str, n: usize, value: String, target: &str) -> Row {
        Row {
            what: what.to_string(),
            n: group(n),
            value,
            target: target.to_string(),
        }
    }
}

/// `1234567` as `1,234,567`.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

/// The `q` quantile (0..=1) of sorted samples.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// Median wall time in milliseconds of `runs` calls of `f`; `setup` builds each call's input
/// outside the timed part.
fn time_ms<I, R>(runs: usize, mut setup: impl FnMut() -> I, mut f: impl FnMut(I) -> R) -> f64 {
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let input = setup();
        let start = Instant::now();
        let out = f(input);
        samples.push(start.elapsed().as_secs_f64() * 1e3);
        drop(black_box(out));
    }
    median(samples)
}

fn ms(x: f64) -> String {
    format!("{x:.1} ms")
}

fn us(x: f64) -> String {
    format!("{x:.2} µs")
}

fn per_s(events: usize, millis: f64) -> String {
    format!(
        "{} events/s",
        group((events as f64 / (millis / 1e3)) as usize)
    )
}

struct Config {
    runs_small: usize,
    runs_large: usize,
    sizes: [usize; 3],
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let cfg = if quick {
        Config {
            runs_small: 3,
            runs_large: 1,
            sizes: [1_000, 20_000, 100_000],
        }
    } else {
        Config {
            runs_small: 9,
            runs_large: 5,
            sizes: [1_000, 20_000, 100_000],
        }
    };
    let opts = GenOptions::default();
    let largest = cfg.sizes[2];
    let start = Instant::now();
    let events = generate(largest, SEED, &opts);
    let gen_ms = start.elapsed().as_secs_f64() * 1e3;

    let mut rows = vec![Row::new(
        "generate (generator::generate)",
        largest,
        format!("{} ({})", ms(gen_ms), per_s(largest, gen_ms)),
        "",
    )];

    let args: Vec<String> = std::env::args().collect();
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1));
    let wanted = |section: &str| only.map_or(true, |o| o == section);
    if wanted("project") {
        rows.extend(projection_rows(&cfg, &events));
    }
    if wanted("validate") {
        rows.extend(validation_rows(&cfg, &events));
    }
    if wanted("serde") {
        rows.extend(serde_rows(&cfg, &events));
    }

    println!("| native (Rust core, no wasm) | events | result | target |");
    println!("|---|---:|---|---|");
    for r in rows {
        println!("| {} | {} | {} | {} |", r.what, r.n, r.value, r.target);
    }
}

/// Per-call statistics (µs) of a stream applied one event at a time.
struct PerEvent {
    p50: f64,
    p99: f64,
    first: f64,
    last: f64,
}

impl PerEvent {
    fn of(times: Vec<f64>) -> PerEvent {
        let tenth = (times.len() / 10).max(1);
        let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
        let first = mean(&times[..tenth.min(times.len())]);
        let last = mean(&times[times.len().saturating_sub(tenth)..]);
        let mut sorted = times;
        sorted.sort_by(f64::total_cmp);
        PerEvent {
            p50: quantile(&sorted, 0.5),
            p99: quantile(&sorted, 0.99),
            first,
            last,
        }
    }

    /// The median of each statistic over several runs.
    fn median_of(runs: Vec<PerEvent>) -> PerEvent {
        let pick = |f: fn(&PerEvent) -> f64| median(runs.iter().map(f).collect());
        PerEvent {
            p50: pick(|r| r.p50),
            p99: pick(|r| r.p99),
            first: pick(|r| r.first),
            last: pick(|r| r.last),
        }
    }

    fn ratio(&self) -> f64 {
        self.last / self.first
    }
}

/// Apply `events` one at a time to a new projector, timing each call of `step`.
fn per_event(events: &[Value], mut step: impl FnMut(&mut Projector, Value, u32)) -> PerEvent {
    let owned: Vec<Value> = events.to_vec();
    let mut projector = Projector::new(None);
    let mut times = Vec::with_capacity(owned.len());
    for (i, event) in owned.into_iter().enumerate() {
        let start = Instant::now();
        step(&mut projector, event, i as u32);
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    black_box(&projector);
    PerEvent::of(times)
}

/// Batch projection, per-event apply and its growth, patches, state, hydrate.
fn projection_rows(cfg: &Config, events: &[Value]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (n, runs) in [
        (cfg.sizes[0], cfg.runs_small),
        (cfg.sizes[1], cfg.runs_large),
        (cfg.sizes[2], cfg.runs_large),
    ] {
        let slice = &events[..n.min(events.len())];
        let t = time_ms(runs, || (), |()| project(slice, None));
        rows.push(Row::new(
            "batch `project`",
            slice.len(),
            format!("{} ({}/event)", ms(t), us(t * 1e3 / slice.len() as f64)),
            "",
        ));
        // What the wasm batch does: from the JSON array text, each event read as a record.
        let text = serde_json::to_string(slice).unwrap_or_default();
        let t = time_ms(
            runs,
            || (),
            |()| ProjectorCore::counted(Val::Num(0.0)).project_array_text(&text),
        );
        rows.push(Row::new(
            "batch from JSON text (`project_array_text`)",
            slice.len(),
            format!("{} ({}/event)", ms(t), us(t * 1e3 / slice.len() as f64)),
            "",
        ));
    }

    let n = events.len();
    let apply = PerEvent::median_of(
        (0..cfg.runs_large)
            .map(|_| {
                per_event(events, |p, e, i| {
                    let _ = black_box(p.apply(e, i));
                })
            })
            .collect(),
    );
    rows.push(Row::new(
        "`Projector::apply`: p50 / p99",
        n,
        format!("{} / {}", us(apply.p50), us(apply.p99)),
        "",
    ));
    rows.push(Row::new(
        "`Projector::apply`: mean first 10% / last 10% (ratio)",
        n,
        format!(
            "{} / {} ({:.2})",
            us(apply.first),
            us(apply.last),
            apply.ratio()
        ),
        "ratio < 1.5",
    ));

    let n_mid = cfg.sizes[1].min(n);
    let patched = PerEvent::median_of(
        (0..cfg.runs_large)
            .map(|_| {
                let mut tape = Tape::default();
                per_event(&events[..n_mid], |p, e, i| {
                    let _ = p.apply(e, i);
                    let patch = p.take_patch().expect("readable state");
                    black_box(p.write_patch(&patch, &mut tape)).expect("fits");
                })
            })
            .collect(),
    );
    rows.push(Row::new(
        "`apply` + `take_patch` + patch tape, every event: p50 / p99",
        n_mid,
        format!("{} / {}", us(patched.p50), us(patched.p99)),
        "",
    ));
    rows.push(Row::new(
        "  same: mean first 10% / last 10% (ratio)",
        n_mid,
        format!(
            "{} / {} ({:.2})",
            us(patched.first),
            us(patched.last),
            patched.ratio()
        ),
        "ratio < 1.5",
    ));

    let mut full = Projector::new(None);
    for (i, e) in events.iter().enumerate() {
        let _ = full.apply(e.clone(), i as u32);
    }
    let state = time_ms(
        cfg.runs_small,
        || (),
        |()| full.state().expect("readable state").to_json().len(),
    );
    rows.push(Row::new(
        "`Projector::state` + JSON text after the stream",
        n,
        ms(state),
        "",
    ));

    for (n, runs) in [
        (cfg.sizes[1], cfg.runs_large),
        (cfg.sizes[2], cfg.runs_large),
    ] {
        let slice = &events[..n.min(events.len())];
        let t = time_ms(
            runs,
            || (Projector::new(None), slice.to_vec()),
            |(mut p, evs)| {
                p.hydrate(evs, &[], None).expect("hydrated");
                p
            },
        );
        rows.push(Row::new("`Projector::hydrate`", slice.len(), ms(t), ""));
    }
    rows
}

/// `collect_runtime_event_issues` on every event, one call per event.
fn validation_rows(cfg: &Config, events: &[Value]) -> Vec<Row> {
    let n = events.len();
    let t = time_ms(
        cfg.runs_large,
        || (),
        |()| {
            let mut issues = 0usize;
            for e in events {
                issues += collect_runtime_event_issues(e, "$").len();
            }
            assert_eq!(issues, 0, "generated events must validate");
            issues
        },
    );
    let text = serde_json::to_string(events).unwrap_or_default();
    let t_text = time_ms(
        cfg.runs_large,
        || (),
        |()| {
            let issues = collect_runtime_events_issues(&text, "$").map_or(usize::MAX, |i| i.len());
            assert_eq!(issues, 0, "generated events must validate");
            issues
        },
    );
    vec![
        Row::new(
            "validation, per event (collect_runtime_event_issues)",
            n,
            format!("{} ({})", ms(t), per_s(n, t)),
            "JS API ≥ 1,000,000 events/s",
        ),
        Row::new(
            &format!(
                "validation, JSON array text (collect_runtime_events_issues, {:.1} MB)",
                text.len() as f64 / 1e6
            ),
            n,
            format!("{} ({})", ms(t_text), per_s(n, t_text)),
            "JS API ≥ 1,000,000 events/s",
        ),
    ]
}

/// serde_json parse and print of the stream, for scale.
fn serde_rows(cfg: &Config, events: &[Value]) -> Vec<Row> {
    let n = cfg.sizes[1].min(events.len());
    let slice = &events[..n];
    let text = serde_json::to_string(slice).unwrap_or_default();
    let texts: Vec<String> = slice
        .iter()
        .map(|e| serde_json::to_string(e).unwrap_or_default())
        .collect();
    let parse = time_ms(
        cfg.runs_small,
        || (),
        |()| serde_json::from_str::<Value>(&text).map(|_| ()).is_ok(),
    );
    let parse_each = time_ms(
        cfg.runs_small,
        || (),
        |()| {
            texts
                .iter()
                .filter(|t| serde_json::from_str::<Value>(t).is_ok())
                .count()
        },
    );
    let print = time_ms(
        cfg.runs_small,
        || (),
        |()| serde_json::to_string(slice).map(|s| s.len()).unwrap_or(0),
    );
    vec![
        Row::new(
            &format!(
                "serde_json parse, whole array ({:.1} MB)",
                text.len() as f64 / 1e6
            ),
            n,
            format!("{} ({}/event)", ms(parse), us(parse * 1e3 / n as f64)),
            "",
        ),
        Row::new(
            "serde_json parse, one call per event",
            n,
            format!(
                "{} ({}/event)",
                ms(parse_each),
                us(parse_each * 1e3 / n as f64)
            ),
            "",
        ),
        Row::new("serde_json print, whole array", n, ms(print), ""),
    ]
}

//! Native breakdown of the batch path the wasm `project` export takes: JSON text -> parse ->
//! event checks -> projector -> state -> wire text. Each stage timed separately (median of runs).
//!
//! Run: `cargo run --release --example batch_breakdown -- [n] [runs]` (default 20000 5).

use agent_runtime_projection::contract::event::check_event;
use agent_runtime_projection::generator::generate_json;
use agent_runtime_projection::projection::projector::Projector;
use serde_json::Value;
use std::time::Instant;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(20_000);
    let runs = args.get(1).copied().unwrap_or(5);
    let Ok(text) = generate_json(n, 42, "{}") else {
        eprintln!("generator failed");
        return;
    };
    let mut rows: Vec<[f64; 6]> = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let Ok(Value::Array(events)) = agent_runtime_projection::contract::json::parse_value(&text)
        else {
            eprintln!("parse failed");
            return;
        };
        let parse = ms(t);
        let t = Instant::now();
        let ok = events.iter().all(|e| check_event(e).is_ok());
        let check = ms(t);
        assert!(ok);
        let t = Instant::now();
        let mut p = Projector::new(None);
        p.hydrate(events, &[], None).expect("hydrated");
        let hydrate = ms(t);
        let t = Instant::now();
        let st = p.state().expect("readable state");
        let state = ms(t);
        let t = Instant::now();
        let mut out = String::new();
        st.write_json(&mut out);
        let wire = ms(t);
        let t = Instant::now();
        drop(st);
        drop(p);
        let dropped = ms(t);
        rows.push([parse, check, hydrate, state, wire, dropped]);
        std::hint::black_box(out);
    }
    let names = ["parse", "check", "hydrate", "state", "wire", "drop"];
    let mut total = 0.0;
    for (i, name) in names.iter().enumerate() {
        let mut xs: Vec<f64> = rows.iter().map(|r| r[i]).collect();
        xs.sort_by(f64::total_cmp);
        let m = xs[xs.len() / 2];
        total += m;
        println!("{name:>8}: {m:8.1} ms ({:.2} µs/event)", m * 1e3 / n as f64);
    }
    println!(
        "   total: {total:8.1} ms ({:.2} µs/event), input {:.1} MB",
        total * 1e3 / n as f64,
        text.len() as f64 / 1e6
    );
}

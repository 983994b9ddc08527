//! Native cost of the short batches the wasm `project` export runs for the standard fixtures
//! (parse of the event list's JSON text, projection, wire text), per fixture, to find the fixed
//! and per-event costs of a short stream. Under `valgrind --tool=callgrind` it gives exact
//! instruction counts per function, which a noisy machine's timings do not.
//!
//! Run: `cargo run --release --example fixture_costs -- [rounds] [name]` (default 2000 rounds of
//! every fixture; `name`: only the fixtures whose id contains it, or the path of a file holding a
//! JSON array of events, e.g. a generated stream, to measure that list instead).

use agent_runtime_projection::contract::json::parse_value;
use agent_runtime_projection::projection::projector::Projector;
use serde_json::Value;
use std::time::Instant;

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000usize);
    let only = std::env::args().nth(2).unwrap_or_default();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("no fixtures in {dir}");
        return;
    };
    let mut lists: Vec<(String, String)> = Vec::new();
    let from_file = only.ends_with(".json");
    if from_file {
        if let Ok(text) = std::fs::read_to_string(&only) {
            lists.push((only.clone(), text));
        }
    }
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if from_file || !name.contains(&only) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(fixture) = parse_value(&text) else {
            continue;
        };
        let events = fixture.get("events").cloned().unwrap_or(Value::Null);
        lists.push((name, events.to_string()));
    }
    lists.sort();
    for (name, text) in &lists {
        let t = Instant::now();
        let mut out_len = 0;
        for _ in 0..rounds {
            let Ok(Value::Array(events)) = parse_value(text) else {
                return;
            };
            let mut projector = Projector::new(None);
            if let Ok(state) = projector.project_list_compact(events) {
                let mut out = String::new();
                projector.write_wire(&state, &mut out);
                out_len = out.len();
            }
        }
        let us = t.elapsed().as_secs_f64() * 1e6 / rounds as f64;
        println!(
            "{name:26} {us:8.1} µs  in {} B, wire {out_len} B",
            text.len()
        );
    }
}

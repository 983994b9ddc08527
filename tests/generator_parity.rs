//! The Rust generator against the JS benchmark generator: the recorded parity streams (read
//! from `../shared/reference`) and, when Node and `../shared/bench/gen.mjs` are present, fresh
//! JS output for larger streams. Both fail when `../shared` is absent, unless
//! `ALLOW_MISSING_REFERENCE=1` (then they skip with a message).

use agent_runtime_projection::generator::{generate, generate_json, GenOptions};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// `../shared/<rel>` when it exists; when absent, a failure unless `ALLOW_MISSING_REFERENCE=1`.
fn shared_path(rel: &str) -> Option<PathBuf> {
    let path = shared().join(rel);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("ALLOW_MISSING_REFERENCE").as_deref() == Ok("1") {
        eprintln!(
            "SKIP: {} is absent (ALLOW_MISSING_REFERENCE=1)",
            path.display()
        );
        return None;
    }
    panic!(
        "{} is absent: this test compares against it (set ALLOW_MISSING_REFERENCE=1 to skip)",
        path.display()
    );
}

fn options(v: &Value) -> GenOptions {
    GenOptions::from_json(v).expect("valid options")
}

#[test]
fn equals_recorded_parity_streams() {
    let Some(dir) = shared_path("reference/parity/streams") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).expect("readable streams directory");
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.retain(|p| p.extension().is_some_and(|x| x == "json"));
    paths.sort();
    assert!(!paths.is_empty(), "no streams in {}", dir.display());
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable stream file");
        let golden: Value = serde_json::from_str(&text).expect("stream file is JSON");
        let g = &golden["generator"];
        let n = g["n"].as_u64().expect("n") as usize;
        let seed = g["seed"].as_u64().expect("seed") as u32;
        let opts = &g["options"];
        let expected = &golden["input"]["executionEvents"];
        let events = generate(n, seed, &options(opts));
        assert_eq!(
            &Value::Array(events.clone()),
            expected,
            "{}",
            path.display()
        );
        // As text too: the same JSON as JSON.stringify of the recorded events.
        let ours = generate_json(n, seed, &opts.to_string()).expect("generate_json");
        assert_eq!(
            ours,
            serde_json::to_string(expected).unwrap(),
            "{}",
            path.display()
        );
        eprintln!("ok {} ({} events)", path.display(), n);
    }
}

/// Runs gen.mjs under Node; `None` when it is absent and that is allowed (see `shared_path`).
fn node_generate(n: usize, seed: u32, opts: &Value) -> Option<String> {
    let gen = shared_path("bench/gen.mjs")?;
    let url = format!("file://{}", gen.canonicalize().ok()?.display());
    let script = format!(
        "import {{ generate }} from {url:?}; process.stdout.write(JSON.stringify(generate({n}, {seed}, {opts})));"
    );
    let out = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .output()
        .expect("node is runnable (the test command installs it)");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("utf-8 output"))
}

#[test]
fn equals_js_generator_text() {
    let cases = [
        (20_000usize, 42u32, json!({})),
        (5_000, 7, json!({"toolFailureRate": 0.3})),
        (
            4_000,
            4_294_967_295,
            json!({"subagentRate": 0.9, "stateDeltaRate": 0.5, "actionRate": 1, "toolProgress": [0, 5]}),
        ),
        (
            3_000,
            0,
            json!({
                "startTime": "1999-12-31T23:59:00Z", "runtimeId": "rt_é", "model": "m",
                "schemaVersion": "v", "chunkChars": [1, 3], "messageChars": [0, 50],
                "reasoningChars": [0, 10], "reasoningDeltas": [0, 1], "toolsPerTurn": [0, 6],
                "turnFailureRate": 0.5
            }),
        ),
    ];
    for (n, seed, opts) in cases {
        let Some(js) = node_generate(n, seed, &opts) else {
            return;
        };
        let ours = generate_json(n, seed, &opts.to_string()).expect("generate_json");
        assert_eq!(ours.len(), js.len(), "n={n} seed={seed} opts={opts}");
        assert!(ours == js, "n={n} seed={seed} opts={opts}: texts differ");
        eprintln!("ok node n={n} seed={seed} ({} bytes)", js.len());
    }
}

#[test]
fn shorter_streams_are_prefixes() {
    for opts in [json!({}), json!({"subagentRate": 1, "stateDeltaRate": 1})] {
        let o = options(&opts);
        let long = generate(3_000, 11, &o);
        assert_eq!(long.len(), 3_000);
        for n in [0, 1, 2, 55, 56, 57, 999, 2_999] {
            assert_eq!(generate(n, 11, &o)[..], long[..n], "n={n}");
        }
        for (i, e) in long.iter().enumerate() {
            assert_eq!(e["sequence"], json!(i + 1));
        }
    }
}

#[test]
fn json_entry_point_checks_its_inputs() {
    assert_eq!(generate_json(0, 1, "").unwrap(), "[]");
    assert_eq!(generate_json(0, 1, "null").unwrap(), "[]");
    assert!(generate_json(5_000_001, 1, "{}")
        .unwrap_err()
        .contains("limit"));
    assert!(generate_json(1, 1, "{\"nope\": 1}")
        .unwrap_err()
        .contains("unknown generator option \"nope\""));
    assert!(generate_json(1, 1, "{")
        .unwrap_err()
        .contains("not valid JSON"));
    let one: Value = serde_json::from_str(&generate_json(1, 1, "{}").unwrap()).unwrap();
    assert_eq!(one, Value::Array(generate(1, 1, &GenOptions::default())));
}

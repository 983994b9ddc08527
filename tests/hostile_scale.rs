//! Hostile sizes through the projector: huge strings, a huge text delta, hundreds of thousands
//! of events, long runs of state.delta events; plus memory per event and secret redaction.
//!
//! The heavy measurements are `#[ignore]`d and run in release:
//! `cargo test --release --test hostile_scale -- --ignored --nocapture`
//! (their printed numbers are the ones in docs/limits.md).

use std::time::Instant;

use agent_runtime_projection::contract::redact::redact_secrets;
use agent_runtime_projection::contract::val::{deep_equal, Val};
use agent_runtime_projection::generator::{for_each_event, generate, GenOptions};
use agent_runtime_projection::projection::{project, Projector};
use serde_json::{json, Value};

fn base(id: &str, seq: u64, class: &str, kind: &str) -> Value {
    json!({
        "id": id,
        "schemaVersion": "lime-runtime-event/v0.1",
        "runtimeId": "runtime_h",
        "threadId": "thread_h",
        "turnId": "turn_h",
        "sequence": seq,
        "kind": kind,
        "eventClass": class,
        "status": "running",
        "title": "T",
        "createdAt": "2026-06-10T00:00:00.000Z",
    })
}

fn with_payload(mut ev: Value, payload: Value) -> Value {
    if let Some(m) = ev.as_object_mut() {
        m.insert("payload".into(), payload);
    }
    ev
}

/// The JSON text the JS side would see: the state with `Val::Event(i)` replaced by event `i`.
fn state_text(state: &Val, events: &[Value]) -> String {
    state
        .js_stringify(&mut |i, out| match events.get(i as usize) {
            Some(e) => {
                out.push_str(&e.to_string());
                true
            }
            None => false,
        })
        .unwrap_or_default()
}

/// Resident set size of this process in bytes (Linux), if readable.
fn rss_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn fifty_megabyte_string_and_ten_megabyte_delta_project() {
    let big = "x".repeat(50 * 1024 * 1024);
    let delta = "d".repeat(10 * 1024 * 1024);
    let events = vec![
        with_payload(
            base("m1", 1, "model.delta", "model"),
            json!({ "delta": delta }),
        ),
        with_payload(
            base("t1", 2, "tool.result", "tool"),
            json!({ "output": big, "toolCallId": "call_1" }),
        ),
    ];
    let mut p = Projector::new(None);
    for (i, e) in events.iter().enumerate() {
        assert_eq!(p.apply(e.clone(), i as u32), Ok(true));
        let patch = p.take_patch().expect("readable state");
        assert!(patch.to_json().len() < 200 * 1024 * 1024);
    }
    let state = p.state().expect("readable state");
    assert!(deep_equal(
        &state,
        &project(&events, None).expect("projected")
    ));
    let wire = state.to_json();
    assert!(
        wire.contains(&"d".repeat(1024)),
        "the delta text is in the state"
    );
}

#[test]
fn five_thousand_generated_events_batch_equals_incremental() {
    // Debug-build sized version of the 300,000-event run (see the ignored test below).
    let events = generate(5_000, 5, &GenOptions::default());
    let mut p = Projector::new(None);
    for (i, e) in events.iter().enumerate() {
        assert_eq!(p.apply(e.clone(), i as u32), Ok(true));
        if i % 1000 == 0 {
            let _ = p.take_patch().expect("readable state");
        }
    }
    assert!(deep_equal(
        &p.state().expect("readable state"),
        &project(&events, None).expect("projected")
    ));
}

#[test]
fn redacted_events_project_without_any_secret_value() {
    let secrets = [
        "sk-live-123456",
        "Bearer abc.def",
        "hunter2",
        "s3cr3t",
        "tok_999",
    ];
    let mut events = vec![
        with_payload(
            base("s1", 1, "tool.started", "tool"),
            json!({"toolCallId": "c1", "arguments": {"apiKey": "sk-live-123456",
                   "headers": {"Authorization": "Bearer abc.def"}}}),
        ),
        with_payload(
            base("s2", 2, "tool.result", "tool"),
            json!({"toolCallId": "c1", "result": {"password": "hunter2"},
                   "metadata": {"clientSecret": "s3cr3t"}}),
        ),
        with_payload(
            base("s3", 3, "subagent.started", "subagent"),
            json!({"subagentId": "sub1", "collaborationFacts": {"accessToken": "tok_999"}}),
        ),
        with_payload(
            base("s4", 4, "state.delta", "state"),
            json!({"target": "projection", "patch": [
                {"op": "add", "path": "/ephemeralUi/creds", "value": {"api_key": "sk-live-123456"}}
            ]}),
        ),
    ];
    for (k, v) in [("toolCallId", "c1"), ("subagentId", "sub1")] {
        for e in events.iter_mut() {
            if e["payload"].get(k).is_some() {
                e[k] = json!(v);
            }
        }
    }
    // Unredacted, the secrets are visible (the test would catch nothing otherwise).
    let plain = state_text(&project(&events, None).expect("projected"), &events);
    assert!(secrets.iter().all(|s| plain.contains(s)));

    for e in events.iter_mut() {
        assert!(redact_secrets(e));
    }
    let batch = project(&events, None).expect("projected");
    let mut p = Projector::new(None);
    for (i, e) in events.iter().enumerate() {
        assert_eq!(p.apply(e.clone(), i as u32), Ok(true));
        let patch = p.take_patch().expect("readable state").to_json();
        for s in secrets {
            assert!(!patch.contains(s), "patch leaks {s}");
        }
    }
    for state in [batch, p.state().expect("readable state")] {
        let text = state_text(&state, &events);
        for s in secrets {
            assert!(!text.contains(s), "projected state leaks {s}");
        }
        assert!(text.contains("[redacted]"));
    }
}

/// Apply `events` with a take_patch after each; returns (first-tenth, last-tenth) seconds.
fn timed_apply(events: &[Value]) -> (f64, f64) {
    let mut p = Projector::new(None);
    let tenth = events.len() / 10;
    let mut first = 0.0;
    let mut last = 0.0;
    for (i, e) in events.iter().enumerate() {
        let t = Instant::now();
        let _ = p.apply(e.clone(), i as u32);
        let _ = p.take_patch().expect("readable state");
        let dt = t.elapsed().as_secs_f64();
        if i < tenth {
            first += dt;
        } else if i >= events.len() - tenth {
            last += dt;
        }
    }
    (first, last)
}

fn ephemeral_deltas(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            with_payload(
                base(&format!("d{i}"), i as u64 + 1, "state.delta", "state"),
                json!({"target": "projection", "patch": [
                    {"op": "add", "path": format!("/ephemeralUi/k{}", i % 50), "value": i}
                ]}),
            )
        })
        .collect()
}

#[test]
#[ignore = "measurement; run in release (see module docs)"]
fn measure_state_delta_runs_per_event_cost() {
    for n in [2_000usize, 8_000] {
        let events = ephemeral_deltas(n);
        let (first, last) = timed_apply(&events);
        println!(
            "state.delta x{n}: first tenth {:.1} us/event, last tenth {:.1} us/event",
            first / (n / 10) as f64 * 1e6,
            last / (n / 10) as f64 * 1e6
        );
    }
}

#[test]
#[ignore = "measurement; run in release (see module docs)"]
fn measure_three_hundred_thousand_events_and_memory_per_event() {
    const N: usize = 300_000;
    let opts = GenOptions::default();
    let rss0 = rss_bytes("VmRSS:").unwrap_or(0);
    let mut p = Projector::new(None);
    let mut json_bytes = 0usize;
    let mut i = 0u32;
    let t = Instant::now();
    let mut first = 0.0;
    let mut last = 0.0;
    for_each_event(N, 9, &opts, |e| {
        json_bytes += e.to_string().len();
        let t0 = Instant::now();
        let accepted = p.apply(e, i);
        if i % 100 == 0 {
            let _ = p.take_patch().expect("readable state");
        }
        let dt = t0.elapsed().as_secs_f64();
        if (i as usize) < N / 10 {
            first += dt;
        } else if (i as usize) >= N - N / 10 {
            last += dt;
        }
        assert_eq!(accepted, Ok(true));
        i += 1;
    });
    let apply_s = t.elapsed().as_secs_f64();
    let rss1 = rss_bytes("VmRSS:").unwrap_or(0);
    let t = Instant::now();
    let state = p.state().expect("readable state");
    let wire = state.to_json();
    let state_s = t.elapsed().as_secs_f64();
    let rss2 = rss_bytes("VmRSS:").unwrap_or(0);
    let hwm = rss_bytes("VmHWM:").unwrap_or(0);
    println!(
        "events: {N}, event JSON: {json_bytes} bytes ({:.0} B/event)",
        json_bytes as f64 / N as f64
    );
    println!(
        "apply+patch every 100: {apply_s:.2} s total; first tenth {:.2} us/event, last tenth {:.2} us/event",
        first / (N / 10) as f64 * 1e6,
        last / (N / 10) as f64 * 1e6
    );
    println!(
        "projector RSS growth: {} bytes ({:.0} B/event, {:.2}x the event JSON)",
        rss1.saturating_sub(rss0),
        rss1.saturating_sub(rss0) as f64 / N as f64,
        rss1.saturating_sub(rss0) as f64 / json_bytes as f64
    );
    println!(
        "state() + wire encoding: {state_s:.2} s, wire text {} bytes, RSS after {} bytes, peak {} bytes",
        wire.len(),
        rss2,
        hwm
    );
    assert!(wire.len() > N);
}

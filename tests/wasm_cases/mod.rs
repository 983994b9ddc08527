//! Binding tests shared by the Node (`wasm_node.rs`) and Chromium (`wasm_browser.rs`) runs:
//! the bindings exercised on the embedded conformance fixtures and generated streams.

use agent_runtime_projection::contract::fixtures::conformance_fixtures_json;
use agent_runtime_projection::contract::val::Val;
use agent_runtime_projection::generator::generate_json;
use agent_runtime_projection::wasm::projector::WasmProjector;
use agent_runtime_projection::wasm::{api, last_tape};
use serde_json::Value;

fn load(text: &str) -> usize {
    api::set_input(text)
}

fn fixtures() -> Vec<Value> {
    match serde_json::from_str(conformance_fixtures_json()) {
        Ok(Value::Array(items)) => items,
        other => panic!("conformance_fixtures_json is not an array: {other:?}"),
    }
}

fn events_of(fixture: &Value) -> Vec<Value> {
    fixture["events"].as_array().cloned().unwrap_or_default()
}

fn json(v: &Value) -> String {
    serde_json::to_string(v).expect("serializable")
}

pub fn fixtures_validate_and_verify_clean() {
    let all = fixtures();
    assert_eq!(all.len(), 13);
    for f in &all {
        let issues = api::collect_issues("fixture", load(&json(f)), "$").expect("collect");
        assert_eq!(issues, "[]", "fixture {} issues", f["id"]);
        api::verify_sequence(load(&json(&f["events"]))).expect("verify");
        let violations = last_tape().expect("a tape").to_json();
        assert_eq!(violations, "[]", "fixture {} violations", f["id"]);
        api::replay_fixture(load(&json(f)), &[]).expect("replay");
        let replay: Value =
            serde_json::from_str(&last_tape().expect("a tape").to_json()).expect("replay JSON");
        assert_eq!(replay["fixtureId"], f["id"]);
        assert_eq!(replay["passed"], true, "fixture {} replay passes", f["id"]);
    }
}

pub fn validators_report_issues_in_order() {
    let issues: Value = serde_json::from_str(
        &api::collect_issues("runtimeEvent", load("null"), "$.x").expect("collect"),
    )
    .expect("JSON");
    assert_eq!(
        issues,
        serde_json::json!([{"code": "schema_mismatch", "path": "$.x", "message": "Runtime event must be an object."}])
    );
    assert!(api::collect_issues("nope", load("{}"), "$").is_err());
}

pub fn sequence_verifier_is_incremental() {
    let base = serde_json::json!({"schemaVersion": "lime-runtime-event/v0.1", "runtimeId": "r", "turnId": "turn",
        "sequence": 1, "kind": "tool", "status": "running", "title": "T", "createdAt": "2026-06-10T00:00:00.000Z"});
    let mut a = base.clone();
    a["id"] = "a".into();
    a["eventClass"] = "tool.result".into();
    a["toolCallId"] = "t".into();
    let mut v = api::WasmSequenceVerifier::new();
    v.push(load(&json(&a))).expect("push");
    let first: Value = serde_json::from_str(&last_tape().expect("a tape").to_json()).expect("JSON");
    assert_eq!(first[0]["code"], "tool_result_without_start");
    let mut c = base.clone();
    c["id"] = "c".into();
    c["eventClass"] = "turn.completed".into();
    v.push(load(&json(&c))).expect("push");
    assert_eq!(last_tape().expect("a tape").to_json(), "[]");
    v.violations().expect("violations");
    let all: Value = serde_json::from_str(&last_tape().expect("a tape").to_json()).expect("JSON");
    assert_eq!(all.as_array().map(Vec::len), Some(1));
}

pub fn terminal_helpers() {
    assert_eq!(
        api::normalize_runtime_status_value(Some(" Completed ".into())).as_deref(),
        Some("completed")
    );
    assert_eq!(api::normalize_runtime_status_value(Some("  ".into())), None);
    assert!(api::is_runtime_turn_terminal_event_class(Some(
        " TURN.FAILED ".into()
    )));
    assert!(api::is_legacy_runtime_turn_terminal_event_class(Some(
        "Done".into()
    )));
    assert!(!api::is_runtime_terminal_status_value(Some(
        "cancelled".into()
    )));
    assert_eq!(
        api::runtime_turn_terminal_projection_from_status(Some("idle".into())),
        None
    );
    let p: Value = serde_json::from_str(&api::runtime_turn_terminal_projection_from_kind("failed"))
        .expect("JSON");
    assert_eq!(
        p,
        serde_json::json!({"kind": "failed", "eventClass": "turn.failed", "status": "failed", "phase": "failed"})
    );
}

/// Incremental (one event at a time, patches replayed) equals batch, for every fixture and a
/// generated stream; event objects come back as wire references.
pub fn projector_matches_batch() {
    let mut streams: Vec<Vec<Value>> = fixtures().iter().map(events_of).collect();
    let generated: Value =
        serde_json::from_str(&generate_json(400, 7, "{\"subagentRate\":0.5}").expect("generate"))
            .expect("JSON");
    streams.push(generated.as_array().cloned().unwrap_or_default());
    for events in streams {
        let batch = api::project(
            load(&json(&Value::Array(events.clone()))),
            None,
            false,
            None,
        )
        .expect("project");
        let mut p = WasmProjector::new(None, false).expect("projector");
        let mut patches = 0;
        for (i, e) in events.iter().enumerate() {
            assert!(p.apply(load(&json(e)), i as u32).expect("apply"));
            if i % 7 == 0 {
                p.take_patch().expect("patch");
                let patch = last_tape().expect("a patch");
                // The first patch replaces the whole (initial) state.
                let full = matches!(patch.get("full"), Some(Val::Bool(f)) if *f == (i == 0));
                assert!(full, "patch {i}");
                patches += 1;
            }
        }
        assert!(patches > 0);
        assert_eq!(p.state().expect("state"), batch);
        // The first event crosses as a reference (`\u0000e0`) or as the event of an object
        // the wrapper makes from it (`\u0000t<template>:0:...`), never as a copy.
        let made_from_first = (0..8).any(|t| batch.contains(&format!("\"\\u0000t{t}:0:")));
        assert!(
            batch.contains("\"\\u0000e0\"") || made_from_first,
            "events are wire references"
        );
        // A duplicate id is not accepted.
        if let Some(first) = events.first() {
            assert!(!p.apply(load(&json(first)), 99_999).expect("apply"));
        }
        assert_eq!(p.state().expect("state"), batch);
    }
}

pub fn bad_input_is_refused_without_change() {
    let events: Value =
        serde_json::from_str(&generate_json(30, 2, "{}").expect("generate")).expect("JSON");
    let events = events.as_array().cloned().unwrap_or_default();
    // What cannot be carried is refused in both modes; strict mode also refuses what is outside
    // its boundary (the default projects it as the reference does).
    let uncarryable = ["null", "5", "\"x\"", "[]", "{not json", ""];
    let outside_strict = [
        "{\"id\":\"\"}",
        "{\"id\":7}",
        "{\"id\":\"a\",\"refIds\":\"x\"}",
        "{}",
    ];
    for strict in [false, true] {
        let mut p = WasmProjector::new(Some("1".into()), strict).expect("projector");
        for (i, e) in events.iter().take(10).enumerate() {
            p.apply(load(&json(e)), i as u32).expect("apply");
        }
        let before = p.state().expect("state");
        let refused = uncarryable
            .iter()
            .chain(outside_strict.iter().filter(|_| strict));
        for bad in refused {
            assert!(p.apply(load(bad), 10).is_err(), "refused: {bad}");
            assert_eq!(p.state().expect("state"), before, "unchanged after {bad}");
        }
        let mixed = format!("[{},null]", json(&events[10]));
        assert!(p.apply_many(load(&mixed), 10).is_err());
        assert_eq!(
            p.state().expect("state"),
            before,
            "a refused apply_many changes nothing"
        );
        assert!(api::project(load("{\"executionEvents\":[]}"), None, strict, None).is_err());
    }
    let mut lax = WasmProjector::new(None, false).expect("projector");
    for (i, bad) in outside_strict.iter().enumerate() {
        assert!(lax.apply(load(bad), i as u32).expect("projected"), "{bad}");
    }
    assert!(generate_json(3, 1, "{bad").is_err());
}

pub fn input_buffer_handles_non_ascii() {
    let text = "{\"id\":\"evt_\u{4e2d}\u{6587}\",\"kind\":\"note\",\"status\":\"completed\",\"title\":\"\u{1F600} \u{00e9}\",\"createdAt\":\"t\"}";
    let state =
        api::project(load(&format!("[{text}]")), Some("1".into()), false, None).expect("project");
    // The wire text is ASCII; the title comes back whole once it is read as JSON.
    assert!(state.is_ascii(), "{state}");
    let read: Value = serde_json::from_str(&state).expect("wire JSON");
    assert!(read.to_string().contains("\u{1F600} \u{00e9}"));
}

/// A buffer over 1 MiB is kept for the next large input and released by the next small one;
/// small inputs keep reusing theirs.
pub fn large_input_buffer_is_released() {
    use agent_runtime_projection::wasm::input::input_capacity;
    let big = format!(
        "[{{\"id\":\"e1\",\"payload\":{{\"text\":\"{}\"}}}}]",
        "x".repeat(2 << 20)
    );
    let len = load(&big);
    assert!(input_capacity() >= len);
    api::verify_sequence(len).expect("verify");
    let kept = input_capacity();
    assert!(kept >= len, "a large buffer stays for the next large input");
    let again = load(&big);
    api::verify_sequence(again).expect("verify");
    assert_eq!(input_capacity(), kept, "and is reused as it is");
    let small = load("[]");
    api::verify_sequence(small).expect("verify");
    let cap = input_capacity();
    assert!(
        cap > 0 && cap <= 1 << 20,
        "the next small input releases it ({cap} bytes kept)"
    );
}

/// An input over the limit is refused up front with a `RangeError` naming it, and nothing is
/// allocated for it; the next input is taken as usual.
pub fn input_over_the_limit_is_a_range_error() {
    use agent_runtime_projection::wasm::input::{input_buffer, input_capacity, MAX_INPUT_BYTES};
    use wasm_bindgen::JsCast;
    let before = input_capacity();
    let error = input_buffer(MAX_INPUT_BYTES + 1).expect_err("over the limit");
    let error: js_sys::Error = error.dyn_into().expect("an Error");
    assert!(error.is_instance_of::<js_sys::RangeError>());
    let message = String::from(error.message());
    assert!(
        message.contains("input limit of 268435456 bytes"),
        "{message}"
    );
    assert_eq!(input_capacity(), before, "nothing allocated");
    let len = load("[]");
    api::verify_sequence(len).expect("the next input is taken");
}

/// Registers every shared case as a `#[wasm_bindgen_test]` in the including test file, so the
/// Node and Chromium runs list the cases once.
#[macro_export]
macro_rules! wasm_case_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[wasm_bindgen_test::wasm_bindgen_test]
            fn $name() {
                wasm_cases::$name();
            }
        )*
    };
}

/// The core's lower-casing of text beyond ASCII is JS's own `toLowerCase` in the module (its
/// start function installs it; no Unicode case tables are linked): the Kelvin sign becomes an
/// ASCII `k`, a final sigma its final form, U+0130 two characters. The package's glue runs the
/// start function on every instance; wasm-bindgen-test does not run a library's, so this test
/// does (tests/js/views.test.mjs checks it through the package).
pub fn lower_casing_is_the_hosts() {
    use agent_runtime_projection::contract::js::js_lower;
    agent_runtime_projection::wasm::start();
    for text in [
        "\u{212a}EY",
        "\u{c9}T\u{c9}",
        "\u{3a3}\u{391}\u{3a3} \u{3a3}\u{391}\u{3a3}",
        "\u{130}D",
        "\u{4e2d}X",
    ] {
        let js: String = js_sys::JsString::from(text).to_lower_case().into();
        assert_eq!(js_lower(text), js, "{text}");
    }
    assert_eq!(js_lower("\u{212a}EY"), "key");
    assert_eq!(js_lower("\u{c9}T\u{c9}"), "\u{e9}t\u{e9}");
}

/// The wasm heap (small-block classes in front of talc): blocks of every class and of talc,
/// grown, shrunk and freed in an interleaved order, never overlap and keep their contents.
pub fn heap_blocks_keep_contents() {
    exercise_heap();
}

/// The same exercise inside a batch arena (bump chunks, per-class reuse, dedicated chunks for
/// the large blocks), while blocks allocated before it stay intact; then projections, which run
/// in arenas of their own, give identical results with plain blocks alive across them.
pub fn batch_arena_keeps_blocks_apart() {
    use agent_runtime_projection::wasm::in_batch_arena;
    let pattern = |i: usize| (i.wrapping_mul(131) % 251) as u8;
    let before: Vec<Vec<u8>> = (0..300).map(|i| vec![pattern(i); i * 5 + 1]).collect();
    // SAFETY: the exercises keep nothing they allocate.
    assert!(unsafe { in_batch_arena(exercise_heap) });
    // SAFETY: as above.
    assert!(unsafe { in_batch_arena(large_blocks) });
    let text = generate_json(3000, 11, "{}").expect("generate");
    let first = api::project(load(&text), None, false, None).expect("project");
    let mut plain: Vec<String> = Vec::new();
    for round in 0..3 {
        plain.push(format!("kept across batch {round}").repeat(round + 1));
        assert_eq!(
            api::project(load(&text), None, false, None).expect("project"),
            first
        );
        assert!(
            api::project(load("[{\"id\":7}]"), None, true, None).is_err(),
            "error inside an arena"
        );
        api::project_tape(load(&text), None, false).expect("tape");
        let state: Value =
            serde_json::from_str(&last_tape().expect("a tape").to_json()).expect("state JSON");
        let batch: Value = serde_json::from_str(&first).expect("batch JSON");
        assert_eq!(state["hydration"], batch["hydration"]);
        assert_eq!(state["runtime"], batch["runtime"]);
    }
    // Given a sink, the batch hands its text out in pieces that, with what it returns, make the
    // same text.
    let pieces = js_sys::Array::new();
    let sink: js_sys::Function = wasm_bindgen::JsCast::unchecked_into(
        js_sys::Function::new_with_args("pieces, piece", "pieces.push(piece)")
            .bind1(&wasm_bindgen::JsValue::NULL, &pieces),
    );
    let rest = api::project(load(&text), None, false, Some(sink)).expect("project");
    assert!(pieces.length() >= 2, "{} pieces", pieces.length());
    let joined: String = pieces.iter().filter_map(|p| p.as_string()).collect();
    assert_eq!(joined + &rest, first);
    for (round, s) in plain.iter().enumerate() {
        assert_eq!(*s, format!("kept across batch {round}").repeat(round + 1));
    }
    for (i, v) in before.iter().enumerate() {
        assert!(
            v.len() == i * 5 + 1 && v.iter().all(|&b| b == pattern(i)),
            "block {i}"
        );
    }
}

/// Large blocks: dedicated chunks, grown byte by byte, copied and freed.
fn large_blocks() {
    let mut big: Vec<u8> = Vec::new();
    for i in 0..3_000_000usize {
        big.push(i as u8);
    }
    assert!(big.iter().enumerate().all(|(i, &b)| b == i as u8));
    let copies: Vec<Vec<u8>> = (0..4).map(|_| big.clone()).collect();
    drop(big);
    assert!(copies
        .iter()
        .all(|c| c.len() == 3_000_000 && c[2_999_999] == 2_999_999u32 as u8));
}

fn exercise_heap() {
    #[repr(align(16))]
    struct Wide([u8; 48]);
    let pattern = |i: usize, j: usize| (i.wrapping_mul(31) ^ j.wrapping_mul(7)) as u8;
    let mut live: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut next = 0usize;
    for round in 0..3usize {
        // Sizes across all small classes, the boundary and talc's range, grown byte by byte.
        for i in 0..1200usize {
            let size = (i * 7 + round * 13) % 2100 + 1;
            let mut v = Vec::new();
            for j in 0..size {
                v.push(pattern(next, j));
            }
            live.push((next, v));
            next += 1;
        }
        // Free every other block, shrink some, then allocate again into the holes.
        let mut k = 0usize;
        live.retain(|_| {
            k += 1;
            k % 2 == 0
        });
        for (_, v) in live.iter_mut().step_by(3) {
            v.truncate(v.len() / 3);
            v.shrink_to_fit();
        }
        let wide: Vec<Box<Wide>> = (0..64).map(|i| Box::new(Wide([i as u8; 48]))).collect();
        for (i, w) in wide.iter().enumerate() {
            assert_eq!((&**w as *const Wide as usize) % 16, 0, "16-byte alignment");
            assert!(w.0.iter().all(|&b| b == i as u8));
        }
    }
    // A freed small block may be handed out again for any layout of its class (alignment up to
    // 8), so every one must be 8-aligned: even one allocated with alignment 1 right after a
    // large block of odd size.
    let mut odd: Vec<Vec<u8>> = Vec::new();
    let mut bytes: Vec<Vec<u8>> = Vec::new();
    for i in 0..32usize {
        odd.push(vec![3u8; 1025 + 2 * i]);
        bytes.push(vec![1u8; 8 * (i % 8) + 1]);
    }
    drop(bytes);
    let words: Vec<Vec<u64>> = (0..32usize).map(|i| vec![2u64; i % 8 + 1]).collect();
    for w in &words {
        assert_eq!(
            w.as_ptr() as usize % 8,
            0,
            "8-byte alignment of a reused block"
        );
    }
    assert!(odd.iter().all(|v| v.iter().all(|&b| b == 3)));
    // Medium blocks (between the small classes and the dedicated chunks): freed ones go to the
    // arena's class lists and come back for blocks of the same class, grown in place within it.
    let mut medium: Vec<Vec<u8>> = (0..96usize)
        .map(|i| vec![(i % 251) as u8; 1025 + i * 677])
        .collect();
    let mut k = 0usize;
    medium.retain(|_| {
        k += 1;
        k % 3 != 0
    });
    let refill: Vec<Vec<u8>> = (0..96usize)
        .map(|i| vec![(i % 13) as u8 + 100; 1030 + i * 677])
        .collect();
    for v in medium.iter_mut().step_by(4) {
        let fill = v[0];
        v.resize(v.len() + 40, fill);
    }
    for v in &medium {
        let fill = v[0];
        assert!(
            v.iter().all(|&b| b == fill),
            "a medium block kept its bytes"
        );
    }
    for (i, v) in refill.iter().enumerate() {
        assert!(v.len() == 1030 + i * 677 && v.iter().all(|&b| b == (i % 13) as u8 + 100));
    }
    assert!(live.len() > 1000);
    // Every live block still holds what was written (no block was handed out twice).
    for (i, v) in &live {
        for (j, &b) in v.iter().enumerate() {
            assert_eq!(b, pattern(*i, j), "block {i} byte {j}");
        }
    }
}

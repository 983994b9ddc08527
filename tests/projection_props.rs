//! Property tests: random streams (seeded) with mutations; incremental == batch on every
//! prefix, patches replay to the state, duplicates change nothing, nothing panics.

use agent_runtime_projection::contract::json::array_element_texts;
use agent_runtime_projection::contract::tape::Tape;
use agent_runtime_projection::contract::val::{deep_equal, Val};
use agent_runtime_projection::projection::patch::Patch;
use agent_runtime_projection::projection::{project, Projector};
use serde_json::{json, Value};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() % 10_000) as f64 / 10_000.0 < p
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

const WORDS: [&str; 8] = [
    "alpha",
    "beta ",
    " gamma",
    "(x)",
    "第一段",
    "<proposed_plan>step</proposed_plan>",
    "\n",
    "delta",
];

fn delta_event(rng: &mut Rng, id: &str) -> Value {
    let (target, op): (&str, Value) = match rng.below(17) {
        0 => (
            "projection",
            json!({"op": "add", "path": "/ephemeralUi/note", "value": "x"}),
        ),
        1 => (
            "runtime",
            json!({"op": "replace", "path": "/runtime/status", "value": "stale"}),
        ),
        2 => (
            "projection.messages",
            json!({"op": "replace", "path": "/0/text", "value": "patched"}),
        ),
        3 => (
            "projection.subagents",
            json!({"op": "replace", "path": "/threads/0/summary", "value": "s"}),
        ),
        4 => (
            "readModel",
            json!({"op": "replace", "path": "/sourceCount", "value": 9}),
        ),
        5 => (
            "projection",
            json!({"op": "add", "path": "/readModel/events/-", "value": 1}),
        ),
        6 => (
            "projection",
            json!({"op": "test", "path": "/hydration/status", "value": "live"}),
        ),
        7 => (
            "projection",
            json!({"op": "copy", "from": "/timeline/0", "path": "/ephemeralUi/first"}),
        ),
        8 => (
            "projection",
            json!({"op": "remove", "path": "/readModel/artifactRefs"}),
        ),
        9 => (
            "projection",
            json!({"op": "move", "from": "/ephemeralUi", "path": "/ephemeralUi/x"}),
        ),
        10 => (
            "projection.artifacts",
            json!({"op": "add", "path": "/-", "value": {"id": "extra"}}),
        ),
        11 => (
            "projection",
            json!({"op": "replace", "path": "/hydration/status", "value": "repairing"}),
        ),
        12 => ("bogus", json!({"op": "add", "path": "/a", "value": 1})),
        // Root keys a delta replaces (or moves onto themselves) go last in the state.
        13 => (
            "projection.subagents",
            json!({"op": "replace", "path": "", "value": {"hasSubagents": false, "threads": [],
                "delegationCalls": [], "activities": [], "activeThreadIds": [],
                "completedThreadIds": [], "failedThreadIds": []}}),
        ),
        14 => (
            "projection",
            json!({"op": "replace", "path": "/ephemeralUi", "value": {"a": 1}}),
        ),
        15 => (
            "projection",
            json!({"op": "move", "from": "/graph", "path": "/graph"}),
        ),
        _ => (
            "projection",
            json!({"op": "add", "path": "/diagnostics/0", "value": {"id": "d"}}),
        ),
    };
    let payload = if rng.chance(0.1) {
        json!({"target": target})
    } else {
        json!({"target": target, "patch": [op]})
    };
    json!({"id": id, "kind": "state", "eventClass": "state.delta", "status": "completed",
           "title": "delta", "createdAt": "t", "payload": payload})
}

fn stream(rng: &mut Rng, n: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut k = 0;
    let mut turn = 0;
    while out.len() < n {
        k += 1;
        let id = format!("e{k}");
        let t = format!("turn{turn}");
        let ev = match rng.below(12) {
            0 => {
                turn += 1;
                json!({"id": id, "kind": "state", "eventClass": "turn.started", "status": "running", "title": "T", "createdAt": "t", "turnId": format!("turn{turn}"), "sequence": k})
            }
            1 => {
                json!({"id": id, "kind": "note", "eventClass": "reasoning.delta", "status": "running", "title": "R", "detail": rng.pick(&WORDS), "createdAt": "t", "turnId": t})
            }
            2 | 3 => {
                let mut e = json!({"id": id, "kind": "model", "eventClass": rng.pick(&["model.delta", "model.delta", "model.completed"]), "status": "running", "title": "M", "createdAt": "t", "turnId": t, "payload": {"messageId": format!("m{}", rng.below(3)), "delta": rng.pick(&WORDS)}});
                // No text at all leaves a streamed part's text as it is (its other members
                // change).
                if rng.chance(0.2) {
                    e["payload"] = json!({"messageId": format!("m{}", rng.below(3))});
                    e["title"] = Value::Null;
                }
                e
            }
            4 | 5 => {
                let title = rng.pick(&["Search", "mcp__srv__list_items", "bash", ""]);
                let tool = rng.pick(&["web_search", "mcp__srv__read_file", "Read"]);
                let progress = rng.below(3);
                let output = rng.pick(&WORDS);
                let cls = rng.pick(&[
                    "tool.started",
                    "tool.progress",
                    "tool.result",
                    "tool.failed",
                ]);
                let st = match cls {
                    "tool.result" => "completed",
                    "tool.failed" => "failed",
                    _ => "running",
                };
                let mut e = json!({"id": id, "kind": "tool", "eventClass": cls, "status": st, "title": title, "createdAt": "t", "turnId": t,
                    "payload": {"toolName": tool, "progress": progress, "output": output}});
                if rng.chance(0.8) {
                    e["toolCallId"] = json!(format!("call{}-{turn}", rng.below(4)));
                }
                e
            }
            6 => {
                let a = format!("act{}-{turn}", rng.below(3));
                match rng.below(3) {
                    0 => {
                        json!({"id": id, "kind": "action", "eventClass": "action.required", "status": rng.pick(&["pending", "blocked"]), "title": "A", "createdAt": "t", "actionId": a, "payload": {"controls": ["approve", "reject", "approve"], "actionKind": rng.pick(&["", "add-input-source"])}})
                    }
                    1 => {
                        json!({"id": id, "kind": "action", "eventClass": rng.pick(&["action.resolved", "action.canceled"]), "status": "completed", "title": "R", "createdAt": "t", "actionId": a})
                    }
                    _ => {
                        json!({"id": id, "kind": "action", "eventClass": "action.resolved", "status": "completed", "title": "R", "createdAt": "t", "payload": {"resolvedFromEventId": format!("e{}", rng.below(k as u64 + 1))}})
                    }
                }
            }
            7 => {
                json!({"id": id, "kind": "draft", "eventClass": "artifact.changed", "status": "completed", "title": "Art", "createdAt": "t", "artifactRefs": [format!("a{}-{turn}", rng.below(3))], "payload": {"path": rng.pick(&["src/x.rs", "/etc/passwd"]), "preview": rng.pick(&WORDS)}})
            }
            8 => {
                json!({"id": id, "kind": "evidence", "eventClass": "evidence.changed", "status": "completed", "title": "Ev", "createdAt": "t", "evidenceRefs": [format!("v{}", rng.below(3))], "taskId": format!("task{turn}")})
            }
            9 => {
                json!({"id": id, "kind": "handoff", "eventClass": rng.pick(&["subagent.started", "subagent.completed", "channel.message"]), "status": rng.pick(&["running", "completed", "failed"]), "title": "S", "createdAt": "t", "subagentId": format!("sub{}-{}", rng.below(2), turn / 4), "taskId": format!("task{turn}")})
            }
            10 => {
                json!({"id": id, "kind": "state", "eventClass": "runtime.error", "status": "failed", "title": "E", "createdAt": "t", "traceId": rng.pick(&["tr", "state-delta:e3"])})
            }
            _ => delta_event(rng, &id),
        };
        out.push(ev);
    }
    out
}

fn mutate(rng: &mut Rng, mut events: Vec<Value>) -> Vec<Value> {
    for _ in 0..rng.below(6) {
        let len = events.len() as u64;
        if len < 2 {
            break;
        }
        let i = rng.below(len) as usize;
        match rng.below(4) {
            0 => {
                let e = events[i].clone();
                events.push(e);
            }
            1 => {
                events.remove(i);
            }
            2 => {
                let j = rng.below(len) as usize;
                events.swap(i, j);
            }
            _ => {
                if let Some(m) = events[i].as_object_mut() {
                    let keys: Vec<String> = m.keys().filter(|k| *k != "id").cloned().collect();
                    if !keys.is_empty() {
                        let k = keys[rng.below(keys.len() as u64) as usize].clone();
                        m.remove(&k);
                    }
                }
            }
        }
    }
    events
}

/// The JS patch applier, emulated on `Val` (`Patch::apply_to`).
fn apply_patch(state: &mut Val, patch: &Patch) {
    if let Err(e) = patch.apply_to(state) {
        panic!("{e}");
    }
}

/// The keys of a state's root, then of its read model, in order (`deep_equal` does not look at
/// order).
fn root_keys(v: &Val) -> Vec<String> {
    let keys = |v: Option<&Val>| -> Vec<String> {
        v.and_then(Val::as_obj)
            .map(|o| o.keys().map(str::to_string).collect())
            .unwrap_or_default()
    };
    let mut out = keys(Some(v));
    out.push("/".into());
    out.extend(keys(v.get("readModel")));
    out
}

#[test]
fn incremental_equals_batch_on_random_streams() {
    let mut checked = 0usize;
    for seed in 1..=220u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let n = 8 + rng.below(28) as usize;
        let base = stream(&mut rng, n);
        let events = mutate(&mut rng, base);
        let mut p = Projector::new(if seed % 3 == 0 {
            Some(seed as f64)
        } else {
            None
        });
        let mut replay = Val::Undef;
        apply_patch(&mut replay, &p.take_patch().expect("readable state"));
        // Odd seeds feed the projector as a live one is fed: each event as its JSON text, read
        // as a record and kept as that text (read again when a later event resolves an action
        // or a delta copies an event); even seeds, as parsed events.
        let keep_text = seed % 2 == 1;
        for (i, e) in events.iter().enumerate() {
            let accepted = if keep_text {
                let text = serde_json::to_string(e).expect("JSON");
                p.apply_text(&text, i as u32)
                    .expect("an object it can carry")
            } else {
                p.apply(e.clone(), i as u32)
            }
            .expect("well-formed");
            let patch = p.take_patch().expect("readable state");
            apply_patch(&mut replay, &patch);
            let st = p.state().expect("readable state");
            assert!(
                deep_equal(&p.expand(&replay), &st),
                "seed {seed}: patch replay differs after event {i}"
            );
            assert_eq!(
                root_keys(&replay),
                root_keys(&st),
                "seed {seed}: root key order of the patch replay after event {i}"
            );
            let source_count = if seed % 3 == 0 {
                Some(seed as f64)
            } else {
                None
            };
            let batch = project(&events[..=i], source_count).expect("projected");
            assert!(
                deep_equal(&st, &batch),
                "seed {seed}: incremental != batch after event {i}"
            );
            assert_eq!(root_keys(&st), root_keys(&batch), "seed {seed}: event {i}");
            // `hydrate` as a live projector does it: each event kept as its slice of the text.
            let text = serde_json::to_string(&events[..=i]).expect("JSON");
            let texts = array_element_texts(&text).expect("array");
            let mut hydrated = Projector::new(None);
            let flags = hydrated
                .hydrate(events[..=i].to_vec(), &texts, source_count)
                .expect("hydrated");
            // Accepted event k of the hydrated projector is the k-th event its flags accept.
            let accepted_events: Vec<Value> = events[..=i]
                .iter()
                .zip(&flags)
                .filter(|(_, f)| **f == 1)
                .map(|(e, _)| e.clone())
                .collect();
            let batch_of_accepted = project(&accepted_events, source_count).expect("projected");
            assert!(
                deep_equal(
                    &hydrated.state().expect("readable state"),
                    &batch_of_accepted
                ),
                "seed {seed}: hydrate keeping texts != batch after event {i}"
            );
            if accepted {
                // Re-applying a seen id changes nothing.
                assert_eq!(p.apply(e.clone(), 999_999), Ok(false));
                assert!(
                    p.take_patch().expect("readable state").is_empty(),
                    "seed {seed}: duplicate produced a patch"
                );
                assert!(deep_equal(&p.state().expect("readable state"), &st));
            }
            checked += 1;
        }
    }
    println!("{checked} prefixes checked over 220 streams");
}

/// Patches taken every few events, as a UI that reads the state now and then takes them: the
/// replayed patches equal the state at every read, deltas included (a key a delta starts to
/// override while other changes of it wait to be sent).
#[test]
fn patches_taken_now_and_then_replay_to_the_state() {
    for seed in 1..=220u64 {
        let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
        let n = 8 + rng.below(28) as usize;
        let base = stream(&mut rng, n);
        let events = mutate(&mut rng, base);
        let mut p = Projector::new(None);
        let mut replay = Val::Undef;
        apply_patch(&mut replay, &p.take_patch().expect("readable state"));
        let mut next_read = 1 + rng.below(5) as usize;
        for (i, e) in events.iter().enumerate() {
            p.apply(e.clone(), i as u32).expect("well-formed");
            if i + 1 < next_read && i + 1 < events.len() {
                continue;
            }
            next_read = i + 1 + 1 + rng.below(5) as usize;
            apply_patch(&mut replay, &p.take_patch().expect("readable state"));
            assert!(
                deep_equal(&p.expand(&replay), &p.state().expect("readable state")),
                "seed {seed}: patch replay differs after event {i}"
            );
        }
    }
}

#[test]
fn refused_events_change_nothing() {
    // What cannot be carried is refused in both modes; strict mode also refuses what
    // `check_event` refuses; the default refuses an event the reference throws on.
    let mut deep = json!({"leaf": 1});
    for _ in 0..70 {
        deep = json!({ "a": deep });
    }
    let cases = [
        (json!(1), true),
        (json!([{"id": "x"}]), true),
        (json!({"id": "a", "payload": deep}), true),
        (json!({"id": ""}), false),
        (json!({"id": "b", "title": 5}), false),
        (json!({"id": "c", "artifactRefs": [1]}), false),
        (
            json!({"id": "d", "kind": "tool", "artifactRefs": [1]}),
            true,
        ),
    ];
    for strict in [false, true] {
        let mut p = Projector::new(None);
        p.set_strict(strict);
        for (bad, refused_by_default) in &cases {
            p.take_patch().expect("readable state");
            let before = p.state().expect("readable state");
            let refused = strict || *refused_by_default;
            assert_eq!(
                p.apply(bad.clone(), 0).is_err(),
                refused,
                "strict {strict}: {bad}"
            );
            if refused {
                assert!(p.take_patch().expect("readable state").is_empty());
                assert!(deep_equal(&p.state().expect("readable state"), &before));
            }
        }
    }
}

/// Release-mode timing: per-event cost must not grow with the stream
/// (`cargo test --release --test projection_props -- --ignored --nocapture`).
#[test]
#[ignore]
fn per_event_cost_does_not_grow() {
    let n = std::env::var("PERF_EVENTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000usize);
    for (delta_free, no_mcp) in [(true, true), (true, false), (false, true)] {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut events = stream(&mut rng, n);
        if delta_free {
            events.retain(|e| e["eventClass"] != "state.delta");
        }
        if no_mcp {
            events.retain(|e| {
                !e["payload"]["toolName"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("mcp__")
            });
        }
        let mut p = Projector::new(None);
        p.take_patch().expect("readable state");
        let mut times = Vec::with_capacity(events.len());
        for (i, e) in events.into_iter().enumerate() {
            let t = std::time::Instant::now();
            let _ = p.apply(e, i as u32);
            let patch = p.take_patch().expect("readable state");
            let mut tape = Tape::default();
            p.write_patch(&patch, &mut tape).expect("fits");
            times.push(t.elapsed().as_secs_f64());
        }
        let k = times.len() / 10;
        let first: f64 = times[..k].iter().sum::<f64>() / k as f64;
        let last: f64 = times[times.len() - k..].iter().sum::<f64>() / k as f64;
        println!(
            "n={} deltas={} mcp={}: first 10% {:.2} us/event, last 10% {:.2} us/event, ratio {:.2}",
            times.len(),
            !delta_free,
            !no_mcp,
            first * 1e6,
            last * 1e6,
            last / first
        );
    }
}

/// The generated session (two MCP servers, parallel tool calls, state.delta events): the state
/// rebuilt from patches equals `state()`, and a second `take_patch` with nothing in between is
/// empty.
#[test]
fn patch_replay_equals_state_on_generated_stream() {
    use agent_runtime_projection::generator::{generate, GenOptions};
    let events = generate(3000, 7, &GenOptions::default());
    let mut p = Projector::new(None);
    let mut replay = Val::Undef;
    apply_patch(&mut replay, &p.take_patch().expect("readable state"));
    for (i, e) in events.iter().enumerate() {
        let _ = p.apply(e.clone(), i as u32);
        apply_patch(&mut replay, &p.take_patch().expect("readable state"));
        assert!(
            p.take_patch().expect("readable state").is_empty(),
            "second take_patch not empty after event {i}"
        );
        if i % 100 == 99 || i + 1 == events.len() {
            assert!(
                deep_equal(&p.expand(&replay), &p.state().expect("readable state")),
                "patch replay differs after event {i}"
            );
        }
    }
}

/// A delta that replaces a root key (removes it, then adds it) leaves it last in the state, as
/// the reference's patch copies do; one that removes `hydration` gets it back last (the
/// reference rewrites it after every delta). The batch and the replayed patches agree.
#[test]
fn a_root_key_a_delta_replaces_goes_last() {
    let base = stream(&mut Rng(7), 12);
    let delta = |id: &str, op: Value| {
        json!({"id": id, "kind": "state", "eventClass": "state.delta", "status": "completed",
               "title": "delta", "createdAt": "t", "payload": {"target": "projection", "patch": [op]}})
    };
    let subagents = json!({"hasSubagents": false, "threads": [], "delegationCalls": [],
        "activities": [], "activeThreadIds": [], "completedThreadIds": [], "failedThreadIds": []});
    let steps = [
        (
            delta(
                "d1",
                json!({"op": "replace", "path": "/subagents", "value": subagents}),
            ),
            "subagents",
        ),
        (
            delta(
                "d2",
                json!({"op": "replace", "path": "/ephemeralUi", "value": {"a": 1}}),
            ),
            "ephemeralUi",
        ),
        (
            delta("d3", json!({"op": "remove", "path": "/hydration"})),
            "hydration",
        ),
    ];
    let mut p = Projector::new(None);
    let mut replay = Val::Undef;
    for (i, e) in base.iter().enumerate() {
        p.apply(e.clone(), i as u32).expect("well-formed");
    }
    apply_patch(&mut replay, &p.take_patch().expect("readable state"));
    let root =
        |v: &Val| -> Vec<String> { root_keys(v).into_iter().take_while(|k| k != "/").collect() };
    let mut expected: Vec<String> = root(&replay);
    let mut events = base.clone();
    for (n, (d, last)) in steps.into_iter().enumerate() {
        events.push(d.clone());
        p.apply(d, (base.len() + n) as u32).expect("well-formed");
        apply_patch(&mut replay, &p.take_patch().expect("readable state"));
        expected.retain(|k| k != last);
        expected.push(last.to_string());
        let batch = project(&events, None).expect("projected");
        assert_eq!(root(&batch), expected, "batch after delta {n}");
        assert_eq!(root(&replay), expected, "patches after delta {n}");
        assert_eq!(root_keys(&replay), root_keys(&batch), "after delta {n}");
    }
}

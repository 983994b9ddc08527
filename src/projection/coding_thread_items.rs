//! The coding workbench's events from a thread's items (projection spec §7.4), used by
//! `projectCodingWorkbenchViewFromEvents` when it is given no execution events: the latest
//! patch item of each path becomes a `file.changed` event, each command execution a
//! `command.exited` event, and a command naming a test suite (`... -- <suite>`) also a
//! `test.completed` event.

use serde_json::Value;

use crate::contract::fxhash::HashMap;
use crate::contract::js::{is_js_whitespace, js_lower, js_trim};
use crate::contract::val::{Obj, Val};

/// `createdAt` of an item without a timestamp.
const EPOCH: &str = "1970-01-01T00:00:00.000Z";

/// First value that is a string with non-blank content, trimmed.
fn text<'a>(vals: &[Option<&'a Value>]) -> Option<&'a str> {
    vals.iter()
        .filter_map(|v| v.and_then(Value::as_str))
        .map(js_trim)
        .find(|s| !s.is_empty())
}

/// First value that is a finite number.
fn number(vals: &[Option<&Value>]) -> Option<f64> {
    vals.iter()
        .filter_map(|v| v.and_then(Value::as_f64))
        .find(|n| n.is_finite())
}

/// The first value that is an array: its string items with non-blank content, untrimmed.
fn texts<'a>(vals: &[Option<&'a Value>]) -> Vec<&'a str> {
    vals.iter()
        .find_map(|v| v.and_then(Value::as_array))
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .filter(|s| !js_trim(s).is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn opt_str(s: Option<&str>) -> Val {
    Val::opt_str(s)
}

fn opt_num(n: Option<f64>) -> Val {
    n.map_or(Val::Undef, Val::Num)
}

/// The event status of an item (a command's non-zero exit code fails it).
fn item_status(item: &Value, exit_code: Option<f64>) -> &'static str {
    if exit_code.is_some_and(|c| c != 0.0) {
        return "failed";
    }
    match text(&[item.get("status")]).map(js_lower).as_deref() {
        Some("failed" | "error") => "failed",
        Some("in_progress" | "running") => "running",
        Some("canceled" | "cancelled") => "canceled",
        _ => "completed",
    }
}

fn item_time(item: &Value) -> &str {
    text(&[
        item.get("updated_at"),
        item.get("updatedAt"),
        item.get("started_at"),
        item.get("startedAt"),
    ])
    .unwrap_or(EPOCH)
}

/// The next `\s+--\s+` separator at or after byte `from`: its start and end.
fn separator(s: &str, from: usize) -> Option<(usize, usize)> {
    let rest = s.get(from..)?;
    let mut run_start: Option<usize> = None;
    for (i, c) in rest.char_indices() {
        if is_js_whitespace(c) {
            run_start.get_or_insert(i);
            continue;
        }
        if let Some(start) = run_start.take() {
            let after = rest.get(i..).unwrap_or("");
            if let Some(tail) = after.strip_prefix("--") {
                let ws: usize = tail
                    .chars()
                    .take_while(|c| is_js_whitespace(*c))
                    .map(char::len_utf8)
                    .sum();
                if ws > 0 {
                    return Some((from + start, from + i + 2 + ws));
                }
            }
        }
    }
    None
}

/// The test suite a command names: what follows the first `\s+--\s+`, up to the next one,
/// trimmed (`command.split(/\s+--\s+/u)[1]?.trim()`), when not empty.
fn test_suite(command: &str) -> Option<&str> {
    let (_, end) = separator(command, 0)?;
    let stop = separator(command, end).map_or(command.len(), |(start, _)| start);
    let suite = js_trim(command.get(end..stop)?);
    (!suite.is_empty()).then_some(suite)
}

/// The synthetic events of `items`, ordered by `sequence` (missing is 0; stable). Each event
/// keeps its `undefined` members, as the reference's objects do.
pub fn events_from_thread_items(items: &[Value]) -> Vec<Val> {
    // The latest patch item of each path, in order of first appearance of the path.
    let mut files: Vec<(&str, &Value)> = Vec::new();
    let mut file_index: HashMap<&str, usize> = HashMap::default();
    let mut commands: Vec<&Value> = Vec::new();
    for item in items.iter().filter(|v| v.is_object()) {
        match text(&[item.get("type")]) {
            Some("command_execution") => commands.push(item),
            Some("patch") => {
                let sequence = number(&[item.get("sequence")]).unwrap_or(0.0);
                for path in texts(&[item.get("paths"), item.get("path")]) {
                    match file_index.get(path).and_then(|&i| files.get_mut(i)) {
                        Some(slot) => {
                            if sequence >= number(&[slot.1.get("sequence")]).unwrap_or(0.0) {
                                slot.1 = item;
                            }
                        }
                        None => {
                            file_index.insert(path, files.len());
                            files.push((path, item));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    let mut events: Vec<(f64, Val)> = Vec::new();
    for (path, item) in files {
        let id = text(&[item.get("id")])
            .map_or_else(|| format!("thread-item:file:{path}"), str::to_string);
        let sequence = number(&[item.get("sequence")]);
        let payload = Obj::with_capacity(3)
            .k("path", Val::str(path))
            .k("changeKind", Val::str("modified"))
            .k(
                "preview",
                opt_str(text(&[item.get("text"), item.get("summary")])),
            );
        let event = Obj::with_capacity(12)
            .k("id", Val::string(format!("thread-item:{id}:file")))
            .k("kind", Val::str("source"))
            .k("status", Val::str(item_status(item, None)))
            .k("eventClass", Val::str("file.changed"))
            .k("title", Val::str(path))
            .k("sequence", opt_num(sequence))
            .k(
                "threadId",
                opt_str(text(&[item.get("thread_id"), item.get("threadId")])),
            )
            .k(
                "turnId",
                opt_str(text(&[item.get("turn_id"), item.get("turnId")])),
            )
            .k(
                "artifactRefs",
                Val::str_arr(&texts(&[
                    item.get("artifactRefs"),
                    item.get("artifact_refs"),
                ])),
            )
            .k("createdAt", Val::str(item_time(item)))
            .k(
                "completedAt",
                opt_str(text(&[item.get("completed_at"), item.get("completedAt")])),
            )
            .k("payload", payload.into_val());
        events.push((sequence.unwrap_or(0.0), event.into_val()));
    }

    for item in commands {
        let id = text(&[item.get("id")]).unwrap_or("thread-item:command");
        let command = text(&[item.get("command")]).unwrap_or(id);
        let exit_code = number(&[item.get("exit_code"), item.get("exitCode")]);
        let status = item_status(item, exit_code);
        let sequence = number(&[item.get("sequence")]);
        let base = || {
            Obj::with_capacity(11)
                .k("kind", Val::str("tool"))
                .k("status", Val::str(status))
                .k(
                    "threadId",
                    opt_str(text(&[item.get("thread_id"), item.get("threadId")])),
                )
                .k(
                    "turnId",
                    opt_str(text(&[item.get("turn_id"), item.get("turnId")])),
                )
                .k("sequence", opt_num(sequence))
                .k("createdAt", Val::str(item_time(item)))
                .k(
                    "completedAt",
                    opt_str(text(&[item.get("completed_at"), item.get("completedAt")])),
                )
        };
        let payload = Obj::with_capacity(5)
            .k("commandId", Val::str(id))
            .k("command", Val::str(command))
            .k("cwd", opt_str(text(&[item.get("cwd")])))
            .k(
                "preview",
                opt_str(text(&[item.get("aggregated_output"), item.get("output")])),
            )
            .k("exitCode", opt_num(exit_code));
        let event = base()
            .k("id", Val::string(format!("thread-item:{id}:command")))
            .k("eventClass", Val::str("command.exited"))
            .k("title", Val::str(command))
            .k("payload", payload.into_val());
        events.push((sequence.unwrap_or(0.0), event.into_val()));

        if let Some(suite) = test_suite(command) {
            let failed = status == "failed";
            let test_sequence = sequence.unwrap_or(0.0) + 0.001;
            let payload = Obj::with_capacity(7)
                .k("testRunId", Val::string(format!("{id}:test")))
                .k("commandId", Val::str(id))
                .k("suite", Val::str(suite))
                .k("result", Val::str(if failed { "failed" } else { "passed" }))
                .k("passed", Val::Num(if failed { 0.0 } else { 1.0 }))
                .k("failed", Val::Num(if failed { 1.0 } else { 0.0 }))
                .k(
                    "outputRef",
                    opt_str(text(&[item.get("outputRef"), item.get("output_ref")])),
                );
            let mut event = base()
                .k("id", Val::string(format!("thread-item:{id}:test")))
                .k("eventClass", Val::str("test.completed"))
                .k("title", Val::str(suite));
            // `{...base, sequence}`: the key keeps its place from `base`.
            event.set("sequence", Val::Num(test_sequence));
            let event = event.k("payload", payload.into_val());
            events.push((test_sequence, event.into_val()));
        }
    }
    // Stable, and every key is a finite number.
    events.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    events.into_iter().map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_suites_follow_the_split() {
        assert_eq!(test_suite("npm test -- unit"), Some("unit"));
        assert_eq!(test_suite("npm test  --\tunit -- more"), Some("unit"));
        assert_eq!(test_suite("a -- -- b"), Some("-- b"));
        assert_eq!(test_suite("npm test --unit"), None);
        assert_eq!(test_suite("npm test -- "), None);
        assert_eq!(test_suite("run -- \u{3000}x\u{3000}"), Some("x"));
    }

    #[test]
    fn latest_patch_per_path_then_commands_by_sequence() {
        let items: Vec<Value> = serde_json::from_str(
            r#"[
            {"id": "p1", "type": "patch", "sequence": 5, "paths": ["a.ts"]},
            {"id": "c1", "type": "command_execution", "sequence": 1, "command": "npm test -- a", "exit_code": 1},
            {"id": "p2", "type": "patch", "sequence": 5, "paths": ["a.ts", " "]}
        ]"#,
        )
        .unwrap_or_default();
        let ids: Vec<String> = events_from_thread_items(&items)
            .iter()
            .filter_map(|e| e.get("id").and_then(Val::as_str).map(str::to_string))
            .collect();
        assert_eq!(
            ids,
            [
                "thread-item:c1:command",
                "thread-item:c1:test",
                "thread-item:p2:file"
            ]
        );
    }
}

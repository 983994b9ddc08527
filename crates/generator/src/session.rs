//! One simulated agent session: turns of reasoning, tool calls, artifacts, subagent blocks and
//! streamed assistant text, emitted as runtime events in order.
//!
//! The random draws happen in exactly the order of the JS reference generator, so the events
//! equal its output key for key; a consumer stops the session by refusing more events.

use super::clock::format_iso;
use super::options::GenOptions;
use super::rng::{seed_hash, Rng};
use super::text::{chunk_text, make_text, split_into};
use super::vocab::{mime_of, FAILURES, FILES, ROLES, TOOLS};
use serde_json::{Map, Value};

/// Returned by an [`EventSink`] that wants no more events.
#[derive(Debug)]
pub struct Full;

/// Where a session puts its events.
pub trait EventSink {
    /// Take one event; `Err(Full)` once no further event is wanted.
    fn push(&mut self, event: Value) -> Result<(), Full>;
}

/// The ids shared by the events of one turn.
struct Scope {
    turn_id: String,
    run_id: String,
    task_id: String,
}

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

/// A JSON object of `pairs`, in order. Written out rather than with `json!`, whose generic
/// serialization and unwraps made most of the generator's code in the wasm module.
fn obj<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    let mut map = Map::with_capacity(N);
    for (key, value) in pairs {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// A JSON array of one string.
fn arr1(text: &str) -> Value {
    Value::Array(vec![s(text)])
}

/// The running state of a session.
pub struct Session<'o> {
    opts: &'o GenOptions,
    rng: Rng,
    tag: String,
    thread_id: String,
    clock: i64,
    sequence: u64,
    subagent_ordinal: u64,
}

impl<'o> Session<'o> {
    /// A session for a seed given in its text form (JS `String(seed)`).
    pub fn new(seed_text: &str, opts: &'o GenOptions) -> Session<'o> {
        let hex = format!("{:08x}", seed_hash(seed_text));
        let tag: String = hex.chars().take(6).collect();
        Session {
            opts,
            rng: Rng::new(seed_text),
            thread_id: format!("thread_{tag}"),
            tag,
            clock: opts.start_ms,
            sequence: 0,
            subagent_ordinal: 0,
        }
    }

    /// Emit turns until the sink is full.
    pub fn run(&mut self, sink: &mut dyn EventSink) {
        let mut t: u64 = 1;
        while self.turn(t, sink).is_ok() {
            t += 1;
        }
    }

    /// Advance the clock by a random number of milliseconds and return the new time.
    fn tick(&mut self, min: i64, max: i64) -> String {
        self.clock = self.clock.saturating_add(self.rng.int(min, max));
        format_iso(self.clock)
    }

    /// Emit the next event of `scope`: the common envelope, then `kind`, `eventClass` and
    /// `status` (`head`), then `fields`, in that order; returns the new event's id.
    fn emit(
        &mut self,
        sink: &mut dyn EventSink,
        scope: &Scope,
        head: [&str; 3],
        fields: Vec<(&str, Value)>,
    ) -> Result<String, Full> {
        self.sequence += 1;
        let id = format!("evt_{}_{}", self.tag, self.sequence);
        let mut event = Map::with_capacity(8 + fields.len());
        event.insert("id".into(), s(&id));
        event.insert("schemaVersion".into(), s(&self.opts.schema_version));
        event.insert("runtimeId".into(), s(&self.opts.runtime_id));
        event.insert("threadId".into(), s(&self.thread_id));
        event.insert("turnId".into(), s(&scope.turn_id));
        event.insert("runId".into(), s(&scope.run_id));
        event.insert("taskId".into(), s(&scope.task_id));
        event.insert("sequence".into(), Value::from(self.sequence));
        for (key, value) in ["kind", "eventClass", "status"].into_iter().zip(head) {
            event.insert(key.into(), s(value));
        }
        for (key, value) in fields {
            event.insert(key.to_string(), value);
        }
        sink.push(Value::Object(event))?;
        Ok(id)
    }

    fn turn(&mut self, t: u64, sink: &mut dyn EventSink) -> Result<(), Full> {
        let tag = self.tag.clone();
        let scope = Scope {
            turn_id: format!("turn_{tag}_{t}"),
            run_id: format!("run_{tag}_{t}"),
            task_id: format!("task_{tag}_{t}"),
        };
        let mut k: u64 = 0;
        let mut id = |prefix: &str| {
            k += 1;
            format!("{prefix}_{tag}_{t}_{k}")
        };
        let model = self.opts.model.clone();

        let at = self.tick(5_000, 120_000);
        self.emit(
            sink,
            &scope,
            ["state", "turn.started", "running"],
            vec![
                ("phase", s("preparing")),
                ("title", s("Turn started")),
                ("createdAt", Value::String(at)),
                (
                    "payload",
                    obj([("profileId", s("general")), ("model", s(&model))]),
                ),
            ],
        )?;

        self.reasoning(sink, &scope, id("reasoning"))?;
        let last_tool_result_id = self.tool_calls(sink, &scope, &mut id)?;
        self.artifact_and_evidence(sink, &scope, &mut id, last_tool_result_id)?;
        if self.rng.chance(self.opts.subagent_rate) {
            self.subagent_block(sink, &scope, &mut id)?;
        }
        self.assistant_message(sink, &scope, id("msg"))?;

        let end_at = self.tick(5, 100);
        if self.rng.chance(self.opts.turn_failure_rate) {
            self.emit(
                sink,
                &scope,
                ["state", "turn.failed", "failed"],
                vec![
                    ("phase", s("failed")),
                    ("title", s("Turn failed")),
                    ("createdAt", s(&end_at)),
                    ("completedAt", Value::String(end_at)),
                    ("payload", obj([("failureCategory", s("provider_error"))])),
                ],
            )?;
        } else {
            self.emit(
                sink,
                &scope,
                ["state", "turn.completed", "completed"],
                vec![
                    ("phase", s("completed")),
                    ("title", s("Turn completed")),
                    ("createdAt", s(&end_at)),
                    ("completedAt", Value::String(end_at)),
                ],
            )?;
        }
        Ok(())
    }

    /// Reasoning deltas (text in `detail`), then the completed reasoning with the full text.
    fn reasoning(
        &mut self,
        sink: &mut dyn EventSink,
        scope: &Scope,
        reasoning_id: String,
    ) -> Result<(), Full> {
        let target = self.rng.range(self.opts.reasoning_chars);
        let text = make_text(&mut self.rng, target);
        let count = self.rng.range(self.opts.reasoning_deltas);
        for part in split_into(&mut self.rng, &text, count) {
            let at = self.tick(40, 400);
            self.emit(
                sink,
                scope,
                ["note", "reasoning.delta", "running"],
                vec![
                    ("phase", s("streaming")),
                    ("title", s("Thinking")),
                    ("detail", s(part)),
                    ("createdAt", Value::String(at)),
                    (
                        "payload",
                        obj([
                            ("messageId", s(&reasoning_id)),
                            ("textLength", Value::from(part.len())),
                        ]),
                    ),
                ],
            )?;
        }
        let at = self.tick(5, 50);
        self.emit(
            sink,
            scope,
            ["note", "reasoning.completed", "completed"],
            vec![
                ("phase", s("streaming")),
                ("title", s("Thinking")),
                ("detail", s(&text)),
                ("createdAt", Value::String(at)),
                (
                    "payload",
                    obj([
                        ("messageId", s(&reasoning_id)),
                        ("textLength", Value::from(text.len())),
                    ]),
                ),
            ],
        )?;
        Ok(())
    }

    /// One to a few tool calls, the first one optionally gated by an approval; returns the id
    /// of the last successful tool result.
    fn tool_calls(
        &mut self,
        sink: &mut dyn EventSink,
        scope: &Scope,
        id: &mut dyn FnMut(&str) -> String,
    ) -> Result<Option<String>, Full> {
        let tool_count = self.rng.range(self.opts.tools_per_turn);
        let gated = self.rng.chance(self.opts.action_rate);
        let mut last_result_id = None;
        for c in 0..tool_count {
            let Some(tool) = self.rng.pick(TOOLS) else {
                break;
            };
            let name = tool.name;
            let tool_call_id = id("call");
            let input = tool.input(&mut self.rng);
            if c == 0 && gated {
                let action_id = id("action");
                let at = self.tick(20, 200);
                let required_id = self.emit(
                    sink,
                    scope,
                    ["action", "action.required", "blocked"],
                    vec![
                        ("phase", s("action_required")),
                        ("actionId", s(&action_id)),
                        ("title", Value::String(format!("Approve {name}"))),
                        ("createdAt", Value::String(at)),
                        (
                            "payload",
                            obj([
                                ("actionKind", s("approve-tool")),
                                ("targetModule", s("agent-runtime")),
                                ("toolName", s(name)),
                                ("input", s(&input)),
                                ("controls", Value::Array(vec![s("approve"), s("reject")])),
                            ]),
                        ),
                    ],
                )?;
                let at = self.tick(1_500, 30_000);
                self.emit(
                    sink,
                    scope,
                    ["action", "action.resolved", "completed"],
                    vec![
                        ("actionId", Value::String(action_id)),
                        ("title", s("Approval resolved")),
                        ("createdAt", Value::String(at)),
                        (
                            "payload",
                            obj([
                                ("decision", s("approve")),
                                ("resolvedFromEventId", Value::String(required_id)),
                            ]),
                        ),
                    ],
                )?;
            }
            let at = self.tick(20, 300);
            self.emit(
                sink,
                scope,
                ["tool", "tool.started", "running"],
                vec![
                    ("phase", s("tool_running")),
                    ("toolCallId", s(&tool_call_id)),
                    ("title", Value::String(format!("Run {name}"))),
                    ("createdAt", Value::String(at)),
                    (
                        "payload",
                        obj([("toolName", s(name)), ("input", s(&input))]),
                    ),
                ],
            )?;
            let progress_count = self.rng.range(self.opts.tool_progress);
            for p in 1..=progress_count {
                let at = self.tick(100, 2_000);
                let total = progress_count + 1;
                self.emit(
                    sink,
                    scope,
                    ["tool", "tool.progress", "running"],
                    vec![
                        ("phase", s("tool_running")),
                        ("toolCallId", s(&tool_call_id)),
                        ("title", Value::String(format!("{name} in progress"))),
                        ("createdAt", Value::String(at)),
                        (
                            "payload",
                            obj([
                                ("toolName", s(name)),
                                ("progress", Value::from(p)),
                                ("total", Value::from(total)),
                                ("message", Value::String(format!("step {p} of {total}"))),
                            ]),
                        ),
                    ],
                )?;
            }
            let output_ref = format!("output_{tool_call_id}");
            let completed_at = self.tick(80, 6_000);
            if self.rng.chance(self.opts.tool_failure_rate) {
                let category = self.rng.pick(FAILURES).copied().unwrap_or("timeout");
                self.emit(
                    sink,
                    scope,
                    ["tool", "tool.failed", "failed"],
                    vec![
                        ("phase", s("failed")),
                        ("toolCallId", s(&tool_call_id)),
                        ("title", Value::String(format!("{name} failed"))),
                        ("detail", Value::String(format!("Tool failed: {category}"))),
                        ("refIds", arr1(&output_ref)),
                        ("createdAt", s(&completed_at)),
                        ("completedAt", Value::String(completed_at)),
                        (
                            "payload",
                            obj([
                                ("toolName", s(name)),
                                ("outputRef", s(&output_ref)),
                                ("error", Value::String(format!("{name}: {category}"))),
                                ("failureCategory", s(category)),
                            ]),
                        ),
                    ],
                )?;
            } else {
                let target = self.rng.int(40, 200);
                let output = format!("{} {}", tool.out, make_text(&mut self.rng, target));
                let duration = self.rng.int(20, 6_000);
                let result_id = self.emit(
                    sink,
                    scope,
                    ["tool", "tool.result", "completed"],
                    vec![
                        ("phase", s("completed")),
                        ("toolCallId", s(&tool_call_id)),
                        ("title", Value::String(format!("{name} completed"))),
                        ("refIds", arr1(&output_ref)),
                        ("createdAt", s(&completed_at)),
                        ("completedAt", Value::String(completed_at)),
                        (
                            "payload",
                            obj([
                                ("toolName", s(name)),
                                ("outputRef", s(&output_ref)),
                                ("output", Value::String(output)),
                                ("durationMs", Value::from(duration)),
                            ]),
                        ),
                    ],
                )?;
                last_result_id = Some(result_id);
            }
        }
        Ok(last_result_id)
    }

    /// The turn's artifact change and the evidence recorded for it.
    fn artifact_and_evidence(
        &mut self,
        sink: &mut dyn EventSink,
        scope: &Scope,
        id: &mut dyn FnMut(&str) -> String,
        last_tool_result_id: Option<String>,
    ) -> Result<(), Full> {
        let path = self.rng.pick(FILES).copied().unwrap_or("src/index.ts");
        let artifact_id = id("artifact");
        let at = self.tick(20, 500);
        let change_kind = if self.rng.chance(0.2) {
            "added"
        } else {
            "modified"
        };
        let target = self.rng.int(60, 240);
        let preview = make_text(&mut self.rng, target);
        self.emit(
            sink,
            scope,
            ["draft", "artifact.changed", "completed"],
            vec![
                ("owner", s("artifact")),
                ("artifactId", s(&artifact_id)),
                ("artifactRefs", arr1(&artifact_id)),
                ("title", Value::String(format!("Updated {path}"))),
                ("createdAt", Value::String(at)),
                (
                    "payload",
                    obj([
                        ("relativePath", s(path)),
                        ("changeKind", s(change_kind)),
                        ("mimeType", s(mime_of(path))),
                        (
                            "contentRef",
                            Value::String(format!("artifact://{artifact_id}")),
                        ),
                        ("preview", Value::String(preview)),
                    ]),
                ),
            ],
        )?;
        let evidence_id = id("evidence");
        let at = self.tick(5, 100);
        let target = self.rng.int(60, 200);
        let mut payload = Map::new();
        payload.insert(
            "summary".into(),
            Value::String(make_text(&mut self.rng, target)),
        );
        if let Some(source) = last_tool_result_id {
            payload.insert("sourceEventId".into(), Value::String(source));
        }
        payload.insert(
            "contentRef".into(),
            Value::String(format!("evidence://{evidence_id}")),
        );
        self.emit(
            sink,
            scope,
            ["evidence", "evidence.changed", "completed"],
            vec![
                ("owner", s("evidence")),
                ("evidenceId", s(&evidence_id)),
                ("evidenceRefs", arr1(&evidence_id)),
                ("title", s("Evidence recorded")),
                ("createdAt", Value::String(at)),
                ("payload", Value::Object(payload)),
            ],
        )?;
        Ok(())
    }

    /// A delegated task run by a subagent: task, subagent, channel message, its tool call,
    /// handoff, review, completion, and optionally a `state.delta` on its summary.
    fn subagent_block(
        &mut self,
        sink: &mut dyn EventSink,
        scope: &Scope,
        id: &mut dyn FnMut(&str) -> String,
    ) -> Result<(), Full> {
        let subagent_id = id("subagent");
        let role = self.rng.pick(ROLES).copied().unwrap_or("researcher");
        let parent_task_id = scope.task_id.clone();
        let at = self.tick(20, 300);
        self.emit(
            sink,
            scope,
            ["handoff", "task.created", "running"],
            vec![
                ("title", Value::String(format!("Delegate to {role}"))),
                ("createdAt", Value::String(at)),
            ],
        )?;
        let at = self.tick(50, 500);
        let target = self.rng.int(60, 200);
        let prompt = make_text(&mut self.rng, target);
        self.emit(
            sink,
            scope,
            ["handoff", "subagent.started", "running"],
            vec![
                ("subagentId", s(&subagent_id)),
                ("title", Value::String(format!("{role} subagent started"))),
                ("createdAt", Value::String(at)),
                (
                    "payload",
                    obj([
                        ("role", s(role)),
                        ("parentTaskId", s(&parent_task_id)),
                        ("prompt", Value::String(prompt)),
                    ]),
                ),
            ],
        )?;
        let channel_id = id("channel");
        let at = self.tick(500, 5_000);
        let target = self.rng.int(40, 160);
        let summary = make_text(&mut self.rng, target);
        self.emit(
            sink,
            scope,
            ["handoff", "channel.message", "running"],
            vec![
                ("subagentId", s(&subagent_id)),
                ("channelId", Value::String(channel_id)),
                ("title", Value::String(format!("{role} update posted"))),
                ("createdAt", Value::String(at)),
                (
                    "payload",
                    obj([
                        ("parentTaskId", s(&parent_task_id)),
                        ("summary", Value::String(summary)),
                    ]),
                ),
            ],
        )?;
        let Some(tool) = self.rng.pick(TOOLS) else {
            return Ok(());
        };
        let name = tool.name;
        let tool_call_id = id("call");
        let at = self.tick(20, 300);
        let input = tool.input(&mut self.rng);
        self.emit(
            sink,
            scope,
            ["tool", "tool.started", "running"],
            vec![
                ("phase", s("tool_running")),
                ("subagentId", s(&subagent_id)),
                ("toolCallId", s(&tool_call_id)),
                ("title", Value::String(format!("Run {name}"))),
                ("createdAt", Value::String(at)),
                (
                    "payload",
                    obj([("toolName", s(name)), ("input", s(&input))]),
                ),
            ],
        )?;
        let output_ref = format!("output_{tool_call_id}");
        let at = self.tick(80, 6_000);
        let target = self.rng.int(40, 160);
        let output = format!("{} {}", tool.out, make_text(&mut self.rng, target));
        self.emit(
            sink,
            scope,
            ["tool", "tool.result", "completed"],
            vec![
                ("phase", s("completed")),
                ("subagentId", s(&subagent_id)),
                ("toolCallId", Value::String(tool_call_id)),
                ("title", Value::String(format!("{name} completed"))),
                ("refIds", arr1(&output_ref)),
                ("createdAt", s(&at)),
                ("completedAt", Value::String(at)),
                (
                    "payload",
                    obj([
                        ("toolName", s(name)),
                        ("outputRef", s(&output_ref)),
                        ("output", Value::String(output)),
                    ]),
                ),
            ],
        )?;
        let handoff_id = id("handoff");
        let at = self.tick(20, 300);
        self.emit(
            sink,
            scope,
            ["handoff", "handoff.requested", "blocked"],
            vec![
                ("subagentId", s(&subagent_id)),
                ("handoffId", Value::String(handoff_id)),
                ("title", s("Handoff requested")),
                ("createdAt", Value::String(at)),
            ],
        )?;
        let evidence_id = id("evidence");
        let review_id = id("review");
        let at = self.tick(500, 8_000);
        let verdict = if self.rng.chance(0.8) {
            "approved"
        } else {
            "changes_requested"
        };
        self.emit(
            sink,
            scope,
            ["evidence", "review.verdict", "completed"],
            vec![
                ("subagentId", s(&subagent_id)),
                ("reviewId", Value::String(review_id)),
                ("evidenceId", s(&evidence_id)),
                ("evidenceRefs", arr1(&evidence_id)),
                ("title", s("Review completed")),
                ("createdAt", Value::String(at)),
                ("payload", obj([("verdict", s(verdict))])),
            ],
        )?;
        let done_at = self.tick(20, 300);
        let target = self.rng.int(40, 160);
        let summary = make_text(&mut self.rng, target);
        self.emit(
            sink,
            scope,
            ["handoff", "subagent.completed", "completed"],
            vec![
                ("subagentId", s(&subagent_id)),
                ("title", Value::String(format!("{role} subagent completed"))),
                ("createdAt", s(&done_at)),
                ("completedAt", s(&done_at)),
                ("payload", obj([("summary", Value::String(summary))])),
            ],
        )?;
        self.emit(
            sink,
            scope,
            ["handoff", "task.completed", "completed"],
            vec![
                ("subagentId", s(&subagent_id)),
                ("title", s("Delegated task completed")),
                ("createdAt", s(&done_at)),
                ("completedAt", Value::String(done_at)),
            ],
        )?;
        if self.opts.state_delta_rate > 0.0 && self.rng.chance(self.opts.state_delta_rate) {
            let at = self.tick(5, 50);
            let value = make_text(&mut self.rng, 80);
            let path = format!("/threads/{}/summary", self.subagent_ordinal);
            self.emit(
                sink,
                scope,
                ["state", "state.delta", "completed"],
                vec![
                    ("title", s("Subagent projection reconciled")),
                    ("createdAt", Value::String(at)),
                    (
                        "payload",
                        obj([
                            ("target", s("projection.subagents")),
                            (
                                "patch",
                                Value::Array(vec![obj([
                                    ("op", s("replace")),
                                    ("path", Value::String(path)),
                                    ("value", Value::String(value)),
                                ])]),
                            ),
                        ]),
                    ),
                ],
            )?;
        }
        self.subagent_ordinal += 1;
        Ok(())
    }

    /// The assistant's text streamed as `model.delta` chunks, then `model.completed`.
    fn assistant_message(
        &mut self,
        sink: &mut dyn EventSink,
        scope: &Scope,
        message_id: String,
    ) -> Result<(), Full> {
        let target = self.rng.range(self.opts.message_chars);
        let text = make_text(&mut self.rng, target);
        let model = self.opts.model.clone();
        for chunk in chunk_text(&mut self.rng, &text, self.opts.chunk_chars) {
            let at = self.tick(15, 80);
            self.emit(
                sink,
                scope,
                ["model", "model.delta", "running"],
                vec![
                    ("phase", s("streaming")),
                    ("title", s("Assistant text")),
                    ("model", s(&model)),
                    ("createdAt", Value::String(at)),
                    (
                        "payload",
                        obj([("messageId", s(&message_id)), ("delta", s(chunk))]),
                    ),
                ],
            )?;
        }
        let at = self.tick(5, 50);
        self.emit(
            sink,
            scope,
            ["model", "model.completed", "completed"],
            vec![
                ("phase", s("completed")),
                ("title", s("Assistant final text")),
                ("model", Value::String(model)),
                ("createdAt", s(&at)),
                ("completedAt", Value::String(at)),
                (
                    "payload",
                    obj([("messageId", s(&message_id)), ("text", Value::String(text))]),
                ),
            ],
        )?;
        Ok(())
    }
}

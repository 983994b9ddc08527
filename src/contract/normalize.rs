//! `normalizeRuntimeEvent`: accept either an execution event or the product's canonical
//! RuntimeEvent envelope and return an `AgentRuntimeExecutionEvent`.
//!
//! The reference package has no such mapping (contracts.md §1.6); this is our addition so
//! hosts that emit the canonical envelope can feed the validators and the projection.
//!
//! * A JSON object with an `id` member is an execution event and is returned unchanged.
//! * A JSON object with an `eventId` member (and no `id`) is an envelope and is mapped:
//!
//! | envelope | execution event |
//! |---|---|
//! | `eventId` | `id` |
//! | `type` | `eventClass` |
//! | `timestamp` | `createdAt` |
//! | `schemaVersion` (non-empty string) | `schemaVersion` (kept); otherwise `lime-runtime-event/v0.1` |
//! | `runtimeId`, `sessionId`, `sequence`, `payload` | same name, kept |
//! | `threadId`, `turnId`, `taskId`, `runId`, `stepId`, `toolCallId`, `actionId`, `artifactId`, `evidenceId` (and the other scope ids of the event model) | same name, kept |
//! | `refs.artifactIds` then `refs.artifactRefs` | `artifactRefs` |
//! | `refs.evidenceIds` then `refs.evidenceRefs` | `evidenceRefs` |
//! | `refs.outputRefs`, `refs.rawRefs`, `refs.refIds` (or `refs` itself when it is an array of strings) | `refIds` |
//! | `payload.title`, else `payload.toolName`, else `type` | `title` |
//! | family of `type` (table below) | `kind` |
//! | suffix of `type` (table below) | `status` |
//!
//! Only string entries of the `refs` lists are kept; a ref list that ends up empty is left
//! out. Members the event model does not know are left out too (the envelope is a transport
//! frame, not an event). Anything that is neither an object with `id` nor an envelope is
//! returned unchanged, so validation reports it.
//!
//! `kind` by the class prefix (before the first `.`):
//!
//! | prefix | kind |
//! |---|---|
//! | `tool`, `command`, `test` | `tool` |
//! | `model`, `text` | `model` |
//! | `reasoning`, `plan` | `note` |
//! | `action` | `action` |
//! | `artifact`, `file`, `patch` | `draft` |
//! | `evidence`, `review` | `evidence` |
//! | `permission` | `permission` |
//! | `sandbox` | `sandbox` |
//! | `context` | `context` |
//! | `turn`, `run`, `session`, `snapshot`, `state`, `messages`, `queue` | `state` |
//! | `subagent`, `task`, `handoff`, `channel`, `agent`, `worker` | `handoff` |
//! | anything else | `note` |
//!
//! `status` by the class, first match wins:
//!
//! | class | status |
//! |---|---|
//! | `action.required` | `pending` |
//! | ends with `.failed` or `.error`, or is `runtime.error` | `failed` |
//! | ends with `.canceled` or `.cancelled` | `canceled` |
//! | ends with `.blocked` or `.violation` | `blocked` |
//! | ends with `.completed`, `.result`, `.resolved`, `.changed`, `.applied`, `.exited`, `.finished`, `.final`, `.updated`, `.ready`, `.read` | `completed` |
//! | anything else (`.started`, `.delta`, `.requested`, `.output`, ...) | `running` |

use serde_json::{Map, Value};

use super::constants::AGENT_RUNTIME_EVENT_SCHEMA_VERSION;
use super::event_model::EVENT_MODEL;

/// How many fields the event model's table marks `scope`.
const SCOPE_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < EVENT_MODEL.len() {
        if EVENT_MODEL[i].scope {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Scope ids (and `phase`) copied from the envelope unchanged: the event model's fields marked
/// `scope` in its field table (their names only, at compile time: the table's TypeScript and
/// schema texts stay out of the module).
const SCOPE_FIELDS: [&str; SCOPE_COUNT] = {
    let mut out = [""; SCOPE_COUNT];
    let (mut n, mut i) = (0, 0);
    while i < EVENT_MODEL.len() {
        if EVENT_MODEL[i].scope {
            out[n] = EVENT_MODEL[i].name;
            n += 1;
        }
        i += 1;
    }
    out
};

/// The `kind` an envelope class maps to (see the module table).
pub fn kind_for_class(class: &str) -> &'static str {
    let family = class.split('.').next().unwrap_or("");
    match family {
        "tool" | "command" | "test" => "tool",
        "model" | "text" => "model",
        "reasoning" | "plan" => "note",
        "action" => "action",
        "artifact" | "file" | "patch" => "draft",
        "evidence" | "review" => "evidence",
        "permission" => "permission",
        "sandbox" => "sandbox",
        "context" => "context",
        "turn" | "run" | "session" | "snapshot" | "state" | "messages" | "queue" => "state",
        "subagent" | "task" | "handoff" | "channel" | "agent" | "worker" => "handoff",
        _ => "note",
    }
}

/// The `status` an envelope class maps to (see the module table).
pub fn status_for_class(class: &str) -> &'static str {
    let ends = |suffixes: &[&str]| suffixes.iter().any(|s| class.ends_with(s));
    if class == "action.required" {
        "pending"
    } else if class == "runtime.error" || ends(&[".failed", ".error"]) {
        "failed"
    } else if ends(&[".canceled", ".cancelled"]) {
        "canceled"
    } else if ends(&[".blocked", ".violation"]) {
        "blocked"
    } else if ends(&[
        ".completed",
        ".result",
        ".resolved",
        ".changed",
        ".applied",
        ".exited",
        ".finished",
        ".final",
        ".updated",
        ".ready",
        ".read",
    ]) {
        "completed"
    } else {
        "running"
    }
}

fn string_list(v: Option<&Value>, out: &mut Vec<Value>) {
    if let Some(Value::Array(items)) = v {
        out.extend(items.iter().filter(|x| x.is_string()).cloned());
    }
}

fn non_empty_str(v: Option<&Value>) -> Option<&str> {
    match v {
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        _ => None,
    }
}

/// Map a canonical envelope to an execution event; execution events pass through unchanged.
pub fn normalize_runtime_event(v: &Value) -> Value {
    let Some(env) = v.as_object() else {
        return v.clone();
    };
    if env.contains_key("id") || !env.contains_key("eventId") {
        return v.clone();
    }
    let class = env.get("type").and_then(Value::as_str);
    let payload = env.get("payload").and_then(Value::as_object);

    let mut out = Map::new();
    let schema_version =
        non_empty_str(env.get("schemaVersion")).unwrap_or(AGENT_RUNTIME_EVENT_SCHEMA_VERSION);
    out.insert("schemaVersion".into(), Value::String(schema_version.into()));
    if let Some(x) = env.get("runtimeId") {
        out.insert("runtimeId".into(), x.clone());
    }
    if let Some(x) = env.get("sessionId") {
        out.insert("sessionId".into(), x.clone());
    }
    if let Some(x) = env.get("eventId") {
        out.insert("id".into(), x.clone());
    }
    if let Some(x) = env.get("type") {
        out.insert("eventClass".into(), x.clone());
    }
    if let Some(c) = class {
        out.insert("kind".into(), Value::String(kind_for_class(c).into()));
        out.insert("status".into(), Value::String(status_for_class(c).into()));
    }
    if let Some(x) = env.get("sequence") {
        out.insert("sequence".into(), x.clone());
    }
    for f in SCOPE_FIELDS {
        if let Some(x) = env.get(f) {
            out.insert(f.into(), x.clone());
        }
    }
    let title = payload
        .and_then(|p| non_empty_str(p.get("title")).or_else(|| non_empty_str(p.get("toolName"))))
        .or(class.filter(|c| !c.is_empty()));
    if let Some(t) = title {
        out.insert("title".into(), Value::String(t.into()));
    }

    let mut ref_ids = Vec::new();
    let mut artifact_refs = Vec::new();
    let mut evidence_refs = Vec::new();
    match env.get("refs") {
        Some(Value::Object(refs)) => {
            string_list(refs.get("artifactIds"), &mut artifact_refs);
            string_list(refs.get("artifactRefs"), &mut artifact_refs);
            string_list(refs.get("evidenceIds"), &mut evidence_refs);
            string_list(refs.get("evidenceRefs"), &mut evidence_refs);
            string_list(refs.get("outputRefs"), &mut ref_ids);
            string_list(refs.get("rawRefs"), &mut ref_ids);
            string_list(refs.get("refIds"), &mut ref_ids);
        }
        refs @ Some(Value::Array(_)) => string_list(refs, &mut ref_ids),
        _ => {}
    }
    for (name, list) in [
        ("refIds", ref_ids),
        ("artifactRefs", artifact_refs),
        ("evidenceRefs", evidence_refs),
    ] {
        if !list.is_empty() {
            out.insert(name.into(), Value::Array(list));
        }
    }
    if let Some(x) = env.get("payload") {
        out.insert("payload".into(), x.clone());
    }
    if let Some(x) = env.get("timestamp") {
        out.insert("createdAt".into(), x.clone());
    }
    Value::Object(out)
}

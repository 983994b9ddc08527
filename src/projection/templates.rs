//! Objects of the state that are made from one event by a fixed recipe: a timeline entry, a
//! read-model projection, the runtime status view, a tool call's view of one of its events.
//! Their keys and where each value comes from (a field of the event, the event itself, one of a
//! list of strings the projection picks, ...) are a template here; the projection keeps such an object as `Val::Made` (the template, the
//! event and the few codes it picked) instead of building it.
//!
//! The JS side makes these objects itself from the caller's own event object: the package build
//! writes one function per template from [`templates_json`] (`glue/templates.js`), which reads
//! the event's fields directly (no copy of their values crosses the boundary). In Rust,
//! [`expand`] builds them (`state.delta` operations on a list of them, the state read natively).

use std::borrow::Cow;

use serde_json::Value;

use super::normalization::ev_val;
use super::read_model;
use super::view_rules;
use crate::contract::event::{Ev, REF_FIELDS};
use crate::contract::val::{write_json_str, Made, Obj, Val};

/// Where a template's value comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    /// `event[field]` (an own key holding `undefined` when the event has none).
    Field(&'static str),
    /// The event object itself.
    Event,
    /// `list[codes[i]]`.
    Code(usize, &'static [&'static str]),
    /// `codes[i] !== 0`.
    Flag(usize),
    /// `eventRefs(event)`: `[...(refIds ?? []), ...(artifactRefs ?? []), ...(evidenceRefs ?? [])]`.
    Refs,
    /// `typeof event.payload?.[key] === "string" ? event.payload[key] : ""`.
    PayloadString(&'static str),
    /// `undefined`.
    Undefined,
    /// `projectAgentRuntimeAction(event)`.
    Action,
    /// The actions of an open action request: one per control, else the action alone.
    Actions,
}

/// An object made from one event: its keys in order, each with its source.
pub struct Template {
    pub name: &'static str,
    pub keys: &'static [(&'static str, Source)],
    /// Keys whose value is `undefined` are left out (the reference's `compactProjectionFields`).
    pub compact: bool,
}

/// The kinds of timeline entry (`ProcessTimelineEntryKind`), as codes.
pub const TIMELINE_KINDS: [&str; 8] = [
    "status",
    "action",
    "tool",
    "artifact",
    "evidence",
    "reasoning",
    "task",
    "message",
];

/// The surfaces of a read-model projection, as codes.
pub const SURFACES: [&str; 8] = [
    "human-action",
    "permission",
    "artifact",
    "evidence",
    "runtime-status",
    "context",
    "tool",
    "message",
];

/// The display status keys of a read-model projection, as codes.
pub const DISPLAY_KEYS: [&str; 8] = [
    "agent.status.completed",
    "agent.status.running",
    "agent.status.blocked",
    "agent.status.canceled",
    "agent.status.failed",
    "agent.status.pending",
    view_rules::ACTION_REQUIRED_KEY,
    view_rules::ACTION_RESOLVED_KEY,
];

/// Template of a timeline entry (spec §3.5); code 0 is its kind.
pub const TIMELINE_ENTRY: u8 = 0;
/// Template of a read-model projection without an open action (spec §3.1.2); codes: surface,
/// display status key, resolved.
pub const EVENT_PROJECTION: u8 = 1;
/// Template of the projection of an open action request (the same keys and codes, with its
/// `action` and `actions`).
pub const OPEN_ACTION_PROJECTION: u8 = 2;

/// Template of the runtime status view of the latest event (spec §3.3); code 0 is the status's
/// position in `view_rules::RUNTIME_STATUSES`.
pub const RUNTIME_VIEW: u8 = 3;

/// Template of the view of one event in a tool call's `events` (spec §3.7).
pub const TOOL_CALL_EVENT_VIEW: u8 = 4;

/// The keys of the runtime status view: `status`, then [`view_rules::RUNTIME_VIEW_FIELDS`].
const RUNTIME_VIEW_KEYS: [(&str, Source); 6] = {
    let f = view_rules::RUNTIME_VIEW_FIELDS;
    [
        ("status", Source::Code(0, &view_rules::RUNTIME_STATUSES)),
        (f[0].0, Source::Field(f[0].1)),
        (f[1].0, Source::Field(f[1].1)),
        (f[2].0, Source::Field(f[2].1)),
        (f[3].0, Source::Field(f[3].1)),
        (f[4].0, Source::Field(f[4].1)),
    ]
};

/// The keys of a read-model projection, with their sources; `action` and `actions` as given.
macro_rules! event_projection_keys {
    ($action:expr, $actions:expr) => {
        &[
            ("id", Source::Field("id")),
            ("source", Source::Event),
            ("surface", Source::Code(0, &SURFACES)),
            ("title", Source::Field("title")),
            ("detail", Source::Field("detail")),
            ("status", Source::Field("status")),
            ("displayStatusKey", Source::Code(1, &DISPLAY_KEYS)),
            ("action", $action),
            ("actions", $actions),
            ("actionId", Source::Field("actionId")),
            ("resolved", Source::Flag(2)),
            (
                "actionKind",
                Source::PayloadString(view_rules::ACTION_KIND_KEY),
            ),
            (
                "targetModule",
                Source::PayloadString(view_rules::TARGET_MODULE_KEY),
            ),
        ]
    };
}

/// Every template, by its number.
pub static TEMPLATES: [Template; 5] = [
    Template {
        name: "timelineEntry",
        keys: &[
            ("entryId", Source::Field("id")),
            ("sequence", Source::Field("sequence")),
            ("kind", Source::Code(0, &TIMELINE_KINDS)),
            ("phase", Source::Field("phase")),
            ("owner", Source::Field("owner")),
            ("status", Source::Field("status")),
            ("title", Source::Field("title")),
            ("detail", Source::Field("detail")),
            ("refs", Source::Refs),
            ("sourceEventId", Source::Field("id")),
            ("createdAt", Source::Field("createdAt")),
            ("completedAt", Source::Field("completedAt")),
        ],
        compact: false,
    },
    Template {
        name: "eventProjection",
        keys: event_projection_keys!(Source::Undefined, Source::Undefined),
        compact: false,
    },
    Template {
        name: "openActionProjection",
        keys: event_projection_keys!(Source::Action, Source::Actions),
        compact: false,
    },
    Template {
        name: "runtimeStatusView",
        keys: &RUNTIME_VIEW_KEYS,
        compact: false,
    },
    Template {
        name: "toolCallEventView",
        keys: &[
            ("id", Source::Field("id")),
            ("eventId", Source::Field("id")),
            ("eventClass", Source::Field("eventClass")),
            ("status", Source::Field("status")),
            ("phase", Source::Field("phase")),
            ("title", Source::Field("title")),
            ("detail", Source::Field("detail")),
            ("createdAt", Source::Field("createdAt")),
            ("completedAt", Source::Field("completedAt")),
        ],
        compact: true,
    },
];

/// The code of `s` in `list` (0 when absent: never, for the lists the projection picks from).
pub fn code_of(list: &[&str], s: &str) -> u8 {
    list.iter()
        .position(|x| *x == s)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(0)
}

/// An object of `template` made from accepted event `event` with `codes`.
pub fn made(template: u8, event: u32, codes: [u8; 3]) -> Val {
    Val::Made(Made {
        template,
        codes,
        event,
    })
}

/// The action and actions of the open action request `ev`, built on first use.
fn open_action<'v>(slot: &'v mut Option<(Val, Val)>, ev: Ev<'_>) -> &'v (Val, Val) {
    slot.get_or_insert_with(|| read_model::open_action_vals(ev))
}

/// Build the object `m` stands for from its event `ev` (`Val::Event(m.event)` for the event
/// itself).
pub fn build(m: &Made, ev: Ev<'_>) -> Val {
    let Some(t) = TEMPLATES.get(usize::from(m.template)) else {
        return Val::Undef;
    };
    let code = |i: usize| m.codes.get(i).copied().map_or(0, usize::from);
    // An open action request's `action` and `actions`, built once for both keys.
    let mut actions: Option<(Val, Val)> = None;
    let mut o = Obj::with_capacity(t.keys.len());
    for (k, src) in t.keys {
        let v = match src {
            Source::Field(f) => ev_val(ev, f),
            Source::Event => Val::Event(m.event),
            Source::Code(i, list) => list.get(code(*i)).map_or(Val::Undef, |s| Val::lit(s)),
            Source::Flag(i) => Val::Bool(code(*i) != 0),
            Source::Refs => Val::arr(ev.refs().unwrap_or_default()),
            Source::PayloadString(key) => match ev.payload_get(key) {
                Some(Value::String(s)) => Val::str(s),
                _ => Val::lit(""),
            },
            Source::Undefined => Val::Undef,
            Source::Action => open_action(&mut actions, ev).0.clone(),
            Source::Actions => open_action(&mut actions, ev).1.clone(),
        };
        if !(t.compact && matches!(v, Val::Undef)) {
            o.push(*k, v);
        }
    }
    o.into_val()
}

/// `v` with every made object built from its event (`event_of(i)`: accepted event `i`); the
/// containers that hold none are shared, not copied. Recursion follows the value's nesting,
/// which the projection bounds.
pub fn expand<'e>(v: &Val, event_of: &dyn Fn(u32) -> Option<Cow<'e, Value>>) -> Val {
    match v {
        Val::Made(m) => match event_of(m.event) {
            Some(e) => build(m, Ev::of(&e)),
            None => Val::Undef,
        },
        Val::Arr(a) => {
            if !a.iter().any(holds_made) {
                return v.clone();
            }
            Val::arr(a.iter().map(|x| expand(x, event_of)).collect())
        }
        Val::Obj(o) => {
            if !o.iter().any(|(_, x)| holds_made(x)) {
                return v.clone();
            }
            let mut out = Obj::with_capacity(o.len());
            for (k, x) in o.iter() {
                out.set_dyn(k, expand(x, event_of));
            }
            out.into_val()
        }
        _ => v.clone(),
    }
}

/// How deep made objects sit at most: a tool call's event views are the deepest
/// (`toolCalls.calls[i].events[j]`, five levels below the state).
const MADE_DEPTH: usize = 6;

/// Whether `v` is or holds a made object within [`MADE_DEPTH`] levels.
fn holds_made(v: &Val) -> bool {
    holds_made_within(v, MADE_DEPTH)
}

fn holds_made_within(v: &Val, depth: usize) -> bool {
    match v {
        Val::Made(_) => true,
        _ if depth == 0 => false,
        Val::Arr(a) => a.iter().any(|x| holds_made_within(x, depth - 1)),
        Val::Obj(o) => o.iter().any(|(_, x)| holds_made_within(x, depth - 1)),
        _ => false,
    }
}

/// The templates as JSON (`[{name, compact, keys: [[key, source...]...]}]`, sources as
/// `["field", f]`, `["event"]`, `["code", i, [strings]]`, `["flag", i]`, `["refs", [fields]]`,
/// `["payloadString", key]`, `["undefined"]`, `["action"]`, `["actions"]`), from which the
/// package build writes the JS makers (`scripts/assemble-pkg.mjs`).
pub fn templates_json() -> String {
    let mut s = String::from("[");
    for (ti, t) in TEMPLATES.iter().enumerate() {
        if ti > 0 {
            s.push(',');
        }
        s.push_str("{\"name\":");
        write_json_str(t.name, &mut s);
        s.push_str(if t.compact {
            ",\"compact\":true"
        } else {
            ",\"compact\":false"
        });
        s.push_str(",\"keys\":[");
        for (ki, (k, src)) in t.keys.iter().enumerate() {
            if ki > 0 {
                s.push(',');
            }
            s.push('[');
            write_json_str(k, &mut s);
            s.push(',');
            match src {
                Source::Field(f) => {
                    s.push_str("\"field\",");
                    write_json_str(f, &mut s);
                }
                Source::Event => s.push_str("\"event\""),
                Source::Code(i, list) => {
                    s.push_str(&format!("\"code\",{i},["));
                    for (li, x) in list.iter().enumerate() {
                        if li > 0 {
                            s.push(',');
                        }
                        write_json_str(x, &mut s);
                    }
                    s.push(']');
                }
                Source::Flag(i) => s.push_str(&format!("\"flag\",{i}")),
                Source::Refs => {
                    s.push_str("\"refs\",[");
                    for (fi, f) in REF_FIELDS.iter().enumerate() {
                        if fi > 0 {
                            s.push(',');
                        }
                        write_json_str(f, &mut s);
                    }
                    s.push(']');
                }
                Source::PayloadString(key) => {
                    s.push_str("\"payloadString\",");
                    write_json_str(key, &mut s);
                }
                Source::Undefined => s.push_str("\"undefined\""),
                Source::Action => s.push_str("\"action\""),
                Source::Actions => s.push_str("\"actions\""),
            }
            s.push(']');
        }
        s.push_str("]}");
    }
    s.push(']');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projection::read_model::surface;

    #[test]
    fn code_lists_cover_what_the_projection_picks() {
        for r in &view_rules::SURFACE_RULES {
            assert!(SURFACES.contains(&r.surface), "{}", r.surface);
        }
        assert!(SURFACES.contains(&view_rules::DEFAULT_SURFACE));
        for (_, k) in view_rules::STATUS_KEYS {
            assert!(DISPLAY_KEYS.contains(&k), "{k}");
        }
        assert!(DISPLAY_KEYS.contains(&view_rules::DEFAULT_STATUS_KEY));
        for (_, k) in view_rules::CLASS_DISPLAY_KEYS {
            assert!(DISPLAY_KEYS.contains(&k), "{k}");
        }
        let ev = serde_json::json!({"id": "a", "kind": "tool"});
        assert_eq!(surface(Ev::of(&ev)).ok(), Some("tool"));
        assert!(templates_json().starts_with("[{\"name\":\"timelineEntry\""));
    }
}

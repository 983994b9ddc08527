//! App Server facts (`appServerFacts` of the reference): what a host already fetched from the
//! App Server (an `agentSession/read` result, the `params.event` of `agentSession/event`
//! notifications, an `evidence/export` result) mapped onto runtime execution events, and the
//! replay that projects them into the UI state.
//!
//! A layer above [`crate::projection`]: it reads facts with the reference's JavaScript
//! semantics ([`access`]), classifies them ([`classes`]), builds execution events
//! ([`notification`], [`session`], [`export`]) and orders and projects them ([`replay`]).
//!
//! Facts are untyped JSON. Where the reference throws a native `TypeError` on a malformed fact
//! (reading a property of `null`, a `trim` on a number, a list that is not an array), the
//! functions here return a [`FactsError`] with V8's message.
//!
//! Built events are [`Out`] values that borrow from the parsed facts. A value copied from the
//! facts as it is (a nested payload object, an artifact's `metadata`, ...) is the caller's own
//! object in the reference; on the wire such objects and arrays are references to the input
//! (see [`embed`]).

pub mod access;
pub mod classes;
pub mod collation;
pub mod embed;
pub mod export;
pub mod js_sort;
pub mod notification;
pub mod out;
pub mod replay;
pub mod session;

use std::rc::Rc;

use serde_json::Value;

use crate::contract::fxhash::HashMap;
use crate::contract::tape::{Tape, TapeTooLong};
use crate::contract::val::Val;

pub use access::Js;
pub use embed::Embedded;
pub use export::project_app_server_evidence_export_to_execution_events;
pub use notification::project_app_server_events_to_execution_events;
pub use out::Out;
pub use replay::{replay_app_server_facts, Replay};
pub use session::project_app_server_session_read_to_execution_events;

/// The `TypeError` the reference throws on these facts (V8's message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactsError(pub String);

impl std::fmt::Display for FactsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The schema version of every built event.
pub const SCHEMA_VERSION: &str = "lime-runtime-event/v0.1";
/// The runtime id of every built event.
pub const RUNTIME_ID: &str = "app-server";
/// The creation time of a fact that has none.
pub const DEFAULT_TIMESTAMP: &str = "1970-01-01T00:00:00.000Z";

/// `prefix`, `rest` and `suffix` as one shared string (an event id).
pub fn id_of(prefix: &str, rest: &str, suffix: &str) -> Rc<str> {
    let mut s = String::with_capacity(prefix.len() + rest.len() + suffix.len());
    s.push_str(prefix);
    s.push_str(rest);
    s.push_str(suffix);
    Rc::from(s)
}

/// An event's `createdAt` as the replay's ordering reads it.
#[derive(Clone, Copy, Debug)]
pub enum Stamp<'a> {
    Text(&'a str),
    /// A fact's non-string value (the reference compares it as `String(value)`, and cannot
    /// call `localeCompare` on it).
    Other(&'a Value),
}

impl<'a> Stamp<'a> {
    /// The stamp of a `createdAt` fact read as it is, or the default time when nullish.
    pub fn of(v: Js<'a>) -> Stamp<'a> {
        match v {
            None | Some(Value::Null) => Stamp::Text(DEFAULT_TIMESTAMP),
            Some(Value::String(s)) => Stamp::Text(s),
            Some(other) => Stamp::Other(other),
        }
    }
}

/// One built execution event with what the replay orders it by.
pub struct Built<'a> {
    pub id: Rc<str>,
    pub event: Out<'a>,
    /// `sequence` as a number (`readNumberField`), if it is one.
    pub sequence: Option<f64>,
    pub created: Stamp<'a>,
}

/// Events under construction, in order.
#[derive(Default)]
pub struct Builder<'a> {
    built: Vec<Built<'a>>,
}

impl<'a> Builder<'a> {
    pub fn push(&mut self, b: Built<'a>) {
        self.built.push(b);
    }

    /// The events deduplicated by id as the reference's `Map` does: each id keeps the position
    /// of its first event and the value of its last.
    pub fn finish(self) -> Vec<Built<'a>> {
        let mut out: Vec<Built<'a>> = Vec::with_capacity(self.built.len());
        let mut at: HashMap<Rc<str>, usize> = HashMap::default();
        for b in self.built {
            match at.get(&b.id) {
                Some(&i) => {
                    if let Some(slot) = out.get_mut(i) {
                        *slot = b;
                    }
                }
                None => {
                    at.insert(b.id.clone(), out.len());
                    out.push(b);
                }
            }
        }
        out
    }

    /// [`Self::finish`] as a result.
    pub fn into_events(self) -> ExecutionEvents<'a> {
        ExecutionEvents {
            events: self.finish().into_iter().map(|b| b.event).collect(),
        }
    }
}

/// Execution events built from facts.
pub struct ExecutionEvents<'a> {
    pub events: Vec<Out<'a>>,
}

impl<'a> ExecutionEvents<'a> {
    /// The events as plain JSON, the caller's values copied in (what the projection reads).
    pub fn to_json(&self) -> Vec<Value> {
        self.events.iter().map(Out::to_json).collect()
    }

    /// Onto `tape` (`contract::tape`), two values: the paths from `root` (the input the facts
    /// were read from) of the caller's values the events embed (none when there is no `root`),
    /// then the events, their embedded values as `Val::Event` references to those paths' values.
    pub fn write_tape(&self, root: Option<&'a Value>, tape: &mut Tape) -> Result<(), TapeTooLong> {
        // The embedded values are numbered in the order the events hold them, before either
        // value is written (the paths go first).
        let mut embedded = Embedded::default();
        self.events.iter().for_each(|e| e.embed(&mut embedded));
        let refs = match root {
            Some(root) if !embedded.is_empty() => embedded.paths_val(root),
            _ => Val::arr(Vec::new()),
        };
        tape.append_with(&refs, &|_| None)?;
        tape.append_by(&|_| None, |w| {
            w.array(self.events.len())?;
            self.events
                .iter()
                .try_for_each(|e| e.write_tape(w, &mut embedded))
        })
    }
}

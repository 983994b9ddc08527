//! The accepted events a projector keeps, and access to them by position.
//!
//! After its `apply`, an event is read again only in rare cases: a read-model entry projected
//! again when a later event resolves it, and `state.delta` operations that copy an event held in
//! the state. A live projector therefore keeps each event as its JSON text, a sixth of the size
//! of the parsed tree (an `IndexMap` and a `String` per member), and parses it again when one of
//! those cases comes (`hydrate` and `applyMany` keep each event's slice of the array text).
//! A batch projection of array text keeps each event's slice of that text (its parsed tree is
//! dropped once the event is applied); one given parsed events keeps those.

use std::borrow::Cow;

use serde_json::Value;

/// An accepted event as a projector keeps it.
#[derive(Debug, Clone)]
pub enum Stored<'a> {
    /// The parsed event, owned or borrowed from the caller (boxed: the other variants are a
    /// fifth of a `Value`'s size, and a projector keeps one `Stored` per event).
    Value(Box<Cow<'a, Value>>),
    /// The event's JSON text (what it was parsed from).
    Text(Box<str>),
    /// The event's slice of the JSON array text a batch projection reads.
    Slice(&'a str),
}

impl Stored<'_> {
    /// The event as a value (parsed again from its text; None only if that text no longer
    /// parses, which cannot happen for text that was accepted).
    pub fn value(&self) -> Option<Cow<'_, Value>> {
        let text: &str = match self {
            Stored::Value(v) => return Some(Cow::Borrowed(&***v)),
            Stored::Text(t) => t,
            Stored::Slice(t) => t,
        };
        crate::contract::json::parse_value(text)
            .ok()
            .map(Cow::Owned)
    }
}

/// Earlier events by position.
pub trait EventsByPos {
    /// The event at position `pos`, if there is one.
    fn event_at(&self, pos: usize) -> Option<Cow<'_, Value>>;
}

/// A reference to a list (a slice passed as `&dyn EventsByPos` is `&&[_]`).
impl<T: EventsByPos + ?Sized> EventsByPos for &T {
    fn event_at(&self, pos: usize) -> Option<Cow<'_, Value>> {
        (**self).event_at(pos)
    }
}

impl EventsByPos for [Value] {
    fn event_at(&self, pos: usize) -> Option<Cow<'_, Value>> {
        self.get(pos).map(Cow::Borrowed)
    }
}

impl EventsByPos for [Stored<'_>] {
    fn event_at(&self, pos: usize) -> Option<Cow<'_, Value>> {
        self.get(pos).and_then(Stored::value)
    }
}

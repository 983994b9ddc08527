//! The caller's own objects inside the events built from App Server facts.
//!
//! The reference copies fact values into its events as they are: a payload's nested object, a
//! `soulLifecycle` record, an artifact's `metadata` are the caller's objects, not copies. To keep
//! that identity across the wasm boundary, an object or array taken from the facts is written as
//! `Val::Event(i)`, "the i-th embedded value", and the result names where each embedded value
//! sits in the input (its path from the input's root). The JS wrapper looks the paths up in the
//! object it was given and hands those objects back. Strings, numbers, booleans and `null` are
//! written inline (they have no identity), see [`super::out::Out::write_tape`].

use serde_json::Value;

use crate::contract::fxhash::HashMap;
use crate::contract::val::Val;

/// One step of a path from the input's root: an object key or an array index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The fact values (objects and arrays) an output embeds, in order of first use.
#[derive(Default)]
pub struct Embedded<'a> {
    nodes: Vec<&'a Value>,
    by_address: HashMap<usize, u32>,
}

impl<'a> Embedded<'a> {
    /// The index of the caller's value `v` (an object or an array of the facts), given on its
    /// first use.
    pub fn index(&mut self, v: &'a Value) -> u32 {
        let next = self.nodes.len() as u32;
        let i = *self
            .by_address
            .entry(v as *const Value as usize)
            .or_insert(next);
        if i == next {
            self.nodes.push(v);
        }
        i
    }

    /// The embedded value `i`.
    pub fn node(&self, i: u32) -> Option<&'a Value> {
        self.nodes.get(i as usize).copied()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The path of each embedded value from `root`, the input tree every embedded value was
    /// read from (a value not found there gets an empty path). One walk over `root`'s objects
    /// and arrays, stopped as soon as every value is found.
    pub fn paths(&self, root: &'a Value) -> Vec<Vec<Step<'a>>> {
        let mut found: Vec<Option<usize>> = vec![None; self.nodes.len()];
        let mut missing = self.nodes.len();
        // Visited containers: (parent's slot, step from the parent).
        let mut trail: Vec<(usize, Step<'a>)> = Vec::new();
        let mut stack: Vec<(&'a Value, usize, Step<'a>)> = vec![(root, usize::MAX, Step::Index(0))];
        while let Some((node, parent, step)) = stack.pop() {
            if missing == 0 {
                break;
            }
            let slot = trail.len();
            trail.push((parent, step));
            if let Some(&i) = self.by_address.get(&(node as *const Value as usize)) {
                if let Some(f) = found.get_mut(i as usize) {
                    if f.is_none() {
                        *f = Some(slot);
                        missing -= 1;
                    }
                }
            }
            match node {
                Value::Object(m) => {
                    for (k, v) in m {
                        if matches!(v, Value::Object(_) | Value::Array(_)) {
                            stack.push((v, slot, Step::Key(k)));
                        }
                    }
                }
                Value::Array(a) => {
                    for (j, v) in a.iter().enumerate() {
                        if matches!(v, Value::Object(_) | Value::Array(_)) {
                            stack.push((v, slot, Step::Index(j)));
                        }
                    }
                }
                _ => {}
            }
        }
        found
            .into_iter()
            .map(|slot| {
                let mut path = Vec::new();
                let mut at = slot.unwrap_or(0);
                // The root (slot 0) has no step; a value not found keeps an empty path.
                while slot.is_some() && at != 0 {
                    let Some(&(parent, step)) = trail.get(at) else {
                        break;
                    };
                    path.push(step);
                    at = parent;
                }
                path.reverse();
                path
            })
            .collect()
    }

    /// The paths as an array of arrays of keys (strings) and indexes (numbers).
    pub fn paths_val(&self, root: &'a Value) -> Val {
        let step = |s: &Step<'_>| match s {
            Step::Key(k) => Val::str(k),
            Step::Index(n) => Val::Num(*n as f64),
        };
        let paths = self.paths(root);
        Val::arr(
            paths
                .iter()
                .map(|path| Val::arr(path.iter().map(step).collect()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn containers_are_embedded_once_and_found_by_path() {
        let root = json!({"events": [{"payload": {"meta": {"a": 1}, "list": [1, {"b": 2}]}}]});
        let payload = root.pointer("/events/0/payload");
        let meta = root.pointer("/events/0/payload/meta");
        let inner = root.pointer("/events/0/payload/list/1");
        let mut e = Embedded::default();
        let [meta, inner, payload] = [meta, inner, payload].map(Option::unwrap);
        assert_eq!(e.index(meta), 0);
        assert_eq!(e.index(inner), 1);
        assert_eq!(e.index(meta), 0);
        assert_eq!(e.index(payload), 2);
        let out = e.paths_val(&root).to_json();
        assert_eq!(
            out,
            r#"[["events",0,"payload","meta"],["events",0,"payload","list",1],["events",0,"payload"]]"#
        );
    }

    #[test]
    fn the_root_itself_has_an_empty_path() {
        let root = json!([{"x": 1}]);
        let mut e = Embedded::default();
        e.index(&root);
        e.index(&root[0]);
        assert_eq!(e.paths_val(&root).to_json(), "[[],[0]]");
    }
}

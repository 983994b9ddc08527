//! `replayAppServerFacts`: every fact a host holds (session read, event notifications,
//! evidence export) as one ordered list of execution events, and the UI state they project to.

use std::borrow::Cow;

use serde_json::Value;

use crate::contract::tape::{Tape, TapeTooLong};
use crate::contract::val::Val;
use crate::projection::Projector;

use super::access::{get, member, to_js_string, truthy, Js};
use super::collation::locale_compare;
use super::export::project_evidence_export;
use super::js_sort::js_sort;
use super::notification::project_events;
use super::session::project_session_read;
use super::{Builder, Built, ExecutionEvents, FactsError, Stamp};

/// The diagnostic of a replay that found no event.
pub const EMPTY_DIAGNOSTIC: &str = "app_server_facts_empty";

/// A replay: the ordered events, the state projected from them and the diagnostics.
pub struct Replay<'a> {
    pub events: ExecutionEvents<'a>,
    /// The state with the objects made from one event left as `Val::Made`, as the wire sends
    /// it ([`Projector::state_compact`]); [`Self::state`] builds them.
    compact: Val,
    pub diagnostics: Vec<&'static str>,
    projector: Projector,
}

impl<'a> Replay<'a> {
    /// The projected state (`Val::Event(i)` in it is `events.events[i]`).
    pub fn state(&self) -> Val {
        self.projector.expand(&self.compact)
    }

    /// The replay as a tape of four values (`contract::tape`): the paths from `root` (the
    /// input) of the values the events embed, the events (`Val::Event(i)`: the i-th of those
    /// values), the state (`Val::Event(i)`: the i-th event; its long strings copied from event
    /// `i` are references to that event's field, the objects made from event `i` references to
    /// their template: the JS side makes them from the returned events), the diagnostics.
    pub fn write_tape(&self, root: Option<&'a Value>, tape: &mut Tape) -> Result<(), TapeTooLong> {
        let diagnostics = Val::arr(self.diagnostics.iter().map(|d| Val::lit(d)).collect());
        tape.clear();
        self.events.write_tape(root, tape)?;
        self.projector.write_tape_after(&self.compact, tape)?;
        tape.append_with(&diagnostics, &|_| None)
    }
}

/// `replayAppServerFacts(input)`: the session read's events (when `readModel` is given), the
/// notification events, the evidence export's events (when given), deduplicated by id and
/// ordered as the reference orders them, then projected with `input.sourceCount`.
///
/// Errors: the reference's `TypeError`s on malformed facts; an event the projection refuses
/// (a fact of the wrong type copied into a field the projection reads) is an error too.
pub fn replay_app_server_facts(input: Js<'_>) -> Result<Replay<'_>, FactsError> {
    let read_model = get(input, "readModel")?;
    let mut b = Builder::default();
    if truthy(read_model) {
        project_session_read(read_model, &mut b)?;
    }
    project_events(member(input, "events"), &mut b)?;
    let export = member(input, "evidenceExport");
    if truthy(export) {
        project_evidence_export(export, &mut b)?;
    }
    let built = in_reference_order(b.finish())?;
    let diagnostics = if built.is_empty() {
        vec![EMPTY_DIAGNOSTIC]
    } else {
        Vec::new()
    };
    let events = ExecutionEvents {
        events: built.into_iter().map(|b| b.event).collect(),
    };
    let json = events.to_json();
    let mut projector = Projector::counted(crate::projection::read_model::source_count_of(member(
        input,
        "sourceCount",
    )));
    // The built events project as the reference's batch projects them (odd values included);
    // where it would throw, so does the replay, naming the event.
    let compact = projector
        .project_list_compact(json)
        .map_err(|err| FactsError(format!("replayAppServerFacts: {}", err.message)))?;
    Ok(Replay {
        events,
        compact,
        diagnostics,
        projector,
    })
}

/// The reference's order: by sequence when both events have one, else by `createdAt`
/// (`localeCompare`), with V8's sort (the comparison is not a total order, so the algorithm
/// decides). Fails as the reference does when the left `createdAt` is not a string.
fn in_reference_order(built: Vec<Built<'_>>) -> Result<Vec<Built<'_>>, FactsError> {
    let mut order: Vec<usize> = (0..built.len()).collect();
    let mut less = |x: usize, y: usize| -> Result<bool, FactsError> {
        let (Some(l), Some(r)) = (built.get(x), built.get(y)) else {
            return Ok(false);
        };
        if let (Some(a), Some(b)) = (l.sequence, r.sequence) {
            return Ok(a - b < 0.0);
        }
        let Stamp::Text(left) = l.created else {
            return Err(FactsError(
                "left.createdAt.localeCompare is not a function".to_owned(),
            ));
        };
        let right = match r.created {
            Stamp::Text(s) => Cow::Borrowed(s),
            Stamp::Other(v) => Cow::Owned(to_js_string(Some(v))),
        };
        Ok(locale_compare(left, &right) < 0)
    };
    js_sort(&mut order, &mut less)?;
    let mut slots: Vec<Option<Built<'_>>> = built.into_iter().map(Some).collect();
    Ok(order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids(r: &Replay<'_>) -> Vec<Value> {
        r.events
            .to_json()
            .into_iter()
            .map(|e| e["id"].clone())
            .collect()
    }

    #[test]
    fn replay_orders_projects_and_reports_empty_input() {
        let input = json!({
            "readModel": {"session": {"sessionId": "s", "threadId": "t", "status": "running",
                                      "updatedAt": "2026-01-01T00:00:05Z"},
                          "turns": [{"turnId": "u", "status": "running"}]},
            "events": [
                {"eventId": "b", "sequence": 2, "type": "message.delta", "threadId": "t",
                 "timestamp": "2026-01-01T00:00:02Z", "payload": {"text": "two"}},
                {"eventId": "a", "sequence": 1, "type": "message.delta", "threadId": "t",
                 "timestamp": "2026-01-01T00:00:01Z", "payload": {"text": "one"}}
            ],
            "sourceCount": 9
        });
        let r = replay_app_server_facts(Some(&input)).unwrap();
        // V8 on 4 events: the run [snapshot, turn, b] (the snapshot has no sequence and the
        // turn its time: equal), then `a` inserted by binary search: after the turn (equal
        // sequence), before `b`. The snapshot stays first though it is the latest.
        assert_eq!(
            ids(&r),
            vec![
                json!("appserver:session:s:snapshot"),
                json!("appserver:turn:u:status:running"),
                json!("appserver:a"),
                json!("appserver:b"),
            ]
        );
        assert!(r.diagnostics.is_empty());
        let state = r.state();
        let hydration = state.get("hydration").unwrap();
        assert_eq!(hydration.get("eventCount").and_then(Val::as_f64), Some(4.0));
        let mut tape = Tape::default();
        r.write_tape(Some(&input), &mut tape).unwrap();
        let values = tape.read_all(&|_, _| Val::Undef).unwrap();
        let [refs, events, state, diagnostics] = values.as_slice() else {
            panic!("{} values", values.len());
        };
        assert_eq!(
            (refs.to_json(), diagnostics.to_json()),
            ("[]".into(), "[]".into())
        );
        let first = events
            .as_arr()
            .and_then(|e| e.first())
            .and_then(|e| e.get("id"));
        assert_eq!(
            first.and_then(Val::as_str),
            Some("appserver:session:s:snapshot")
        );
        let count = state.get("hydration").and_then(|h| h.get("eventCount"));
        assert_eq!(count.and_then(Val::as_f64), Some(4.0));

        let empty = json!({});
        let r = replay_app_server_facts(Some(&empty)).unwrap();
        assert_eq!(r.diagnostics, vec![EMPTY_DIAGNOSTIC]);
        assert!(r.events.events.is_empty());
    }

    #[test]
    fn odd_replays() {
        let err = |v: Value| replay_app_server_facts(Some(&v)).err().map(|e| e.0);
        assert_eq!(
            replay_app_server_facts(None).err().map(|e| e.0),
            Some("Cannot read properties of undefined (reading 'readModel')".into())
        );
        assert_eq!(
            err(json!({"readModel": "x"})),
            Some("Cannot read properties of undefined (reading 'sessionId')".into())
        );
        // A falsy readModel is skipped; a string input has no facts.
        assert!(err(json!({"readModel": 0})).is_none());
        assert!(err(json!("abc")).is_none());
        // Ordered without error (the right-hand time is compared as a string), and projected
        // as the reference projects it: the numeric `createdAt` goes into the state as it is.
        let odd = json!({"events": [
            {"eventId": "a", "type": "x", "timestamp": 5},
            {"eventId": "b", "type": "x"}
        ]});
        let replay = replay_app_server_facts(Some(&odd)).expect("projected");
        let state: Value = serde_json::from_str(&replay.state().to_json()).expect("JSON");
        assert_eq!(state["timeline"][1]["createdAt"], json!(5));
        assert_eq!(
            err(json!({"events": [
                {"eventId": "a", "type": "x"},
                {"eventId": "b", "type": "x", "timestamp": 5}
            ]})),
            Some("left.createdAt.localeCompare is not a function".into())
        );
    }
}

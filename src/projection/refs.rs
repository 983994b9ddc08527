//! `artifacts` and `evidence` (spec §3.9): one reference view per id, the first event wins.

use crate::contract::fxhash::HashSet;
use crate::contract::val::JsKey;

use super::normalization::{ev_val, preview, safe_path};
use super::patch::ListTracker;
use crate::contract::event::Ev;
use crate::contract::val::{Obj, Val};

/// The state's reference-view lists, each with the field that lists its ids: on an event (the
/// views it makes) and on the read model (the ids a `state.delta` pass re-syncs the list with).
/// The JS wrapper reads the same table (`refViews` in `view_rules::rules_json`).
pub const REF_VIEWS: [(&str, &str); 2] =
    [("artifacts", "artifactRefs"), ("evidence", "evidenceRefs")];

/// `refView(ev, id)`.
pub fn ref_view(ev: Ev<'_>, id: Val) -> Val {
    let raw = |keys: &[&str]| ev.raw_str(keys);
    let or_ev = |v: Option<&str>, k: &str| match v {
        Some(s) => Val::str(s),
        None => ev_val(ev, k),
    };
    let path = raw(&[
        "path",
        "relativePath",
        "packRelativeRoot",
        "artifactPath",
        "evidencePath",
    ]);
    let metadata = match ev.payload_get("metadata") {
        Some(m @ serde_json::Value::Object(_)) => Val::from_json(m),
        _ => Val::Undef,
    };
    Obj::new()
        .k("id", id)
        .k(
            "sourceEventId",
            or_ev(raw(&["sourceEventId", "eventId"]), "id"),
        )
        .k("title", or_ev(raw(&["title", "name"]), "title"))
        .k("status", ev.val("status"))
        .k("owner", ev.val("owner"))
        .k("path", Val::opt_str(safe_path(path)))
        .k(
            "contentRef",
            Val::opt_str(raw(&["contentRef", "uri", "url"])),
        )
        .k("mimeType", Val::opt_str(raw(&["mimeType", "mime"])))
        .k(
            "preview",
            preview(raw(&["preview", "summary", "text"]), 280)
                .map(Val::string)
                .unwrap_or_default(),
        )
        .k("metadata", metadata)
        .compact()
        .into_val()
}

/// One ref-view list (artifacts or evidence).
#[derive(Default)]
pub struct RefViews {
    seen: HashSet<JsKey>,
    pub items: Vec<Val>,
    pub tracker: ListTracker,
}

impl RefViews {
    /// Add views for the ids of `field` (`artifactRefs` or `evidenceRefs`, which
    /// [`super::read_model::ReadModelAcc::check`] found to be lists).
    #[inline(always)]
    pub fn apply(&mut self, ev: Ev<'_>, field: &'static str) {
        for id in ev.for_each(field).unwrap_or_default() {
            let id = Val::from_json(id);
            if self.seen.insert(id.key()) {
                self.items.push(ref_view(ev, id));
            }
        }
    }
}

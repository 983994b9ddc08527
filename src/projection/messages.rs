//! `messages` (spec §3.4): one part per message-like event, stream deltas merged by group,
//! and proposed-plan blocks of text parts materialized into plan parts. Only the part touched
//! by an event is rebuilt; a stream part's text grows in place, and the part is made again from
//! it only when the list is read (a delta costs its own length, not the message's).

use crate::contract::fxhash::HashMap;
use std::rc::Rc;

use serde_json::Value;

use super::normalization::{ev_val, or_nullish};
use super::patch::{list_ops_by_value, ListTracker, PatchOp, Seg};
use crate::contract::event::{slots_of, Ev, Js, Odd, OddOp};
use crate::contract::js::{includes, is_js_ascii_whitespace, is_js_whitespace, js_trim};
use crate::contract::reader::{HIGH, ONES};
use crate::contract::val::{Obj, Val};

fn detail_or_title(ev: Ev<'_>) -> Val {
    or_nullish(ev.val("detail"), || ev.val("title"))
}

fn plan_text(ev: Ev<'_>) -> Option<String> {
    match ev.payload_get("plan") {
        Some(Value::String(s)) if crate::contract::js::has_content(s) => Some(s.clone()),
        Some(Value::Array(items)) => {
            let lines: Vec<String> = items
                .iter()
                .map(|it| match it {
                    Value::String(s) => js_trim(s).to_string(),
                    Value::Object(o) => {
                        let step = crate::contract::event::trim_str_in(
                            o,
                            &["step", "title", "text", "content"],
                        );
                        let status = crate::contract::event::trim_str_in(o, &["status"]);
                        match (step, status) {
                            (Some(st), Some(s)) => format!("- [{s}] {st}"),
                            (Some(st), None) => format!("- {st}"),
                            _ => String::new(),
                        }
                    }
                    _ => String::new(),
                })
                .filter(|l| !l.is_empty())
                .collect();
            if lines.is_empty() {
                None
            } else {
                Some(lines.join("\n"))
            }
        }
        _ => None,
    }
}

fn message_id(ev: Ev<'_>) -> Val {
    match ev.payload_get("messageId") {
        Some(Value::String(s)) => Val::str(s),
        _ => ev.val("id"),
    }
}

/// A tool-preview, artifact-card or evidence-citation part: `text = detail ?? title`, the
/// failed/available state and one id key of its own (all keys [K]).
fn card_part(
    ev: Ev<'_>,
    ty: &'static str,
    (id_key, id_val): (&'static str, Val),
    refs: Val,
) -> Obj {
    let id = ev.val("id");
    let created = ev.val("createdAt");
    Obj::with_capacity(8)
        .k("type", Val::lit(ty))
        .k("partId", id.clone())
        .k("text", detail_or_title(ev))
        .k("state", avail_state(ev))
        .k(id_key, id_val)
        .k("sourceEventId", id)
        .k("createdAt", created)
        .k("refs", refs)
}

fn avail_state(ev: Ev<'_>) -> Val {
    Val::lit(if ev.status() == Some("failed") {
        "failed"
    } else {
        "available"
    })
}

/// `event.artifactRefs?.[0]` (and the same for `evidenceRefs`).
fn first_ref(ev: Ev<'_>, k: &str) -> Val {
    match ev.js(k) {
        Js::Arr(a) => a.first().map(Val::from_json).unwrap_or_default(),
        Js::Str(s) => match s.chars().next() {
            Some(c) => Val::string(c.to_string()),
            None => Val::Undef,
        },
        Js::Obj(o) => o.get("0").map(Val::from_json).unwrap_or_default(),
        _ => Val::Undef,
    }
}

/// Which part an event makes (§3.4.1), decided in the reference's order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PartKind {
    Plan,
    Text,
    Reasoning,
    ToolPreview,
    Artifact,
    Evidence,
    Diagnostic,
}

/// The kind of part of one event, if any. `Err` where the reference throws on the event (a
/// class that is not a string where it reads it as one).
fn part_kind(ev: Ev<'_>) -> Result<Option<PartKind>, Odd> {
    let cls = ev.cls();
    let kind = ev.kind().unwrap_or("");
    Ok(Some(if cls == "plan.delta" || cls == "plan.final" {
        PartKind::Plan
    } else if kind == "model" || cls == "model.delta" || cls == "model.completed" {
        PartKind::Text
    } else if ev.cls_op()?.starts_with("reasoning.") || kind == "note" {
        PartKind::Reasoning
    } else if cls == "tool.result" || cls == "tool.failed" {
        PartKind::ToolPreview
    } else if cls == "artifact.changed" || kind == "draft" {
        PartKind::Artifact
    } else if cls == "evidence.changed" || kind == "evidence" {
        PartKind::Evidence
    } else if cls == "runtime.error"
        || cls == "snapshot.updated"
        || ev.str("owner") == Some("diagnostics")
        || matches!(ev.status(), Some("failed" | "blocked"))
    {
        PartKind::Diagnostic
    } else {
        return Ok(None);
    }))
}

/// The members of a text, reasoning or plan part read from its event: its text and state, and
/// its source event's id and creation time. These are what merging a stream part into its
/// stream reads of it (`mergeStreamPart`'s `next`, whose refs are the event's).
struct StreamNext {
    text: Val,
    state: &'static str,
    id: Val,
    created: Val,
}

/// [`StreamNext`] of an event whose part is `kind` (text, reasoning or plan).
fn stream_next(ev: Ev<'_>, kind: PartKind) -> StreamNext {
    let completed = ev.status() == Some("completed");
    let raw_text = || {
        ev.raw_str(&["text", "delta", "message", "content"])
            .map(Val::str)
    };
    let (text, fin) = match kind {
        PartKind::Text => (
            raw_text().unwrap_or_else(|| detail_or_title(ev)),
            completed || ev.cls() == "model.completed",
        ),
        PartKind::Plan => (
            raw_text()
                .or_else(|| plan_text(ev).map(Val::string))
                .unwrap_or_else(|| detail_or_title(ev)),
            completed || ev.cls() == "plan.final",
        ),
        _ => (detail_or_title(ev), completed),
    };
    StreamNext {
        text,
        state: if fin { "final" } else { "streaming" },
        id: ev.val("id"),
        created: ev.val("createdAt"),
    }
}

/// The part of kind `kind` of one event (§3.4.1), with the event's refs (`eventRefs`).
fn part_of(ev: Ev<'_>, kind: PartKind, refs: &Val) -> Val {
    let refs = refs.clone();
    let o = match kind {
        PartKind::Text | PartKind::Reasoning | PartKind::Plan => {
            let StreamNext {
                text,
                state,
                id,
                created,
            } = stream_next(ev, kind);
            let o = match kind {
                PartKind::Reasoning => Obj::with_capacity(7)
                    .k("type", Val::lit("reasoning"))
                    .k("partId", id.clone()),
                _ => Obj::with_capacity(9)
                    .k(
                        "type",
                        Val::lit(if kind == PartKind::Plan {
                            "plan"
                        } else {
                            "text"
                        }),
                    )
                    .k("partId", id.clone())
                    .k("messageId", message_id(ev))
                    .k("role", Val::lit("assistant")),
            };
            o.k("text", text)
                .k("state", Val::lit(state))
                .k("sourceEventId", id)
                .k("createdAt", created)
                .k("refs", refs)
        }
        PartKind::ToolPreview => card_part(
            ev,
            "tool-preview",
            ("toolCallId", ev.val("toolCallId")),
            refs,
        ),
        PartKind::Artifact => {
            let aid = or_nullish(ev.val("artifactId"), || first_ref(ev, "artifactRefs"));
            card_part(ev, "artifact-card", ("artifactId", aid), refs)
        }
        PartKind::Evidence => {
            let eid = or_nullish(ev.val("evidenceId"), || first_ref(ev, "evidenceRefs"));
            card_part(ev, "evidence-citation", ("evidenceId", eid), refs)
        }
        PartKind::Diagnostic => {
            let id = ev.val("id");
            Obj::with_capacity(8)
                .k("type", Val::lit("diagnostic-ref"))
                .k("partId", id.clone())
                .k("text", detail_or_title(ev))
                .k("state", ev.val("status"))
                .k("diagnosticId", or_nullish(ev.val("traceId"), || id.clone()))
                .k("sourceEventId", id)
                .k("createdAt", ev.val("createdAt"))
                .k("refs", refs)
        }
    };
    o.into_val()
}

/// The ids a stream's scope key joins, in order, and their slots.
const SCOPE_KEY_FIELDS: [&str; 5] = ["runtimeId", "threadId", "runId", "turnId", "taskId"];
const SCOPE_KEY_SLOTS: [usize; 5] = slots_of(SCOPE_KEY_FIELDS);

/// Append the stream scope of an event: its truthy runtime, thread, run, turn and task ids and
/// its payload `messageId` (a string), each as JS `String()` prints it, joined by `:`
/// (`default` when it has none).
fn push_scope_key(ev: Ev<'_>, out: &mut String) {
    let message = match ev.payload_get("messageId") {
        Some(Value::String(m)) if !m.is_empty() => Some(m.as_str()),
        _ => None,
    };
    // `[...].filter(Boolean).join(":") || "default"`: a separator between every two values
    // kept, even one that prints empty (an empty array).
    let start = out.len();
    let mut kept = 0usize;
    for (k, slot) in SCOPE_KEY_FIELDS.into_iter().zip(SCOPE_KEY_SLOTS) {
        let v = ev.js_slot(slot, k);
        if !v.truthy() {
            continue;
        }
        if kept > 0 {
            out.push(':');
        }
        kept += 1;
        match v {
            Js::Str(s) => out.push_str(s),
            _ => out.push_str(&ev_val(ev, k).to_js_string()),
        }
    }
    if let Some(m) = message {
        if kept > 0 {
            out.push(':');
        }
        out.push_str(m);
    }
    if out.len() == start {
        out.push_str("default");
    }
}

/// The key of the text or reasoning stream an event continues (one string, built in place);
/// `kind`: the event's part.
fn group_key(ev: Ev<'_>, kind: PartKind) -> Option<String> {
    let cls = ev.cls();
    let prefix = if kind == PartKind::Text && (cls == "model.delta" || cls == "model.completed") {
        "stream:text:"
    } else if kind == PartKind::Reasoning && cls.starts_with("reasoning.") {
        "stream:reasoning:"
    } else {
        return None;
    };
    let mut key = String::with_capacity(128);
    key.push_str(prefix);
    push_scope_key(ev, &mut key);
    Some(key)
}

/// How many characters of `s` are not white space: ASCII text counted eight bytes at a time
/// (streamed message texts are counted on every delta, a completed message whole), any other
/// by character.
fn nonws_count(s: &str) -> usize {
    ascii_nonws_count(s.as_bytes())
        .unwrap_or_else(|| s.chars().filter(|c| !is_js_whitespace(*c)).count())
}

/// [`nonws_count`] of ASCII text, eight bytes at a time (None: `b` is not all ASCII).
fn ascii_nonws_count(b: &[u8]) -> Option<usize> {
    let mut words = b.chunks_exact(8);
    let mut ws = 0;
    for word in &mut words {
        let w = <[u8; 8]>::try_from(word).map_or(HIGH, u64::from_le_bytes);
        if w & HIGH != 0 {
            return None;
        }
        ws += ascii_ws_in_word(w);
    }
    for &c in words.remainder() {
        if !c.is_ascii() {
            return None;
        }
        ws += usize::from(is_js_ascii_whitespace(c));
    }
    Some(b.len() - ws)
}

/// How many of the eight bytes of `w` (each below 0x80) are the white space JS knows in
/// ASCII: tab to carriage return (9-13) and space. Adding `0x80 - k` to a byte below 0x80 sets
/// its high bit exactly when it is at least `k`, and carries into no other byte.
fn ascii_ws_in_word(w: u64) -> usize {
    let at_least_9 = w.wrapping_add(ONES * (0x80 - 9));
    let at_least_14 = w.wrapping_add(ONES * (0x80 - 14));
    let not_space = w ^ (ONES * u64::from(b' '));
    let nonzero = not_space.wrapping_add(ONES * 0x7f) | not_space;
    (((at_least_9 & !at_least_14) | !nonzero) & HIGH).count_ones() as usize
}

/// Whether the non-whitespace characters of `cur` begin those of `next`: the reference's
/// `compact(next).startsWith(compact(cur))` (white space removed from both), without building
/// either string (a completed message is read against the text its deltas built: both long).
fn nonws_starts_with(next: &str, cur: &str) -> bool {
    // ASCII characters decided here, without a call per character.
    let ws = |c: &char| match u8::try_from(*c) {
        Ok(b) if b.is_ascii() => is_js_ascii_whitespace(b),
        _ => is_js_whitespace(*c),
    };
    let mut next = next.chars().filter(|c| !ws(c));
    cur.chars()
        .filter(|c| !ws(c))
        .all(|c| next.next() == Some(c))
}

/// How `merge_text` merges two texts.
enum Merged {
    /// The current text, unchanged.
    Cur,
    /// The next text replaces it (this value).
    Next(Val),
    /// The next text `next` is appended (with a separating space when `spaced`); `next_nonws`:
    /// its non-whitespace count. Done by the caller ([`join_texts`]), which may grow the
    /// current text in place.
    Joined {
        next: Val,
        spaced: bool,
        next_nonws: usize,
    },
}

/// The text of a message part, as error messages name it.
const PART_TEXT: &str = "the text of its message part (payload text, detail or title)";
/// The text of the part a stream event continues.
const CUR_TEXT: &str = "the text of the message part it continues";

/// `mergeStreamText(cur, next)`, the join left to the caller (`Merged::Joined`);
/// `cur_nonws` is the non-whitespace char count of `cur`, and `grown`, when given, is the
/// text `cur` stands for (a string). Costs O(|next|), except when `next` is at least as long
/// (in non-whitespace chars) as `cur`. `Err` where the reference throws: a truthy `next` that
/// is not a string, or a truthy `cur` that is not a string and not a prefix of `next`.
fn merge_text(cur: &Val, grown: Option<&str>, next: &Val, cur_nonws: usize) -> Result<Merged, Odd> {
    let n = match next {
        Val::Undef => Val::str(""),
        v => v.clone(),
    };
    let cur_truthy = match grown {
        Some(g) => !g.is_empty(),
        None => cur.truthy(),
    };
    if !cur_truthy {
        return Ok(Merged::Next(n));
    }
    if !n.truthy() {
        return Ok(Merged::Cur);
    }
    let Some(ns) = n.as_str() else {
        return Err(Odd::new(PART_TEXT, n.type_name(), OddOp::StringMethod));
    };
    let Some(cs) = grown.or(cur.as_str()) else {
        // `next.startsWith(cur)` reads `cur` as `String(cur)`; past that the reference calls
        // `cur.replace`.
        if ns.starts_with(&*cur.to_js_string()) {
            return Ok(Merged::Next(n));
        }
        return Err(Odd::new(CUR_TEXT, cur.type_name(), OddOp::StringMethod));
    };
    if ns.starts_with(cs) {
        return Ok(Merged::Next(n));
    }
    let next_nonws = nonws_count(ns);
    if cur_nonws > 0 && next_nonws >= cur_nonws && nonws_starts_with(ns, cs) {
        return Ok(Merged::Next(n));
    }
    let end_ok = cs
        .chars()
        .last()
        .map(|ch| ch.is_ascii_alphanumeric() || ch == '`' || ch == ')')
        .unwrap_or(false);
    let start_ok = ns
        .chars()
        .next()
        .map(|ch| ch.is_ascii_alphanumeric() || ch == '`' || ch == '(')
        .unwrap_or(false);
    Ok(Merged::Joined {
        spaced: end_ok && start_ok,
        next_nonws,
        next: n,
    })
}

/// Append `next` to `text` as `Merged::Joined { spaced }` joins them.
fn join_texts(text: &mut String, spaced: bool, next: &str) {
    text.reserve(next.len() + 1);
    if spaced {
        text.push(' ');
    }
    text.push_str(next);
}

const PLAN_OPEN: &str = "<proposed_plan";

/// Does `cur + sep + next` contain `<proposed_plan` across the join (`cur` itself does not)?
fn plan_open_across(cur: &str, spaced: bool, next: &str) -> bool {
    let keep = PLAN_OPEN.len() - 1;
    let cb = cur.as_bytes();
    let nb = next.as_bytes();
    let mut w: Vec<u8> = Vec::with_capacity(2 * keep + 1);
    w.extend_from_slice(&cb[cb.len().saturating_sub(keep)..]);
    if spaced {
        w.push(b' ');
    }
    w.extend_from_slice(&nb[..nb.len().min(keep)]);
    w.windows(PLAN_OPEN.len())
        .any(|x| x == PLAN_OPEN.as_bytes())
}

/// A stream part merged with the next part of its stream: the part (its `text` member the
/// current one unless `text` is `Merged::Next`), how its text changes, and the merged text's
/// facts (non-whitespace count, contains `<proposed_plan`).
pub struct MergedPart {
    part: Val,
    text: Merged,
    nonws: usize,
    has_plan: bool,
}

/// `mergeStreamPart(cur, next)`, `next` given by the members it reads and the event's `refs`;
/// `grown`: the text of `cur` when it grew in place (its `text` member is then out of date);
/// `whole`: the next part itself, for a `cur` that is not an object (it then replaces it).
fn merge_part(
    cur: &Val,
    grown: Option<&str>,
    next: StreamNext,
    refs: &Val,
    whole: impl FnOnce() -> Val,
    (cur_nonws, cur_plan): (usize, bool),
) -> Result<MergedPart, Odd> {
    let Some(c) = cur.as_obj() else {
        let part = whole();
        let (nonws, has_plan) = text_facts(&part);
        return Ok(MergedPart {
            part,
            // The next part replaces the current one, text and all.
            text: Merged::Next(Val::Undef),
            nonws,
            has_plan,
        });
    };
    let g = |o: &Obj, k: &str| o.get(k).cloned().unwrap_or(Val::Undef);
    let mut o = c.clone();
    let cur_text = g(c, "text");
    let text = merge_text(&cur_text, grown, &next.text, cur_nonws)?;
    let (nonws, has_plan) = match &text {
        Merged::Cur => (cur_nonws, cur_plan),
        Merged::Next(t) => str_facts(t.as_str()),
        Merged::Joined {
            next,
            spaced,
            next_nonws,
        } => {
            let cs = grown.or(cur_text.as_str()).unwrap_or("");
            let ns = next.as_str().unwrap_or("");
            (
                cur_nonws + next_nonws,
                cur_plan || includes(ns, PLAN_OPEN) || plan_open_across(cs, *spaced, ns),
            )
        }
    };
    if let Merged::Next(t) = &text {
        o.set("text", t.clone());
    }
    // The next part's state is never nullish (`next.state ?? cur.state`).
    o.set("state", Val::lit(next.state));
    o.set("sourceEventId", next.id);
    o.set("createdAt", or_nullish(g(c, "createdAt"), || next.created));
    // `[...new Set([...cur.refs, ...next.refs])]`: when that is the current list (no repeat in
    // it, nothing new), the part keeps its own.
    let cur_refs = c.get("refs").and_then(Val::as_arr);
    let mut union: Vec<Val> = Vec::new();
    let mut seen = crate::contract::fxhash::HashSet::default();
    let mut add = |items: Option<&[Val]>| {
        for x in items.unwrap_or(&[]) {
            if seen.insert(x.key()) {
                union.push(x.clone());
            }
        }
        union.len()
    };
    let from_cur = add(cur_refs);
    let all = add(refs.as_arr());
    if cur_refs.map(<[Val]>::len) != Some(from_cur) || all != from_cur {
        o.set("refs", Val::arr(union));
    }
    Ok(MergedPart {
        part: o.into_val(),
        text,
        nonws,
        has_plan,
    })
}

/// Would the reference throw materializing this part (`part.text?.includes(...)` on a text
/// part whose text is a number, boolean or object; an array whose items include
/// `<proposed_plan` and whose text forms a plan block, which it then slices and trims as
/// arrays)?
fn text_throws(part: &Val) -> bool {
    if part.get("type").and_then(Val::as_str) != Some("text") {
        return false;
    }
    match part.get("text") {
        None | Some(Val::Undef | Val::Null | Val::Str(_)) => false,
        Some(Val::Arr(items)) => {
            items.iter().any(|x| x.as_str() == Some(PLAN_OPEN))
                && next_plan_block(&Val::Arr(items.clone()).to_js_string(), 0).is_some()
        }
        Some(_) => true,
    }
}

fn str_facts(s: Option<&str>) -> (usize, bool) {
    match s {
        Some(t) => (nonws_count(t), includes(t, PLAN_OPEN)),
        None => (0, false),
    }
}

/// Text facts of a part value.
fn text_facts(part: &Val) -> (usize, bool) {
    str_facts(part.get("text").and_then(Val::as_str))
}

/// Find the next `<proposed_plan\b[^>]*>(body)</proposed_plan>` match (ASCII case-insensitive)
/// at or after byte `from`: (start, end, body range).
fn next_plan_block(text: &str, from: usize) -> Option<(usize, usize, usize, usize)> {
    let b = text.as_bytes();
    let open = b"<proposed_plan";
    let close = b"</proposed_plan>";
    let find = |pat: &[u8], at: usize| -> Option<usize> {
        if pat.len() > b.len() {
            return None;
        }
        (at..=b.len() - pat.len()).find(|&i| b[i..i + pat.len()].eq_ignore_ascii_case(pat))
    };
    let mut at = from;
    loop {
        let s = find(open, at)?;
        let after = s + open.len();
        let word = b
            .get(after)
            .map(|c| c.is_ascii_alphanumeric() || *c == b'_')
            .unwrap_or(false);
        if word {
            at = s + 1;
            continue;
        }
        let gt = (after..b.len()).find(|&i| b[i] == b'>')?;
        let body_start = gt + 1;
        let Some(c) = find(close, body_start) else {
            at = s + 1;
            continue;
        };
        return Some((s, c + close.len(), body_start, c));
    }
}

/// Proposed-plan materialization of one part (§3.4.3).
pub fn materialize(part: &Val) -> Vec<Val> {
    materialize_known(part, true)
}

/// `materialize`, skipping the text scan when the text is known not to contain
/// `<proposed_plan` (`may_have_plan` false).
fn materialize_known(part: &Val, may_have_plan: bool) -> Vec<Val> {
    if !may_have_plan {
        return vec![part.clone()];
    }
    let Some(o) = part.as_obj() else {
        return vec![part.clone()];
    };
    let text = match (
        o.get("type").and_then(Val::as_str),
        o.get("text").and_then(Val::as_str),
    ) {
        (Some("text"), Some(t)) if includes(t, PLAN_OPEN) => t,
        _ => return vec![part.clone()],
    };
    let pid = o.get("partId").map_or_else(
        || "undefined".to_string(),
        |v| v.to_js_string().into_owned(),
    );
    let mut out = Vec::new();
    let mut cursor = 0;
    let mut plan = 0usize;
    let seg = |out: &mut Vec<Val>, s: &str, i: usize| {
        if !js_trim(s).is_empty() {
            let mut c = o.clone();
            c.set("partId", Val::string(format!("{pid}:text:{i}")));
            c.set("text", Val::str(s));
            out.push(c.into_val());
        }
    };
    let mut at = 0;
    while let Some((s, e, bs, be)) = next_plan_block(text, at) {
        seg(&mut out, text.get(cursor..s).unwrap_or_default(), plan);
        let body = js_trim(text.get(bs..be).unwrap_or_default());
        if !body.is_empty() {
            let mut c = o.clone();
            c.set("type", Val::lit("plan"));
            c.set("partId", Val::string(format!("{pid}:proposed-plan:{plan}")));
            c.set("text", Val::str(body));
            out.push(c.into_val());
            plan += 1;
        }
        cursor = e;
        at = if e > s { e } else { s + 1 };
    }
    if plan == 0 {
        return vec![part.clone()];
    }
    seg(&mut out, text.get(cursor..).unwrap_or_default(), plan);
    out
}

struct Stored {
    /// The part (its `text` member out of date while `stale`).
    part: Val,
    /// The text of a stream part its deltas were appended to, grown in place (a delta costs its
    /// own length, not the message's); made the part's `text` when the list is read
    /// ([`MessagesAcc::settle`], [`MessagesAcc::items`]).
    grown: Option<String>,
    /// `grown` changed since `part`'s text was made from it (the part and its item are out of
    /// date).
    stale: bool,
    /// `k` is in the accumulator's list of parts to settle: its item is out of date.
    listed: bool,
    nonws: usize,
    /// The part's text contains `<proposed_plan`.
    has_plan: bool,
    out_start: usize,
    out_len: usize,
}

/// What one event does to the message parts, computed before anything changes
/// ([`MessagesAcc::prepare`], then [`MessagesAcc::commit`]).
pub enum MessageChange {
    /// The event has no part.
    None,
    /// A new part (with its stream key when it starts a stream).
    New {
        part: Val,
        key: Option<String>,
        nonws: usize,
        has_plan: bool,
    },
    /// The part continues the stream part `k`.
    Merge { k: usize, merged: MergedPart },
}

/// The message-parts accumulator.
#[derive(Default)]
pub struct MessagesAcc {
    stored: Vec<Stored>,
    /// The stored part each stream continues, by stream key (`Rc<str>` keys: the map type other
    /// views use, one compiled map type fewer in the module).
    groups: HashMap<Rc<str>, usize>,
    /// Stream parts the reference could not materialize now (their text is a number, boolean
    /// or object), with the accepted event that last set it: reading the state throws until a
    /// later event of the stream replaces the text.
    unreadable: Vec<(usize, u32)>,
    /// The materialized output list (the items of listed parts out of date: [`Self::items`]).
    items: Vec<Val>,
    /// The parts whose items are out of date (`Stored::listed`), in no order; a part the list
    /// names again after its item was made current in between may appear twice.
    outdated: Vec<usize>,
    pub tracker: ListTracker,
    /// The receiver's copy of `items`, as of the last patch (shared values, not copies).
    sent: Vec<Val>,
}

impl MessagesAcc {
    /// What `ev` would change. `Err` where the reference throws on it whatever follows: its
    /// part, or its merge into the stream it continues, cannot be built, or it is a part
    /// outside any stream that can never be materialized.
    pub fn prepare(&self, ev: Ev<'_>, refs: &Val) -> Result<MessageChange, Odd> {
        let Some(kind) = part_kind(ev)? else {
            return Ok(MessageChange::None);
        };
        let key = group_key(ev, kind);
        if let Some(&k) = key.as_ref().and_then(|k| self.groups.get(k.as_str())) {
            if let Some(st) = self.stored.get(k) {
                // Only the members the merge reads are made, not the event's whole part.
                let merged = merge_part(
                    &st.part,
                    st.grown.as_deref(),
                    stream_next(ev, kind),
                    refs,
                    || part_of(ev, kind, refs),
                    (st.nonws, st.has_plan),
                )?;
                return Ok(MessageChange::Merge { k, merged });
            }
        }
        let part = part_of(ev, kind, refs);
        if key.is_none() && text_throws(&part) {
            let found = part.get("text").map_or("undefined", Val::type_name);
            return Err(Odd::new(PART_TEXT, found, OddOp::StringMethod));
        }
        let (nonws, has_plan) = text_facts(&part);
        Ok(MessageChange::New {
            part,
            key,
            nonws,
            has_plan,
        })
    }

    /// Apply what [`Self::prepare`] computed for the accepted event `ext`.
    pub fn commit(&mut self, change: MessageChange, ext: u32) {
        match change {
            MessageChange::None => {}
            MessageChange::Merge { k, merged } => {
                let throws = text_throws(&merged.part);
                let Some(st) = self.stored.get_mut(k) else {
                    return;
                };
                let MergedPart {
                    part,
                    text,
                    nonws,
                    has_plan,
                } = merged;
                st.nonws = nonws;
                st.has_plan = has_plan;
                match text {
                    Merged::Cur => {}
                    Merged::Next(_) => st.grown = None,
                    Merged::Joined { next, spaced, .. } => {
                        // The first join copies the current text (a string: only a string
                        // joins) into a buffer of room to grow; later ones append to it.
                        let grown = st.grown.get_or_insert_with(|| {
                            let cur = st.part.get("text").and_then(Val::as_str).unwrap_or("");
                            let mut buf = String::with_capacity(cur.len().saturating_mul(2));
                            buf.push_str(cur);
                            buf
                        });
                        join_texts(grown, spaced, next.as_str().unwrap_or(""));
                        st.stale = true;
                    }
                }
                st.part = part;
                self.unreadable.retain(|(i, _)| *i != k);
                if throws {
                    self.unreadable.push((k, ext));
                }
                // A part of one item (no plan in its text) is made again only when the list is
                // read; a part with a plan splits its text into items at once.
                let lazy = st.grown.is_some() && !st.has_plan && st.out_len == 1;
                match lazy {
                    true => {
                        if !std::mem::replace(&mut st.listed, true) {
                            self.outdated.push(k);
                        }
                        self.tracker.touch(st.out_start);
                    }
                    false => {
                        st.listed = false;
                        self.refresh(k);
                    }
                }
            }
            MessageChange::New {
                part,
                key,
                nonws,
                has_plan,
            } => {
                let k = self.stored.len();
                if let Some(key) = key {
                    if text_throws(&part) {
                        self.unreadable.push((k, ext));
                    }
                    self.groups.insert(Rc::from(key), k);
                }
                let out = materialize_known(&part, has_plan);
                let start = self.items.len();
                self.stored.push(Stored {
                    part,
                    grown: None,
                    stale: false,
                    listed: false,
                    nonws,
                    has_plan,
                    out_start: start,
                    out_len: out.len(),
                });
                self.items.extend(out);
            }
        }
    }

    /// A stream part the reference cannot materialize now, with the accepted event that set
    /// its text.
    pub fn unreadable(&self) -> Option<(u32, Odd)> {
        let &(k, ext) = self.unreadable.first()?;
        let found = self
            .stored
            .get(k)
            .and_then(|st| st.part.get("text"))
            .map_or("undefined", Val::type_name);
        Some((ext, Odd::new(PART_TEXT, found, OddOp::StringMethod)))
    }

    /// A stored part with its text made from what grew (as it is when it is not stale).
    fn settled_part(st: &Stored) -> Val {
        match (&st.grown, st.stale) {
            (Some(text), true) => {
                let mut part = st.part.clone();
                if let Val::Obj(o) = &mut part {
                    std::rc::Rc::make_mut(o).set("text", Val::str(text));
                }
                part
            }
            _ => st.part.clone(),
        }
    }

    /// Make part `k` and its items current.
    fn refresh(&mut self, k: usize) {
        let Some(st) = self.stored.get_mut(k) else {
            return;
        };
        if st.stale {
            st.part = Self::settled_part(st);
            st.stale = false;
        }
        self.rematerialize(k);
    }

    /// Make every listed part and its item current.
    fn settle(&mut self) {
        for k in std::mem::take(&mut self.outdated) {
            let Some(st) = self.stored.get_mut(k) else {
                continue;
            };
            if std::mem::take(&mut st.listed) {
                self.refresh(k);
            }
        }
    }

    /// The output list, as a value (the items of listed parts made current in the copy; a
    /// listed part has one item).
    pub fn items(&self) -> Val {
        let mut items = self.items.clone();
        for st in self.outdated.iter().filter_map(|&k| self.stored.get(k)) {
            if let (true, Some(slot)) = (st.listed, items.get_mut(st.out_start)) {
                *slot = Self::settled_part(st);
            }
        }
        Val::arr(items)
    }

    fn rematerialize(&mut self, k: usize) {
        let Some(st) = self.stored.get(k) else { return };
        let out = materialize_known(&st.part, st.has_plan);
        let (start, old_len) = (st.out_start, st.out_len);
        if out.len() == old_len {
            for (i, v) in out.into_iter().enumerate() {
                if let Some(slot) = self.items.get_mut(start + i) {
                    *slot = v;
                }
                self.tracker.touch(start + i);
            }
            return;
        }
        let new_len = out.len();
        let end = (start + old_len).min(self.items.len());
        self.items.splice(start..end, out);
        for s in self.stored.iter_mut().skip(k + 1) {
            s.out_start = s.out_start - old_len + new_len;
        }
        if let Some(s) = self.stored.get_mut(k) {
            s.out_len = new_len;
        }
        for i in start..self.items.len() {
            self.tracker.touch(i);
        }
    }
}

impl MessagesAcc {
    /// The receiver now has the whole list as it is.
    pub fn sync(&mut self) {
        self.settle();
        self.tracker.sync(self.items.len());
        self.sent.clone_from(&self.items);
    }

    /// The ops since the last patch for the list at `path`: new parts whole; a changed part as
    /// what changed when it keeps its keys (a streamed text grows by its delta: `Append`).
    pub fn patch_ops(&mut self, path: &[Seg], out: &mut Vec<PatchOp>) {
        self.settle();
        let change = self.tracker.take(self.items.len());
        list_ops_by_value(path, change, &mut self.sent, &self.items, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ASCII count is the character count of every white space JS knows in ASCII (tab, line
    /// feed, vertical tab, form feed, carriage return, space) and of none else.
    #[test]
    fn nonws_count_counts_characters_as_js_does() {
        let each = |s: &str| s.chars().filter(|c| !is_js_whitespace(*c)).count();
        let mut all_ascii = String::new();
        for b in 0u8..128 {
            all_ascii.push(char::from(b));
        }
        for s in [
            "",
            " \t\n\u{b}\u{c}\r",
            "a b\tc\nd\u{b}e\u{c}f\rg",
            all_ascii.as_str(),
            "x\u{a0}y\u{3000}z\u{feff}",
            "中文 文本\u{2028}",
        ] {
            assert_eq!(nonws_count(s), each(s), "{s:?}");
        }
        assert_eq!(nonws_count(&all_ascii), 128 - 6);
        // Every byte value at every place of a word and of the bytes after the last word.
        for len in 1..20 {
            for at in 0..len {
                for b in 0u8..128 {
                    let mut s = "a".repeat(len);
                    s.replace_range(at..at + 1, &char::from(b).to_string());
                    assert_eq!(nonws_count(&s), each(&s), "{s:?}");
                    s.push('\u{3000}');
                    assert_eq!(nonws_count(&s), each(&s), "{s:?}");
                }
            }
        }
    }

    /// `nonws_starts_with` answers as removing white space from both and comparing would, for
    /// every pair of strings of up to three characters from ASCII and non-ASCII letters and
    /// white space.
    #[test]
    fn nonws_starts_with_is_compact_then_starts_with() {
        let compact = |s: &str| -> String { s.chars().filter(|c| !is_js_whitespace(*c)).collect() };
        let alphabet = ["a", "b", " ", "\n", "\u{a0}", "中"];
        let mut strings = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..3 {
            let next: Vec<String> = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend(next.iter().cloned());
            last = next;
        }
        for next in &strings {
            for cur in &strings {
                assert_eq!(
                    nonws_starts_with(next, cur),
                    compact(next).starts_with(&compact(cur)),
                    "{next:?} {cur:?}"
                );
            }
        }
    }
}

//! `toolCalls` (spec §3.7) and `mcp` (§3.8): tool calls kept in a map by toolCallId, status and
//! family lists maintained incrementally; the MCP surface rebuilt from the (small) MCP call list
//! only when an MCP call changed.

use crate::contract::fxhash::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::mcp_patch::McpPatch;
use super::normalization::{
    defined_string, or_nullish, read_number_field, read_string_array_field, read_string_field,
    truncate_text, unique_strings, unique_trimmed,
};
use super::patch::{list_op, list_ops_by_value, ListTracker, PatchOp, Seg};
use super::read_model::surface;
use crate::contract::event::{obj_get, Ev, Odd, OddOp};
use crate::contract::js::{find_part, includes, js_lower, js_trim};
use crate::contract::json::{for_each_array_element, ListItem, OrNull, Skipped, ValueSeed};
use crate::contract::order::OrdSet;
use crate::contract::reader::Reader;
use crate::contract::record::EventRecord;
use crate::contract::val::{JsKey, Obj, Val};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

fn rec(v: Option<&Value>) -> Option<&Map<String, Value>> {
    v.and_then(Value::as_object)
}

/// The four payload records `pt` reads: payload, metadata, rawPayload, rawPayload.metadata.
type Records<'a> = [Option<&'a Map<String, Value>>; 4];

/// An event's [`Records`], located once for all the fields a tool change reads.
fn records<'a>(ev: Ev<'a>) -> Records<'a> {
    let p = ev.payload();
    let m = rec(p.and_then(|p| obj_get(p, "metadata")));
    let r = rec(p.and_then(|p| obj_get(p, "rawPayload")));
    let rm = rec(r.and_then(|r| obj_get(r, "metadata")));
    [p, m, r, rm]
}

fn pt<'a>(recs: &Records<'a>, keys: &[&str]) -> Option<&'a str> {
    recs.iter().find_map(|r| read_string_field(*r, keys))
}

fn pt_arrays<'a>(recs: &Records<'a>, keys: &[&str]) -> Vec<&'a str> {
    recs.iter()
        .flat_map(|r| read_string_array_field(*r, keys))
        .collect()
}

fn process_fact<'a>(recs: &Records<'a>, keys: &[&str]) -> Option<&'a str> {
    let [p, m, r, rm] = *recs;
    let mut recs = Vec::new();
    for base in [p, m, r, rm] {
        for k in ["toolProcessFacts", "tool_process_facts"] {
            if let Some(x) = rec(base.and_then(|b| obj_get(b, k))) {
                recs.push(x);
            }
        }
    }
    recs.into_iter()
        .find_map(|r| read_string_field(Some(r), keys))
}

pub use super::view_rules::{classify_mcp_operation_kind, parse_mcp_tool_name};
use super::{templates, view_rules};

/// `/(^|[._-])web[._-]?<word>($|[._-])/`.
fn web_word(n: &str, word: &str) -> bool {
    let b = n.as_bytes();
    let sep = |c: u8| c == b'.' || c == b'_' || c == b'-';
    let mut i = 0;
    while let Some(off) = n.get(i..).and_then(|s| find_part(s, "web")) {
        let s = i + off;
        if s == 0 || sep(b[s - 1]) {
            let j = s + 3;
            for skip in [false, true] {
                let k = if skip {
                    if j < b.len() && sep(b[j]) {
                        j + 1
                    } else {
                        continue;
                    }
                } else {
                    j
                };
                if n.get(k..).map(|r| r.starts_with(word)).unwrap_or(false) {
                    let e = k + word.len();
                    if e == b.len() || sep(b[e]) {
                        return true;
                    }
                }
            }
        }
        i = s + 1;
    }
    false
}

fn normalize_family(tool_name: &str, fam: Option<&str>, op: Option<&str>) -> String {
    if op == Some("web_search") {
        return "webSearch".into();
    }
    if op == Some("web_fetch") {
        return "webFetch".into();
    }
    if let Some(f) = fam {
        return f.into();
    }
    let n = js_lower(js_trim(tool_name));
    let has = |w: &[&str]| w.iter().any(|x| includes(&n, x));
    if n.starts_with("mcp__") {
        "mcp"
    } else if web_word(&n, "search") || n == "websearch" {
        "webSearch"
    } else if web_word(&n, "fetch") || n == "webfetch" {
        "webFetch"
    } else if has(&["bash", "shell", "exec"]) {
        "command"
    } else if has(&["browser", "navigate", "click"]) {
        "browser"
    } else if has(&["read", "write", "edit", "file"]) {
        "file"
    } else if has(&["skill"]) {
        "skill"
    } else {
        "tool"
    }
    .into()
}

/// Is this projection a tool projection (§3.7)? `surface` is the projection's. `Err` where the
/// reference throws (a class that is not a string, read when nothing before decides).
fn is_tool_projection(ev: Ev<'_>, surface: Option<&str>) -> Result<bool, Odd> {
    if surface == Some("tool") || matches!(ev.kind(), Some("tool" | "skill")) {
        return Ok(true);
    }
    ev.cls_op()?;
    Ok(view_rules::is_tool_projection(
        surface,
        ev.cls(),
        ev.kind(),
        ev.str("phase"),
    ))
}

/// Is this event's projection a tool projection (§3.7)?
pub fn is_tool_event(ev: Ev<'_>) -> Result<bool, Odd> {
    is_tool_projection(ev, Some(surface(ev)?))
}

/// What the tool surface reads from a read-model projection besides its `source` event: its
/// surface, title and detail (for the projection the read model builds from an event, the
/// event's own surface, title and detail).
pub struct ProjectionFacts<'a> {
    pub surface: Option<&'a str>,
    pub title: Val,
    pub detail: Val,
}

struct Call {
    id: Val,
    merged: bool,
    tool_name: Val,
    family: String,
    operation_kind: Val,
    mcp_server_id: Val,
    status: Val,
    phase: Val,
    title: Val,
    detail: Val,
    input_preview: Val,
    output_preview: Val,
    error_preview: Val,
    progress: Val,
    total: Val,
    started_at: Val,
    completed_at: Val,
    artifact_refs: Vec<String>,
    evidence_refs: Vec<String>,
    first_event_id: Val,
    /// The ids of the call's events once merged (strings, `Val::Arr`; grown in place).
    event_ids: Val,
    event_id_set: HashSet<String>,
    /// The views of the call's events (`Val::Arr`, grown in place: see [`push_val`]).
    events: Val,
    skill_slug: Val,
    mcp: Val,
    /// Which of [`CALL_KEYS`] the view of the call's first event held (see [`Call::val`]).
    first_keys: u32,
}

fn strs(v: &[String]) -> Val {
    Val::str_arr(v)
}

/// Append `x` to the list `list` (a `Val::Arr`; anything else becomes `[x]`): in place when no
/// other value holds the list, else on a copy of it.
fn push_val(list: &mut Val, x: Val) {
    match list {
        Val::Arr(a) => std::rc::Rc::make_mut(a).push(x),
        _ => *list = Val::arr(vec![x]),
    }
}

/// `parseAgentUiMcpToolName(toolName)` and the rest of `buildMcpToolView` read the name as a
/// string (a `TypeError` in the reference otherwise).
fn name_str(tool_name: &Val) -> Result<&str, Odd> {
    tool_name
        .as_str()
        .ok_or_else(|| Odd::new(TOOL_NAME, tool_name.type_name(), OddOp::StringMethod))
}

/// How error messages name a tool call's name.
const TOOL_NAME: &str = "its tool name (payload tool name, else title)";

impl Call {
    fn event_ids_val(&self) -> Val {
        if self.merged {
            self.event_ids.clone()
        } else {
            Val::arr(vec![self.first_event_id.clone()])
        }
    }

    /// `buildMcpToolView(call)`: `undefined` unless the family is `mcp`.
    fn mcp_view(&self) -> Result<Val, Odd> {
        if self.family != "mcp" {
            return Ok(Val::Undef);
        }
        let name = name_str(&self.tool_name)?;
        let parsed = parse_mcp_tool_name(name);
        let server = defined_string(self.mcp_server_id.as_str())
            .map(str::to_string)
            .or_else(|| parsed.as_ref().map(|p| p.0.clone()))
            .unwrap_or_else(|| "unknown".into());
        Ok(Obj::with_capacity(11)
            .k("id", self.id.clone())
            .k("serverId", Val::string(server))
            .k("fullName", self.tool_name.clone())
            .k(
                "toolName",
                match parsed {
                    Some(p) => Val::string(p.1),
                    None => self.tool_name.clone(),
                },
            )
            .k(
                "operationKind",
                Val::lit(classify_mcp_operation_kind(name).unwrap_or("tool")),
            )
            .k("status", self.status.clone())
            .k("title", self.title.clone())
            .k("detail", self.detail.clone())
            .k("eventIds", self.event_ids_val())
            .k("artifactRefs", strs(&self.artifact_refs))
            .k("evidenceRefs", strs(&self.evidence_refs))
            .compact()
            .into_val())
    }

    /// The value of [`CALL_KEYS`]`[i]`.
    fn field(&self, i: usize) -> Val {
        match i {
            0 | 1 => self.id.clone(),
            2 | 3 => self.tool_name.clone(),
            4 => Val::str(&self.family),
            5 => self.operation_kind.clone(),
            6 => self.mcp_server_id.clone(),
            7 => self.status.clone(),
            8 => self.phase.clone(),
            9 => self.title.clone(),
            10 => self.detail.clone(),
            11 => self.input_preview.clone(),
            12 => self.output_preview.clone(),
            13 => self.error_preview.clone(),
            14 => self.progress.clone(),
            15 => self.total.clone(),
            16 => self.started_at.clone(),
            17 => self.completed_at.clone(),
            18 => strs(&self.artifact_refs),
            19 => strs(&self.evidence_refs),
            20 => self.event_ids_val(),
            21 => self.events.clone(),
            22 => self.skill_slug.clone(),
            23 => self.mcp.clone(),
            _ => Val::Undef,
        }
    }

    /// The call's view, and (for a call of one event) which of [`CALL_KEYS`] it holds (bit `i`
    /// for key `i`). The first event's view holds the keys whose value is defined; a later event
    /// assigns every key (`undefined` included), so the keys the first view lacked follow the
    /// others, in the order they are assigned (the literal's), as in the reference's object.
    fn val(&self) -> (Val, u32) {
        let mut o = Obj::with_capacity(CALL_KEYS.len());
        let mut held = 0u32;
        if !self.merged {
            for (i, k) in CALL_KEYS.iter().enumerate() {
                let v = self.field(i);
                if !v.is_undef() {
                    held |= 1 << i;
                    o = o.k(k, v);
                }
            }
            return (o.into_val(), held);
        }
        for first in [true, false] {
            for (i, k) in CALL_KEYS.iter().enumerate() {
                if (self.first_keys & (1 << i) != 0) == first {
                    o = o.k(k, self.field(i));
                }
            }
        }
        (o.into_val(), self.first_keys)
    }
}

/// The keys of a tool call view, in the order of the reference's object literal, with `mcp`
/// (added to the literal's compacted copy when defined) last.
const CALL_KEYS: [&str; 24] = [
    "id",
    "toolCallId",
    "toolName",
    "displayName",
    "family",
    "operationKind",
    "mcpServerId",
    "status",
    "phase",
    "title",
    "detail",
    "inputPreview",
    "outputPreview",
    "errorPreview",
    "progress",
    "total",
    "startedAt",
    "completedAt",
    "artifactRefs",
    "evidenceRefs",
    "eventIds",
    "events",
    "skillSlug",
    "mcp",
];

fn status_class(s: &Val) -> u8 {
    match s.as_str() {
        Some("running" | "pending") => 1,
        Some("failed" | "blocked") => 2,
        Some("completed") => 3,
        _ => 0,
    }
}

/// An id list kept in call order.
#[derive(Default)]
struct IdList {
    members: Vec<usize>,
    items: Vec<Val>,
    tracker: ListTracker,
}

impl IdList {
    fn insert(&mut self, call: usize, id: &Val) {
        let p = self.members.partition_point(|&m| m < call);
        if self.members.get(p) == Some(&call) {
            return;
        }
        self.members.insert(p, call);
        self.items.insert(p, id.clone());
        for i in p..self.items.len() {
            self.tracker.touch(i);
        }
    }

    fn remove(&mut self, call: usize) {
        let p = self.members.partition_point(|&m| m < call);
        if self.members.get(p) != Some(&call) {
            return;
        }
        self.members.remove(p);
        self.items.remove(p);
        for i in p..self.items.len() {
            self.tracker.touch(i);
        }
    }
}

/// The tool-surface accumulator (`toolCalls` and `mcp`).
#[derive(Default)]
pub struct ToolSurfaceAcc {
    calls: Vec<Call>,
    index: HashMap<JsKey, usize>,
    pub items: Vec<Val>,
    pub tracker: ListTracker,
    /// The receiver's copy of `items`, as of the last patch (shared values, not copies).
    sent: Vec<Val>,
    lists: [IdList; 3],
    families: Vec<(String, OrdSet<usize>)>,
    family_dirty: bool,
    mcp_calls: OrdSet<usize>,
    mcp: Option<Val>,
    mcp_patch: McpPatch,
    any_event: bool,
}

/// What one tool projection brings to its call, read before anything changes
/// ([`ToolSurfaceAcc::prepare`], then [`ToolSurfaceAcc::commit`]).
pub struct ToolChange {
    /// The call it continues, or `None` for a new call.
    pos: Option<usize>,
    key: JsKey,
    id: Val,
    tool_name: Val,
    family: String,
    /// The operation kind a new call gets, or an existing one without it.
    operation_kind: Val,
    mcp_server: Val,
    status: Val,
    phase: Val,
    title: Val,
    detail: Val,
    input_preview: Val,
    output_preview: Val,
    error_preview: Val,
    progress: Val,
    total: Val,
    created: Val,
    completed: Val,
    artifact_refs: Vec<String>,
    evidence_refs: Vec<String>,
    event_id: Val,
    event_view: Val,
    skill_slug: Val,
    /// The call's MCP view after the change (`Undef`: none from this change).
    mcp: Val,
}

/// `uniqueStrings` over `[...(ev[field] ?? []), ...payload arrays, payload single]`.
fn tool_refs(
    ev: Ev<'_>,
    recs: &Records<'_>,
    field: &'static str,
    arrays: &[&str],
    one: &[&str],
) -> Result<Vec<String>, Odd> {
    let mut items: Vec<Val> = Vec::new();
    ev.spread(field, &mut items)?;
    let arr_u = unique_strings(pt_arrays(recs, arrays).into_iter().map(Some));
    items.extend(arr_u.iter().map(|s| Val::str(s)));
    items.extend(pt(recs, one).map(Val::str));
    Ok(unique_trimmed(items.iter(), field)?
        .into_iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect())
}

impl ToolSurfaceAcc {
    /// Feed one accepted event; `i` is its index among accepted events.
    pub fn apply(&mut self, ev: Ev<'_>, i: usize) -> Result<(), Odd> {
        self.apply_projection(ev, i, None)
    }

    /// Feed the `i`-th read-model projection: its `source` event `ev` and, when they are not the
    /// event's own, the projection's surface, title and detail.
    pub fn apply_projection(
        &mut self,
        ev: Ev<'_>,
        i: usize,
        facts: Option<ProjectionFacts<'_>>,
    ) -> Result<(), Odd> {
        let (surface, title, detail) = match facts {
            Some(f) => (f.surface, f.title, f.detail),
            None => (Some(surface(ev)?), ev.val("title"), ev.val("detail")),
        };
        let ext = u32::try_from(i).unwrap_or(u32::MAX);
        let change = self.prepare(ev, i, ext, surface, title, detail)?;
        self.commit(change);
        Ok(())
    }

    /// What the `i`-th projection (of event `ev`, on `surface`, with `title` and `detail`)
    /// changes, if it is a tool projection; `ext` is the event's index for the views made from
    /// it. `Err` where the reference throws on it.
    pub fn prepare(
        &self,
        ev: Ev<'_>,
        i: usize,
        ext: u32,
        surface: Option<&str>,
        title: Val,
        detail_ev: Val,
    ) -> Result<Option<ToolChange>, Odd> {
        if !is_tool_projection(ev, surface)? {
            return Ok(None);
        }
        let recs = records(ev);
        let tool_name: Val = match pt(
            &recs,
            &[
                "toolName",
                "tool_name",
                "name",
                "tool",
                "functionName",
                "function_name",
            ],
        ) {
            Some(s) => Val::str(s),
            None => or_nullish(ev.val("title"), || Val::lit("unknown-tool")),
        };
        let id: Val = or_nullish(ev.val("toolCallId"), || {
            match pt(
                &recs,
                &["toolCallId", "tool_call_id", "callId", "call_id", "id"],
            ) {
                Some(s) => Val::str(s),
                None => {
                    let scope = or_nullish(ev.val("turnId"), || {
                        or_nullish(ev.val("runId"), || Val::lit("turn"))
                    });
                    Val::string(format!(
                        "{}:{}:{i}",
                        tool_name.to_js_string(),
                        scope.to_js_string()
                    ))
                }
            }
        });
        let key = id.key();
        let pos = self.index.get(&key).copied();
        let fam_x = pt(&recs, &["toolFamily", "tool_family"])
            .or_else(|| process_fact(&recs, &["toolFamily", "tool_family"]));
        let op_x = pt(&recs, &["operationKind", "operation_kind"])
            .or_else(|| process_fact(&recs, &["operationKind", "operation_kind"]));
        let family = match (op_x, fam_x) {
            (Some("web_search"), _) => "webSearch".to_string(),
            (Some("web_fetch"), _) => "webFetch".to_string(),
            (_, Some(f)) => f.to_string(),
            _ => normalize_family(name_str(&tool_name)?, None, None),
        };
        let mcp_server = Val::opt_str(pt(
            &recs,
            &["mcpServer", "mcp_server", "serverId", "server_id"],
        ));
        let artifact_refs = tool_refs(
            ev,
            &recs,
            "artifactRefs",
            &["artifactRefs", "artifact_refs"],
            &["artifactRef", "artifact_ref", "artifactId", "artifact_id"],
        )?;
        let evidence_refs = tool_refs(
            ev,
            &recs,
            "evidenceRefs",
            &["evidenceRefs", "evidence_refs"],
            &["evidenceRef", "evidence_ref", "evidenceId", "evidence_id"],
        )?;
        let tv = |s: Option<String>| s.map(Val::string).unwrap_or_default();
        let input_preview = tv(truncate_text(
            pt(
                &recs,
                &[
                    "input",
                    "arguments",
                    "args",
                    "inputSummary",
                    "input_summary",
                    "accumulatedInputPreview",
                    "accumulated_input_preview",
                ],
            ),
            240,
        ));
        let out_src = match pt(
            &recs,
            &[
                "output",
                "result",
                "summary",
                "message",
                "outputPreview",
                "output_preview",
                "deltaPreview",
                "delta_preview",
            ],
        ) {
            Some(s) => Some(s),
            None => ev.str_op("detail")?,
        };
        let output_preview = tv(truncate_text(out_src, 240));
        let error_preview = tv(truncate_text(
            pt(
                &recs,
                &[
                    "error",
                    "errorPreview",
                    "error_preview",
                    "failureCategory",
                    "failure_category",
                ],
            ),
            240,
        ));
        let num = |k: &str| {
            read_number_field(ev.payload(), &[k])
                .map(Val::Num)
                .unwrap_or_default()
        };
        let classify = || -> Result<Val, Odd> {
            Ok(match op_x {
                Some(s) => Val::str(s),
                None if family == "mcp" => {
                    Val::opt_str(classify_mcp_operation_kind(name_str(&tool_name)?))
                }
                None => Val::Undef,
            })
        };
        let existing = pos.and_then(|p| self.calls.get(p));
        let operation_kind = match existing {
            Some(c) if !c.operation_kind.is_nullish() => Val::Undef,
            _ => classify()?,
        };
        let event_id = ev.val("id");
        let mut change = ToolChange {
            pos,
            key,
            id,
            tool_name,
            family,
            operation_kind,
            mcp_server,
            status: ev.val("status"),
            phase: ev.val("phase"),
            title,
            detail: detail_ev,
            input_preview,
            output_preview,
            error_preview,
            progress: num("progress"),
            total: num("total"),
            created: ev.val("createdAt"),
            completed: ev.val("completedAt"),
            artifact_refs,
            evidence_refs,
            event_id,
            event_view: templates::made(templates::TOOL_CALL_EVENT_VIEW, ext, [0, 0, 0]),
            skill_slug: Val::opt_str(pt(&recs, &["skillSlug", "skill_slug", "slug"])),
            mcp: Val::Undef,
        };
        match existing {
            None => {
                // The view of the new call: its name must be a string when it is an MCP call,
                // and its one event id a string (or nullish) for the MCP surface to read it.
                if change.family == "mcp" {
                    name_str(&change.tool_name)?;
                    unique_trimmed([&change.event_id], "id")?;
                }
            }
            Some(c) => {
                // `uniqueStrings([...eventIds, id])` trims the call's first id and this one.
                if !c.merged {
                    unique_trimmed([&c.first_event_id], "id")?;
                }
                unique_trimmed([&change.event_id], "id")?;
                let family = if change.family.is_empty() {
                    &c.family
                } else {
                    &change.family
                };
                if family == "mcp" {
                    let name = if change.tool_name.truthy() {
                        &change.tool_name
                    } else {
                        &c.tool_name
                    };
                    name_str(name)?;
                }
            }
        }
        change.mcp = Val::Undef;
        Ok(Some(change))
    }

    /// Apply what [`Self::prepare`] computed (nothing for `None`).
    pub fn commit(&mut self, change: Option<ToolChange>) {
        self.any_event = true;
        let Some(ch) = change else { return };
        let (pos, old_family, old_status, had_mcp) = match ch.pos {
            None => {
                let detail =
                    or_nullish(or_nullish(ch.detail, || ch.output_preview.clone()), || {
                        ch.error_preview.clone()
                    });
                let mut call = Call {
                    id: ch.id,
                    merged: false,
                    tool_name: ch.tool_name,
                    family: ch.family,
                    operation_kind: ch.operation_kind,
                    mcp_server_id: ch.mcp_server,
                    status: ch.status,
                    phase: ch.phase,
                    title: ch.title,
                    detail,
                    input_preview: ch.input_preview,
                    output_preview: ch.output_preview,
                    error_preview: ch.error_preview,
                    progress: ch.progress,
                    total: ch.total,
                    started_at: ch.created,
                    completed_at: ch.completed,
                    artifact_refs: ch.artifact_refs,
                    evidence_refs: ch.evidence_refs,
                    first_event_id: ch.event_id,
                    event_ids: Val::arr(Vec::new()),
                    event_id_set: HashSet::default(),
                    events: Val::arr(vec![ch.event_view]),
                    skill_slug: ch.skill_slug,
                    mcp: Val::Undef,
                    first_keys: 0,
                };
                call.mcp = call.mcp_view().unwrap_or_default();
                let pos = self.calls.len();
                self.index.insert(ch.key, pos);
                self.calls.push(call);
                self.items.push(Val::Undef);
                (pos, None, None, false)
            }
            Some(pos) => {
                // The call's last view shares its event lists; let go of it first, so that they
                // grow in place (per event work stays that of the event, however long the call).
                if let Some(slot) = self.items.get_mut(pos) {
                    *slot = Val::Undef;
                }
                let Some(c) = self.calls.get_mut(pos) else {
                    return;
                };
                let old_family = c.family.clone();
                let old_status = c.status.clone();
                let had_mcp = !c.mcp.is_undef();
                if ch.tool_name.truthy() {
                    c.tool_name = ch.tool_name;
                }
                if !ch.family.is_empty() {
                    c.family = ch.family;
                }
                if c.operation_kind.is_nullish() {
                    c.operation_kind = ch.operation_kind;
                }
                c.mcp_server_id = or_nullish(ch.mcp_server, || c.mcp_server_id.clone());
                c.status = ch.status;
                c.phase = or_nullish(ch.phase, || c.phase.clone());
                if ch.title.truthy() {
                    c.title = ch.title;
                }
                c.detail = or_nullish(
                    or_nullish(or_nullish(ch.detail, || ch.output_preview.clone()), || {
                        ch.error_preview.clone()
                    }),
                    || c.detail.clone(),
                );
                c.input_preview = or_nullish(ch.input_preview, || c.input_preview.clone());
                c.output_preview = or_nullish(ch.output_preview, || c.output_preview.clone());
                c.error_preview = or_nullish(ch.error_preview, || c.error_preview.clone());
                c.progress = or_nullish(ch.progress, || c.progress.clone());
                c.total = or_nullish(ch.total, || c.total.clone());
                c.started_at = or_nullish(c.started_at.clone(), || ch.created);
                c.completed_at = or_nullish(ch.completed, || c.completed_at.clone());
                let merge = |old: &[String], new: &[String]| {
                    unique_strings(old.iter().chain(new.iter()).map(|s| Some(s.as_str())))
                };
                c.artifact_refs = merge(&c.artifact_refs, &ch.artifact_refs);
                c.evidence_refs = merge(&c.evidence_refs, &ch.evidence_refs);
                if !c.merged {
                    c.merged = true;
                    let first = c.first_event_id.as_str().map(str::to_string);
                    for s in unique_strings([first.as_deref()]) {
                        push_val(&mut c.event_ids, Val::str(&s));
                        c.event_id_set.insert(s);
                    }
                }
                if let Some(e) = ch.event_id.as_str() {
                    let t = js_trim(e);
                    if !t.is_empty() && c.event_id_set.insert(t.to_string()) {
                        push_val(&mut c.event_ids, Val::str(t));
                    }
                }
                push_val(&mut c.events, ch.event_view);
                c.skill_slug = or_nullish(ch.skill_slug, || c.skill_slug.clone());
                let m = c.mcp_view().unwrap_or_default();
                if !m.is_undef() {
                    c.mcp = m;
                }
                (pos, Some(old_family), Some(old_status), had_mcp)
            }
        };
        let Some(c) = self.calls.get_mut(pos) else {
            return;
        };
        let (v, held) = c.val();
        c.first_keys = held;
        let c = &*c;
        if let Some(slot) = self.items.get_mut(pos) {
            *slot = v;
        }
        self.tracker.touch(pos);
        // Status lists.
        let old_cls = old_status.as_ref().map(status_class).unwrap_or(0);
        let new_cls = status_class(&c.status);
        if old_status.is_none() || old_cls != new_cls {
            if old_cls > 0 {
                if let Some(l) = self.lists.get_mut(usize::from(old_cls - 1)) {
                    l.remove(pos);
                }
            }
            if new_cls > 0 {
                let id = c.id.clone();
                if let Some(l) = self.lists.get_mut(usize::from(new_cls - 1)) {
                    l.insert(pos, &id);
                }
            }
        }
        // Families.
        let new_family = c.family.clone();
        if old_family.as_deref() != Some(new_family.as_str()) {
            if let Some(of) = old_family {
                if let Some(e) = self.families.iter_mut().find(|(f, _)| *f == of) {
                    e.1.delete(pos);
                }
            }
            match self.families.iter_mut().find(|(f, _)| *f == new_family) {
                Some(e) => {
                    e.1.add(pos);
                }
                None => {
                    let mut set = OrdSet::new();
                    set.add(pos);
                    self.families.push((new_family, set));
                }
            }
            self.families.retain(|(_, s)| !s.is_empty());
            self.family_dirty = true;
        }
        let has_mcp = !c.mcp.is_undef();
        if has_mcp || had_mcp {
            self.mcp_calls.add(pos);
            self.mcp = None;
            self.mcp_patch.update(pos, &c.mcp);
        }
    }

    fn by_family(&self) -> Val {
        let mut fams: Vec<(&String, &OrdSet<usize>)> =
            self.families.iter().map(|(f, s)| (f, s)).collect();
        crate::contract::order::stable_sort_by_key(&mut fams, |(_, s)| {
            s.first_key().map_or(u64::MAX, |i| i as u64)
        });
        let mut o = Obj::new();
        for (f, s) in fams {
            o.set_dyn(f, Val::Num(s.len() as f64));
        }
        o.into_val()
    }

    /// The `toolCalls` model.
    pub fn model(&self) -> Val {
        Obj::new()
            .k("calls", Val::arr(self.items.clone()))
            .k("activeCallIds", Val::arr(self.lists[0].items.clone()))
            .k("failedCallIds", Val::arr(self.lists[1].items.clone()))
            .k("completedCallIds", Val::arr(self.lists[2].items.clone()))
            .k("byFamily", self.by_family())
            .into_val()
    }

    fn build_mcp(&self) -> Val {
        mcp_surface(
            self.mcp_calls
                .keys()
                .filter_map(|i| self.calls.get(i))
                .map(|c| c.mcp.clone())
                .filter(|m| m.truthy())
                .collect(),
        )
    }
    /// The `mcp` model without touching the cache.
    pub fn mcp_model_ref(&self) -> Val {
        match &self.mcp {
            Some(m) => m.clone(),
            None => self.build_mcp(),
        }
    }

    /// The `mcp` model (cached until an MCP call changes).
    pub fn mcp_model(&mut self) -> Val {
        if let Some(m) = &self.mcp {
            return m.clone();
        }
        let m = self.build_mcp();
        self.mcp = Some(m.clone());
        m
    }

    /// Patch ops for `toolCalls` and `mcp`.
    pub fn patch_ops(&mut self, out: &mut Vec<PatchOp>) {
        // A changed call as what changed in it (its event lists grow by an event).
        let ch = self.tracker.take(self.items.len());
        let calls = [Seg::Key("toolCalls"), Seg::Key("calls")];
        list_ops_by_value(&calls, ch, &mut self.sent, &self.items, out);
        for (k, l) in ["activeCallIds", "failedCallIds", "completedCallIds"]
            .into_iter()
            .zip(self.lists.iter_mut())
        {
            let ch = l.tracker.take(l.items.len());
            out.extend(list_op(
                &[Seg::Key("toolCalls")],
                &[Seg::Key(k)],
                ch,
                &l.items,
            ));
        }
        if self.family_dirty {
            out.push(PatchOp::Replace {
                path: vec![Seg::Key("toolCalls"), Seg::Key("byFamily")],
                value: self.by_family(),
            });
            self.family_dirty = false;
        }
        if self.mcp_patch.changed() {
            let mut patch = std::mem::take(&mut self.mcp_patch);
            patch.patch_ops(|| self.mcp_model(), out);
            self.mcp_patch = patch;
        }
    }

    pub fn sync(&mut self) {
        self.tracker.sync(self.items.len());
        self.sent.clone_from(&self.items);
        for l in self.lists.iter_mut() {
            l.tracker.sync(l.items.len());
        }
        self.family_dirty = false;
        self.mcp_patch.sync();
    }
}

/// The empty `toolCalls` model.
pub fn empty_tool_calls() -> Val {
    ToolSurfaceAcc::default().model()
}

/// The empty `mcp` model.
pub fn empty_mcp() -> Val {
    Obj::new()
        .k("hasMcp", Val::Bool(false))
        .k("servers", Val::arr(vec![]))
        .k("tools", Val::arr(vec![]))
        .k("activeToolIds", Val::arr(vec![]))
        .k("failedToolIds", Val::arr(vec![]))
        .k("completedToolIds", Val::arr(vec![]))
        .into_val()
}

/// `projectAgentUiMcpSurface` over the MCP views of the tool calls, in call order (§3.8).
fn mcp_surface(tools: Vec<Val>) -> Val {
    let ids = |pred: &dyn Fn(&str) -> bool| {
        Val::arr(
            tools
                .iter()
                .filter(|t| {
                    t.get("status")
                        .and_then(Val::as_str)
                        .map(pred)
                        .unwrap_or(false)
                })
                .map(|t| t.get("id").cloned().unwrap_or_default())
                .collect(),
        )
    };
    if tools.is_empty() {
        return empty_mcp();
    }
    // One aggregate per server, in first-appearance order; the status fold of the
    // reference, kept in plain fields and turned into an object once per server.
    struct Server<'a> {
        id: &'a str,
        status: Option<Val>,
        tools: f64,
        active: f64,
        failed: f64,
        event_ids: Vec<&'a str>,
    }
    let mut servers: Vec<Server<'_>> = Vec::new();
    let mut seen_ids: HashSet<(usize, &str)> = HashSet::default();
    for t in &tools {
        let sid = t.get("serverId").and_then(Val::as_str).unwrap_or("");
        let st = t.get("status").cloned().unwrap_or_default();
        let s = st.as_str().unwrap_or("");
        let pos = match servers.iter().position(|e| e.id == sid) {
            Some(p) => p,
            None => {
                servers.push(Server {
                    id: sid,
                    status: None,
                    tools: 0.0,
                    active: 0.0,
                    failed: 0.0,
                    event_ids: Vec::new(),
                });
                servers.len() - 1
            }
        };
        let Some(e) = servers.get_mut(pos) else {
            continue;
        };
        let running = matches!(s, "running" | "pending");
        let failing = matches!(s, "failed" | "blocked");
        let cur_s = e.status.as_ref().and_then(Val::as_str);
        let next = if failing {
            st
        } else if matches!(cur_s, Some("failed" | "blocked")) {
            e.status.take().unwrap_or_default()
        } else if running || e.status.is_none() {
            st
        } else {
            or_nullish(e.status.take().unwrap_or_default(), || st)
        };
        e.status = Some(next);
        e.tools += 1.0;
        if running {
            e.active += 1.0;
        }
        if failing {
            e.failed += 1.0;
        }
        for x in t.get("eventIds").and_then(Val::as_arr).unwrap_or(&[]) {
            if let Some(x) = x.as_str() {
                let x = js_trim(x);
                if !x.is_empty() && seen_ids.insert((pos, x)) {
                    e.event_ids.push(x);
                }
            }
        }
    }
    let servers: Vec<Val> = servers
        .into_iter()
        .map(|e| {
            Obj::with_capacity(7)
                .k("id", Val::str(e.id))
                .k("label", Val::str(e.id))
                .k("status", e.status.unwrap_or_default())
                .k("toolCount", Val::Num(e.tools))
                .k("activeToolCount", Val::Num(e.active))
                .k("failedToolCount", Val::Num(e.failed))
                .k("eventIds", Val::str_arr(&e.event_ids))
                .into_val()
        })
        .collect();
    let active = ids(&|s| s == "running" || s == "pending");
    let failed = ids(&|s| s == "failed" || s == "blocked");
    let completed = ids(&|s| s == "completed");
    Obj::new()
        .k("hasMcp", Val::Bool(true))
        .k("servers", Val::arr(servers))
        .k("tools", Val::arr(tools))
        .k("activeToolIds", active)
        .k("failedToolIds", failed)
        .k("completedToolIds", completed)
        .into_val()
}

/// `projectAgentUiToolSurface(projections)` (§3.7): the tool surface of the read-model
/// projections in the JSON array `text` (`{surface, title, detail, source, ...}`, `source` the
/// event, read as a record ([`EventRecord`]) as the list is read; null for a projection known
/// not to be a tool projection). `Err` names the first projection that is not an object with an
/// event object as `source` (or that cannot be projected); text that is not a well-formed JSON
/// array stops it too, with an error that says nothing more: the caller checks the text first
/// when it must tell those apart.
pub fn project_tool_surface(text: &str) -> Result<Val, String> {
    let mut acc = ToolSurfaceAcc::default();
    let mut read_items = 0;
    let mut failed = None;
    let read = for_each_array_element(text, |ProjectionItem(p), _| {
        let i = read_items;
        read_items += 1;
        let Some(p) = p else {
            // Not a tool projection (the caller may leave those out): it only takes its index.
            acc.any_event = true;
            return true;
        };
        let Some(source) = &p.source else {
            failed = Some(not_a_projection(i));
            return false;
        };
        // Its fields located once, as the projector reads events.
        let index = source.index();
        let facts = ProjectionFacts {
            surface: p.surface.as_ref().and_then(Value::as_str),
            title: p.title.as_ref().map(Val::from_json).unwrap_or_default(),
            detail: p.detail.as_ref().map(Val::from_json).unwrap_or_default(),
        };
        match acc.apply_projection(source.ev(&index), i, Some(facts)) {
            Ok(()) => true,
            Err(odd) => {
                failed = Some(format!("projections[{i}]: {odd}"));
                false
            }
        }
    });
    match failed {
        _ if read => Ok(acc.model()),
        Some(e) => Err(e),
        // The item after the last one read did not read as a projection (or the text is not an
        // array of them).
        None => Err(not_a_projection(read_items)),
    }
}

fn not_a_projection(i: usize) -> String {
    format!("projections[{i}] must be an object whose source is an event object.")
}

/// A read-model projection as the tool surface reads it from JSON text: its `source` event as a
/// record, and its surface, title and detail (`null` reads as `None`: not a tool projection).
/// A `source` that is not an object does not read (nor does anything but an object or `null`).
#[derive(Default)]
struct ProjectionRecord<'t> {
    source: Option<EventRecord<'t>>,
    surface: Option<Value>,
    title: Option<Value>,
    detail: Option<Value>,
}

/// What the surface reads of a projection's member.
enum Member<'p> {
    Source,
    /// The surface, title or detail: where its value goes.
    Value(&'p mut Option<Value>),
    /// A member the surface does not read (only checked as JSON).
    Other,
}

impl ProjectionRecord<'_> {
    /// The member named `name`. A name given twice: the later value, as `JSON.parse` reads it.
    fn member(&mut self, name: &str) -> Member<'_> {
        let [source_key, surface_key, title_key, detail_key] = view_rules::TOOL_PROJECTION_FIELDS;
        match name {
            k if k == source_key => Member::Source,
            k if k == surface_key => Member::Value(&mut self.surface),
            k if k == title_key => Member::Value(&mut self.title),
            k if k == detail_key => Member::Value(&mut self.detail),
            _ => Member::Other,
        }
    }
}

/// An item of the projections' list: a projection, or `null`.
struct ProjectionItem<'t>(Option<ProjectionRecord<'t>>);

/// Through serde_json: what the event reader leaves to it ([`ListItem::read_fast`] reads the
/// rest).
impl<'de> Deserialize<'de> for ProjectionItem<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(OrNull(ProjectionVisitor))
            .map(ProjectionItem)
    }
}

struct ProjectionVisitor;

impl<'de> Visitor<'de> for ProjectionVisitor {
    type Value = ProjectionRecord<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a read-model projection")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut p = ProjectionRecord::default();
        let mut source = None;
        while let Some(name) = map.next_key::<String>()? {
            match p.member(&name) {
                Member::Source => source = Some(map.next_value_seed(ValueSeed)?),
                Member::Value(slot) => *slot = Some(map.next_value_seed(ValueSeed)?),
                Member::Other => map.next_value::<Skipped>().map(|_| ())?,
            }
        }
        p.source = match source {
            Some(Value::Object(source)) => Some(EventRecord::of_object(source)),
            Some(_) => return Err(serde::de::Error::custom("a source that is not an object")),
            None => None,
        };
        Ok(p)
    }
}

/// Read by the event reader where it can (as the visitor above reads it).
impl<'t> ListItem<'t> for ProjectionItem<'t> {
    fn read_fast(text: &'t str) -> Option<(ProjectionItem<'t>, usize)> {
        let mut r = Reader::at(text, 0);
        if r.null().is_some() {
            return Some((ProjectionItem(None), r.pos()));
        }
        let mut p = ProjectionRecord::default();
        let mut more = r.open_object()?;
        while more {
            let name = r.name()?;
            match p.member(&name) {
                Member::Source => p.source = Some(r.event_record()?),
                Member::Value(slot) => *slot = Some(r.json_value()?),
                Member::Other => r.json_value().map(|_| ())?,
            }
            more = r.next_member()?;
        }
        Some((ProjectionItem(Some(p)), r.pos()))
    }
}

/// `projectAgentUiMcpSurface(toolSurface)` (§3.8) from the `mcp` view of each of the tool
/// surface's calls (`undefined` for a call without one). Its `tools` are the views themselves:
/// `Val::Event(i)` stands for `views[i]`. `Err` when `views` is not an array.
pub fn project_mcp_surface(views: &Val) -> Result<Val, String> {
    let Some(views) = views.as_arr() else {
        return Err("The calls' MCP views must be an array.".into());
    };
    let (refs, tools): (Vec<Val>, Vec<Val>) = views
        .iter()
        .enumerate()
        .filter(|(_, m)| m.truthy())
        .map(|(i, m)| (Val::Event(u32::try_from(i).unwrap_or(u32::MAX)), m.clone()))
        .unzip();
    let mut surface = mcp_surface(tools);
    if let Val::Obj(o) = &mut surface {
        std::rc::Rc::make_mut(o).set("tools", Val::arr(refs));
    }
    Ok(surface)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A member the surface does not read is only checked as JSON, whichever reader reads the
    /// projection: a lone surrogate escape, a number beyond the doubles or deep nesting there
    /// change nothing. A `source` given twice is its last value, as `JSON.parse` reads it.
    #[test]
    fn members_the_surface_does_not_read() {
        let event = r#"{"id":"t1","eventClass":"tool.started","kind":"tool","toolCallId":"c1","status":"running"}"#;
        let with = |extra: &str| {
            project_tool_surface(&format!(
                r#"[{{"source":{event},"surface":"tool","x":{extra}}}]"#
            ))
            .map(|v| v.to_json())
        };
        let plain = with("1");
        assert!(plain.is_ok(), "{plain:?}");
        let deep = "[".repeat(200) + &"]".repeat(200);
        for extra in [r#""\ud800""#, "1e400", deep.as_str(), r#""\ud83d\ude00""#] {
            assert_eq!(with(extra), plain, "{extra}");
        }
        let twice = |a: &str, b: &str| {
            project_tool_surface(&format!(
                r#"[{{"source":{a},"surface":"tool","source":{b}}}]"#
            ))
            .map(|v| v.to_json())
        };
        assert_eq!(twice("1", event), plain);
        assert!(twice(event, "1").is_err());
        // An item the reader read, then something that is no delimiter: not an item.
        assert_eq!(
            project_tool_surface("[nullx]").err(),
            Some(not_a_projection(0))
        );
    }

    /// The surface of the projections' text is the one their parsed values give: each
    /// projection's event read as a record is the parsed event, facts given twice (the later
    /// one) and members the surface does not read included; what is not a projection is named.
    #[test]
    fn projections_read_from_text() {
        let events = crate::contract::fixtures::conformance_fixtures()
            .iter()
            .filter_map(|f| f.get("events").and_then(Value::as_array))
            .flatten();
        let mut texts = Vec::new();
        let mut acc = ToolSurfaceAcc::default();
        for (i, e) in events.enumerate() {
            let surface = if i % 2 == 0 { "tool" } else { "timeline" };
            let p = json!({"surface": surface, "title": e.get("title"), "detail": e.get("detail")});
            let index =
                crate::contract::event::EvIndex::new(e.as_object().expect("an event object"));
            let facts = ProjectionFacts {
                surface: Some(surface),
                title: p.get("title").map(Val::from_json).unwrap_or_default(),
                detail: p.get("detail").map(Val::from_json).unwrap_or_default(),
            };
            assert_eq!(
                acc.apply_projection(
                    Ev::indexed(e.as_object().expect("object"), &index),
                    i,
                    Some(facts)
                ),
                Ok(())
            );
            texts.push(format!(
                r#"{{"title":"first","source":{e},"extra":[1,{{"x":2}}],"surface":"{surface}","detail":{},"title":{}}}"#,
                p.get("detail").unwrap_or(&Value::Null),
                p.get("title").unwrap_or(&Value::Null),
            ));
        }
        let expected = acc.model().to_json();
        assert!(expected.contains("\"calls\":[{"), "{expected}");
        let text = format!("[{}]", texts.join(","));
        assert_eq!(
            project_tool_surface(&text).map(|v| v.to_json()),
            Ok(expected)
        );
        let empty = ToolSurfaceAcc {
            any_event: true,
            ..ToolSurfaceAcc::default()
        }
        .model()
        .to_json();
        assert_eq!(
            project_tool_surface("[null, null]").map(|v| v.to_json()),
            Ok(empty)
        );
        for (odd, at) in [
            ("[1]", 0),
            ("[null,{\"source\":1}]", 1),
            ("[{}]", 0),
            ("[[]]", 0),
            ("[null, {\"source\":{}} ,", 2),
        ] {
            assert_eq!(
                project_tool_surface(odd).map(|v| v.to_json()),
                Err(not_a_projection(at)),
                "{odd}"
            );
        }
    }

    /// A long call's event lists grow in place while no one holds its view (a live projector
    /// whose state is not read): each event costs the same, however many the call has.
    #[test]
    fn a_call_grows_its_event_lists_in_place() {
        let mut acc = ToolSurfaceAcc::default();
        let lists = |acc: &ToolSurfaceAcc| match acc.calls.first() {
            Some(Call {
                events: Val::Arr(e),
                event_ids: Val::Arr(i),
                ..
            }) => Some((
                std::rc::Rc::as_ptr(e),
                std::rc::Rc::as_ptr(i),
                e.len(),
                i.len(),
            )),
            _ => None,
        };
        let mut seen = Vec::new();
        for i in 0..6 {
            let ev = json!({"id": format!("e{i}"), "eventClass": if i == 0 { "tool.started" } else { "tool.progress" },
                "kind": "tool", "status": "running", "toolCallId": "call1", "title": "step"});
            let Value::Object(map) = ev else { return };
            assert!(acc.apply(Ev::new(&map), i).is_ok());
            seen.push(lists(&acc));
        }
        // From the second event on (the first merge makes the id list), the same lists, longer.
        let (events, ids) = match seen.get(2).copied().flatten() {
            Some((e, i, _, _)) => (e, i),
            None => panic!("no call"),
        };
        for (n, s) in seen.iter().enumerate().skip(2) {
            assert_eq!(*s, Some((events, ids, n + 1, n + 1)), "event {n}");
        }
        // The view shows them all.
        let model = acc.model();
        let call = model
            .get("calls")
            .and_then(Val::as_arr)
            .and_then(|c| c.first().cloned());
        let len = |k: &str| {
            call.as_ref()
                .and_then(|c| c.get(k))
                .and_then(Val::as_arr)
                .map(<[Val]>::len)
        };
        assert_eq!((len("events"), len("eventIds")), (Some(6), Some(6)));
    }
}

//! The coding workbench view (projection spec §7): files, changes, patches, commands and test
//! runs seen in a projected state's events, optionally merged with a thread read model's coding
//! facts (`codingReadModel`), plus the main object and local UI hints.
//!
//! The view is computed from scratch on each call, in time linear in the events and the read
//! model. Event objects are read from the caller's list: `state.readModel.events[*].source` holds
//! `Val::Event(i)`, which stands for `events[i]`.

use crate::contract::fxhash::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::{Map, Value};

use super::view_rules::{
    CODING_CLASSES, CODING_CLASS_PREFIXES, CODING_PROFILE, CODING_TURN_PREFIX,
};
use crate::contract::event::{Ev, Field};
use crate::contract::js::{includes, is_js_whitespace, js_lower, js_trim, utf16_len, utf16_prefix};
use crate::contract::val::{deep_equal, Obj, Val};

type Rec = Map<String, Value>;

// ---- value readers (the reference's `valueString`, `valueNumber`, ...) ----

/// First non-blank string, trimmed.
fn vstr<'a>(vals: &[Option<&'a Value>]) -> Option<&'a str> {
    vals.iter()
        .filter_map(|v| v.and_then(Value::as_str))
        .map(js_trim)
        .find(|s| !s.is_empty())
}

/// First finite number.
fn vnum(vals: &[Option<&Value>]) -> Option<f64> {
    vals.iter()
        .filter_map(|v| v.and_then(Value::as_f64))
        .find(|n| n.is_finite())
}

/// First value that is an array, its non-blank string items (untrimmed).
fn vstr_arr<'a>(vals: &[Option<&'a Value>]) -> Vec<&'a str> {
    for v in vals.iter().flatten() {
        if let Value::Array(a) = v {
            return a
                .iter()
                .filter_map(Value::as_str)
                .filter(|s| !js_trim(s).is_empty())
                .collect();
        }
    }
    Vec::new()
}

/// First value that is a record.
fn vrec<'a>(vals: &[Option<&'a Value>]) -> Option<&'a Rec> {
    vals.iter().find_map(|v| v.and_then(Value::as_object))
}

fn get<'a>(rec: Option<&'a Rec>, k: &str) -> Option<&'a Value> {
    rec.and_then(|r| r.get(k))
}

fn opt(s: Option<&str>) -> Val {
    Val::opt_str(s)
}

fn num(n: Option<f64>) -> Val {
    n.map(Val::Num).unwrap_or(Val::Undef)
}

fn str_list_val(items: &[&str]) -> Val {
    Val::arr(items.iter().map(|s| Val::str(s)).collect())
}

/// JS `a ?? b` on values.
fn or(a: Val, b: Val) -> Val {
    if a.is_nullish() {
        b
    } else {
        a
    }
}

// ---- safety filters ----

/// Does `s` contain a credential name (`api key`, `authorization`, `password`, `secret`,
/// `token`, ASCII case-insensitive) directly followed by `=` (or, with `loose`, by `:` or
/// white space)?
fn has_secret_marker(s: &str, loose: bool) -> bool {
    const NAMES: [&str; 7] = [
        "apikey",
        "api-key",
        "api_key",
        "authorization",
        "password",
        "secret",
        "token",
    ];
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        // Only where a name can start (each begins with a, p, s or t, either case).
        if !matches!(c | 0x20, b'a' | b'p' | b's' | b't') {
            continue;
        }
        for name in NAMES {
            let n = name.len();
            if i + n < b.len()
                && b[i..i + n].eq_ignore_ascii_case(name.as_bytes())
                && s.is_char_boundary(i + n)
            {
                let next = s.get(i + n..).and_then(|rest| rest.chars().next());
                let ok = match next {
                    Some('=') => true,
                    Some(':') => loose,
                    Some(c) => loose && is_js_whitespace(c),
                    None => false,
                };
                if ok {
                    return true;
                }
            }
        }
    }
    false
}

/// `safeRelativePath`: no absolute or `file:` paths, no credential assignments.
fn safe_path(v: Option<&str>) -> Option<&str> {
    let v = v.filter(|s| !s.is_empty())?;
    let b = v.as_bytes();
    let drive =
        b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/');
    if drive || v.starts_with('/') || v.starts_with("file:") || has_secret_marker(v, false) {
        return None;
    }
    Some(v)
}

/// At most 320 UTF-16 units (317 + "...").
fn preview320(v: Option<&str>) -> Option<String> {
    let v = v.filter(|s| !s.is_empty())?;
    if utf16_len(v) > 320 {
        Some(format!("{}...", utf16_prefix(v, 317)))
    } else {
        Some(v.to_owned())
    }
}

/// `safeCommand`: commands that look like they carry a credential are dropped.
fn safe_command(v: Option<&str>) -> Option<String> {
    let v = v.filter(|s| !s.is_empty())?;
    if has_secret_marker(v, true) {
        return None;
    }
    preview320(Some(v))
}

fn sopt(s: Option<String>) -> Val {
    s.map(Val::string).unwrap_or(Val::Undef)
}

// ---- process facts (§7.5) ----

const PROCESS_FACTS: [(&str, &str, u8); 10] = [
    ("processId", "process_id", 0),
    ("executionProcessStatus", "execution_process_status", 0),
    (
        "executionProcessControlStatus",
        "execution_process_control_status",
        0,
    ),
    ("executionSurface", "execution_surface", 0),
    ("stdinWritable", "stdin_writable", 1),
    ("outputBytes", "output_bytes", 2),
    ("outputOmittedBytes", "output_omitted_bytes", 2),
    ("outputTruncated", "output_truncated", 1),
    ("stdoutBytes", "stdout_bytes", 2),
    ("stderrBytes", "stderr_bytes", 2),
];

/// `codingProcessFactsFromInput`: the 10 facts of a record (or its `metadata`), in order.
fn process_facts(x: Option<&Rec>) -> [Val; 10] {
    let meta = get(x, "metadata").and_then(Value::as_object);
    let mut out: [Val; 10] = Default::default();
    for (slot, (camel, snake, ty)) in out.iter_mut().zip(PROCESS_FACTS.iter()) {
        let cands = [
            get(x, camel),
            get(x, snake),
            get(meta, camel),
            get(meta, snake),
        ];
        *slot = match ty {
            0 => opt(vstr(&cands)),
            1 => cands
                .iter()
                .find_map(|v| v.and_then(Value::as_bool))
                .map(Val::Bool)
                .unwrap_or(Val::Undef),
            _ => num(vnum(&cands)),
        };
    }
    out
}

// ---- coding event selection ----

fn is_coding_event(ev: Ev<'_>) -> bool {
    let cls = ev.cls();
    CODING_CLASS_PREFIXES.iter().any(|p| cls.starts_with(p))
        || CODING_CLASSES.contains(&cls)
        || ev.raw_str(&[CODING_PROFILE.0]) == Some(CODING_PROFILE.1)
}

/// Direct coding events, plus `turn.*` events sharing a turn or task with one of them.
fn coding_events<'a>(src: &[Ev<'a>]) -> Vec<Ev<'a>> {
    let mut turns: HashSet<&str> = HashSet::default();
    let mut tasks: HashSet<&str> = HashSet::default();
    let mut any = false;
    for ev in src.iter().filter(|e| is_coding_event(**e)) {
        any = true;
        turns.extend(ev.str("turnId"));
        tasks.extend(ev.str("taskId"));
    }
    if !any {
        return Vec::new();
    }
    src.iter()
        .copied()
        .filter(|ev| {
            is_coding_event(*ev)
                || (ev.cls().starts_with(CODING_TURN_PREFIX)
                    && (ev.truthy_str("turnId").is_some_and(|t| turns.contains(t))
                        || ev.truthy_str("taskId").is_some_and(|t| tasks.contains(t))))
        })
        .collect()
}

fn sequence_of(ev: Ev<'_>) -> f64 {
    ev.get("sequence").and_then(Field::as_f64).unwrap_or(0.0)
}

// ---- ordered maps of entries ----

/// An insertion-ordered map from string ids to entries (JS `Map` semantics for `set`).
struct OrderedMap<T> {
    index: HashMap<Rc<str>, usize>,
    items: Vec<T>,
}

impl<T> OrderedMap<T> {
    fn new() -> Self {
        OrderedMap {
            index: HashMap::default(),
            items: Vec::new(),
        }
    }

    fn get(&self, k: &str) -> Option<&T> {
        self.index.get(k).and_then(|&i| self.items.get(i))
    }

    fn set(&mut self, k: &str, v: T) {
        match self.index.get(k) {
            Some(&i) => {
                if let Some(slot) = self.items.get_mut(i) {
                    *slot = v;
                }
            }
            None => {
                self.index.insert(Rc::from(k), self.items.len());
                self.items.push(v);
            }
        }
    }
}

/// A JS `Set` identity for the primitive values used in reference lists.
fn set_key(v: &Val) -> String {
    match v {
        Val::Str(s) => format!("s{s}"),
        other => format!("j{}", other.to_json()),
    }
}

/// `[...new Set([...a, ...b])]` over array values.
fn union(a: &Val, b: &Val) -> Val {
    let mut seen = HashSet::default();
    let mut out = Vec::new();
    for v in a
        .as_arr()
        .unwrap_or(&[])
        .iter()
        .chain(b.as_arr().unwrap_or(&[]))
    {
        if seen.insert(set_key(v)) {
            out.push(v.clone());
        }
    }
    Val::arr(out)
}

/// Append to an ordered set of values.
fn push_unique(list: &mut Vec<Val>, seen: &mut HashSet<String>, v: Val) {
    if seen.insert(set_key(&v)) {
        list.push(v);
    }
}

/// `{...a, ...b}`: `a`'s keys in place, `b`'s values win, new keys appended.
fn spread(a: &Obj, b: &Obj) -> Obj {
    let mut out = a.clone();
    for (k, v) in b.iter() {
        out.set_dyn(k, v.clone());
    }
    out
}

fn obj_get(o: &Obj, k: &str) -> Val {
    o.get(k).cloned().unwrap_or(Val::Undef)
}

fn obj_str<'a>(o: &'a Obj, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Val::as_str)
}

/// Stable sort by sequence (the reference's `a.sequence - b.sequence`).
/// Sequences are finite (JSON numbers), so the key order is the comparison's order.
fn sort_by_sequence<T>(items: &mut Vec<(T, f64)>) {
    crate::contract::order::stable_sort_by_key(items, |x| crate::contract::order::f64_key(x.1));
}

// ---- files and changes ----

fn event_path(ev: Ev<'_>) -> Option<&str> {
    safe_path(ev.raw_str(&["path", "relativePath"]))
}

fn artifact_refs_field(ev: Ev<'_>) -> Val {
    or(ev.val("artifactRefs"), Val::arr(Vec::new()))
}

fn collect_files(events: &[Ev<'_>]) -> Vec<Obj> {
    let mut files: OrderedMap<Obj> = OrderedMap::new();
    for &ev in events {
        let cls = ev.str("eventClass");
        if cls != Some("file.read") && cls != Some("file.changed") {
            continue;
        }
        let Some(path) = event_path(ev) else { continue };
        let file = Obj::new()
            .k("id", Val::str(path))
            .k("path", Val::str(path))
            .k("status", ev.val("status"))
            .k("title", ev.val("title"))
            .k("artifactRefs", artifact_refs_field(ev))
            .k(
                "checkpointRef",
                opt(ev.raw_str(&["checkpointRef", "checkpointId"])),
            )
            .k("contentRef", opt(ev.raw_str(&["contentRef"])))
            .k("latestEventId", ev.val("id"));
        files.set(path, file);
    }
    files.items
}

fn collect_changes(events: &[Ev<'_>]) -> Vec<Obj> {
    events
        .iter()
        .filter(|ev| ev.str("eventClass") == Some("file.changed"))
        .filter_map(|&ev| {
            let path = event_path(ev)?;
            Some(
                Obj::new()
                    .k("id", ev.val("id"))
                    .k("path", Val::str(path))
                    .k("status", ev.val("status"))
                    .k("changeKind", opt(ev.raw_str(&["changeKind", "operation"])))
                    .k("artifactRefs", artifact_refs_field(ev))
                    .k(
                        "checkpointRef",
                        opt(ev.raw_str(&["checkpointRef", "checkpointId"])),
                    )
                    .k("diffRef", opt(ev.raw_str(&["diffRef"])))
                    .k(
                        "preview",
                        sopt(preview320(ev.raw_str(&["preview", "summary"]))),
                    )
                    .k("sourceEventId", ev.val("id")),
            )
        })
        .collect()
}

/// A read-model artifact's metadata and whether it describes a code file.
fn coding_artifact(a: &Rec) -> Option<(&str, Option<&Rec>)> {
    let meta = vrec(&[a.get("metadata")]);
    let kind = vstr(&[
        a.get("kind"),
        get(meta, "artifactKind"),
        get(meta, "artifact_kind"),
        get(meta, "kind"),
    ])
    .map(|k| js_lower(js_trim(k)));
    let path = safe_path(vstr(&[a.get("path")]))?;
    match kind {
        None => Some((path, meta)),
        Some(k)
            if ["file", "code", "patch", "diff"]
                .iter()
                .any(|w| includes(&k, w)) =>
        {
            Some((path, meta))
        }
        Some(_) => None,
    }
}

fn artifact_version(meta: Option<&Rec>) -> Option<&Rec> {
    vrec(&[get(meta, "artifactVersion"), get(meta, "artifact_version")])
}

fn artifact_checkpoint_ref<'a>(a: &'a Rec, meta: Option<&'a Rec>) -> Option<&'a str> {
    let ver = artifact_version(meta);
    vstr(&[
        get(meta, "checkpointRef"),
        get(meta, "checkpoint_ref"),
        get(meta, "checkpointId"),
        get(meta, "checkpoint_id"),
        get(meta, "artifactVersionId"),
        get(meta, "artifact_version_id"),
        get(ver, "id"),
        get(ver, "checkpointRef"),
        get(ver, "checkpoint_ref"),
        a.get("artifact_ref"),
        a.get("artifactRef"),
    ])
}

fn artifact_diff_ref(meta: Option<&Rec>) -> Option<&str> {
    let ver = artifact_version(meta);
    let diff = vrec(&[
        get(meta, "artifactVersionDiff"),
        get(meta, "artifact_version_diff"),
    ]);
    vstr(&[
        get(meta, "diffRef"),
        get(meta, "diff_ref"),
        get(ver, "diffRef"),
        get(ver, "diff_ref"),
        get(diff, "diffRef"),
        get(diff, "diff_ref"),
    ])
}

fn artifact_preview(a: &Rec, meta: Option<&Rec>) -> Option<String> {
    let ver = artifact_version(meta);
    preview320(vstr(&[
        get(meta, "previewText"),
        get(meta, "preview_text"),
        get(meta, "artifactSummary"),
        get(meta, "artifact_summary"),
        get(meta, "summary"),
        get(ver, "title"),
        a.get("title"),
        a.get("path"),
    ]))
}

fn artifact_change_kind(meta: Option<&Rec>) -> Option<&str> {
    let ch = vrec(&[get(meta, "file_change"), get(meta, "fileChange")]);
    vstr(&[
        get(meta, "changeKind"),
        get(meta, "change_kind"),
        get(meta, "operation"),
        get(ch, "changeKind"),
        get(ch, "change_kind"),
        get(ch, "operation"),
    ])
}

fn artifact_ref(a: &Rec) -> Option<&str> {
    vstr(&[a.get("artifact_ref"), a.get("artifactRef")])
}

fn artifact_source_event_id(a: &Rec, path: &str) -> String {
    match vstr(&[a.get("event_id"), a.get("eventId")]) {
        Some(s) => s.to_owned(),
        None => match artifact_ref(a) {
            Some(r) => format!("read-model:artifact:{r}"),
            None => format!("read-model:path:{path}"),
        },
    }
}

fn ref_list(r: Option<&str>) -> Val {
    Val::arr(r.map(|s| vec![Val::str(s)]).unwrap_or_default())
}

fn rm_artifacts(rm: Option<&Rec>) -> impl Iterator<Item = &Rec> {
    get(rm, "artifacts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

fn merge_changes(event_changes: Vec<Obj>, rm: Option<&Rec>) -> Vec<Obj> {
    let mut by_file: OrderedMap<(Obj, f64)> = OrderedMap::new();
    for (j, ch) in event_changes.into_iter().enumerate() {
        let key = js_lower(obj_str(&ch, "path").unwrap_or(""));
        by_file.set(&key, (ch, (j + 1) as f64));
    }
    for a in rm_artifacts(rm) {
        let Some((path, meta)) = coding_artifact(a) else {
            continue;
        };
        let aref = artifact_ref(a);
        let sid = artifact_source_event_id(a, path);
        let change = Obj::new()
            .c("id", Val::str(&sid))
            .c("path", Val::str(path))
            .c(
                "status",
                Val::str(vstr(&[a.get("status")]).unwrap_or("completed")),
            )
            .c(
                "changeKind",
                Val::str(artifact_change_kind(meta).unwrap_or("modified")),
            )
            .c("artifactRefs", ref_list(aref))
            .c("checkpointRef", opt(artifact_checkpoint_ref(a, meta)))
            .c("diffRef", opt(artifact_diff_ref(meta)))
            .c("preview", sopt(artifact_preview(a, meta)))
            .c("sourceEventId", Val::str(&sid));
        let seq = vnum(&[a.get("sequence")]).unwrap_or(0.0);
        let key = js_lower(path);
        let merged = match by_file.get(&key) {
            Some((existing, eseq)) => {
                let mut m = spread(&change, existing);
                m.set(
                    "artifactRefs",
                    union(
                        &obj_get(&change, "artifactRefs"),
                        &obj_get(existing, "artifactRefs"),
                    ),
                );
                (m, *eseq)
            }
            None => (change, seq),
        };
        by_file.set(&key, merged);
    }
    let mut items = by_file.items;
    sort_by_sequence(&mut items);
    items.into_iter().map(|(o, _)| o).collect()
}

fn merge_files(event_files: Vec<Obj>, changes: &[Obj], rm: Option<&Rec>) -> Vec<Obj> {
    let mut by_path: OrderedMap<Obj> = OrderedMap::new();
    for f in event_files {
        let key = js_lower(obj_str(&f, "path").unwrap_or(""));
        by_path.set(&key, f);
    }
    let merge_in = |by_path: &mut OrderedMap<Obj>, file: Obj| {
        let key = js_lower(obj_str(&file, "path").unwrap_or(""));
        let merged = match by_path.get(&key) {
            Some(existing) => {
                let mut m = spread(existing, &file);
                m.set(
                    "artifactRefs",
                    union(
                        &obj_get(existing, "artifactRefs"),
                        &obj_get(&file, "artifactRefs"),
                    ),
                );
                m
            }
            None => file,
        };
        by_path.set(&key, merged);
    };
    // Files implied by the changes (last change per exact path).
    let mut from_changes: OrderedMap<Obj> = OrderedMap::new();
    for ch in changes {
        let path = obj_get(ch, "path");
        let Some(p) = path.as_str() else { continue };
        from_changes.set(
            p,
            Obj::new()
                .k("id", path.clone())
                .k("path", path.clone())
                .k("status", obj_get(ch, "status"))
                .k("title", path.clone())
                .k("artifactRefs", obj_get(ch, "artifactRefs"))
                .k("checkpointRef", obj_get(ch, "checkpointRef"))
                .k("contentRef", Val::Undef)
                .k("latestEventId", obj_get(ch, "sourceEventId")),
        );
    }
    for f in from_changes.items {
        merge_in(&mut by_path, f);
    }
    for a in rm_artifacts(rm) {
        let Some((path, meta)) = coding_artifact(a) else {
            continue;
        };
        let aref = artifact_ref(a);
        let title = match safe_command(vstr(&[a.get("title")])) {
            Some(t) => Val::string(t),
            None => or(
                a.get("title").map(Val::from_json).unwrap_or(Val::Undef),
                Val::str(path),
            ),
        };
        let file = Obj::new()
            .c("id", Val::str(aref.unwrap_or(path)))
            .c("path", Val::str(path))
            .c(
                "status",
                Val::str(vstr(&[a.get("status")]).unwrap_or("completed")),
            )
            .c("title", title)
            .c("artifactRefs", ref_list(aref))
            .c("checkpointRef", opt(artifact_checkpoint_ref(a, meta)))
            .c(
                "contentRef",
                opt(vstr(&[
                    get(meta, "contentRef"),
                    get(meta, "content_ref"),
                    get(meta, "snapshotFile"),
                    get(meta, "snapshot_file"),
                ])),
            )
            .c(
                "latestEventId",
                Val::string(artifact_source_event_id(a, path)),
            );
        merge_in(&mut by_path, file);
    }
    by_path.items
}

// ---- patches, commands, tests ----

/// Per-entry accumulated lists: the entry's `sourceEventIds` and its ordered sets.
#[derive(Default)]
struct Lists {
    source_event_ids: Vec<Val>,
    output_refs: Vec<Val>,
    output_seen: HashSet<String>,
    argv: Vec<Val>,
    argv_seen: HashSet<String>,
}

/// An entry being accumulated: its scalar keys (in output order), its lists and sequence.
struct Entry {
    obj: Obj,
    lists: Lists,
    sequence: f64,
}

fn scope_id<'a>(ev: Ev<'a>, key: &str) -> Option<&'a str> {
    match ev.raw_str(&[key]) {
        Some(s) => Some(s),
        None => ev.str("toolCallId"),
    }
    .filter(|s| !s.is_empty())
}

/// `payloadString(k) ?? prev[k]` for each key of `pairs` (output key, payload keys).
fn prev_or(prev: Option<&Entry>, k: &str, v: Val) -> Val {
    or(v, prev.map(|p| obj_get(&p.obj, k)).unwrap_or(Val::Undef))
}

fn payload_num(ev: Ev<'_>, k: &str) -> Option<f64> {
    ev.payload_get(k)
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
}

fn add_output_refs(lists: &mut Lists, ev: Ev<'_>) {
    let mut refs: Vec<Val> = Vec::new();
    for f in ["refIds", "artifactRefs", "evidenceRefs"] {
        if let Some(a) = ev.get(f).and_then(Field::as_array) {
            refs.extend(a.iter().map(Val::from_json));
        }
    }
    for k in ["outputRef", "contentRef", "diffRef"] {
        refs.extend(ev.raw_str(&[k]).map(Val::str));
    }
    for r in refs {
        if r.truthy() {
            push_unique(&mut lists.output_refs, &mut lists.output_seen, r);
        }
    }
}

fn finish(items: Vec<Entry>, lists_at: &[(&'static str, u8)]) -> Vec<Obj> {
    let mut items: Vec<(Entry, f64)> = items
        .into_iter()
        .map(|e| {
            let s = e.sequence;
            (e, s)
        })
        .collect();
    sort_by_sequence(&mut items);
    items
        .into_iter()
        .map(|(mut e, _)| {
            for (k, which) in lists_at {
                let v = match which {
                    0 => Val::arr(std::mem::take(&mut e.lists.source_event_ids)),
                    1 => Val::arr(std::mem::take(&mut e.lists.output_refs)),
                    _ => Val::arr(std::mem::take(&mut e.lists.argv)),
                };
                e.obj.set(*k, v);
            }
            e.obj
        })
        .collect()
}

fn collect_patches(events: &[Ev<'_>]) -> Vec<Obj> {
    let mut map: OrderedMap<Entry> = OrderedMap::new();
    for &ev in events {
        if !ev.cls().starts_with("patch.") || ev.str("eventClass").is_none() {
            continue;
        }
        let Some(id) = scope_id(ev, "patchId") else {
            continue;
        };
        let prev = map.get(id);
        let obj = Obj::new()
            .k("patchId", Val::str(id))
            .k("status", ev.val("status"))
            .k("title", ev.val("title"))
            .k("path", prev_or(prev, "path", opt(event_path(ev))))
            .k(
                "toolCallId",
                prev_or(prev, "toolCallId", ev.val("toolCallId")),
            )
            .k(
                "diffRef",
                prev_or(prev, "diffRef", opt(ev.raw_str(&["diffRef"]))),
            )
            .k(
                "failureCategory",
                prev_or(
                    prev,
                    "failureCategory",
                    opt(ev.raw_str(&["failureCategory"])),
                ),
            )
            .k(
                "recoveryHintRef",
                prev_or(
                    prev,
                    "recoveryHintRef",
                    opt(ev.raw_str(&["recoveryHintRef"])),
                ),
            )
            .k("sourceEventIds", Val::Undef);
        let mut lists = Lists::default();
        if let Some(p) = map.index.get(id).and_then(|&i| map.items.get_mut(i)) {
            lists = std::mem::take(&mut p.lists);
        }
        lists.source_event_ids.push(ev.val("id"));
        map.set(
            id,
            Entry {
                obj,
                lists,
                sequence: sequence_of(ev),
            },
        );
    }
    finish(map.items, &[("sourceEventIds", 0)])
}

fn command_text(ev: Ev<'_>, prev: Option<&Entry>, out: &str, keys: &[&str]) -> Val {
    prev_or(prev, out, sopt(safe_command(ev.raw_str(keys))))
}

fn collect_commands(events: &[Ev<'_>]) -> Vec<Obj> {
    let mut map: OrderedMap<Entry> = OrderedMap::new();
    for &ev in events {
        if !ev.cls().starts_with("command.") || ev.str("eventClass").is_none() {
            continue;
        }
        let Some(id) = scope_id(ev, "commandId") else {
            continue;
        };
        let prev = map.get(id);
        let payload = ev.payload();
        let mut obj = Obj::new()
            .k("commandId", Val::str(id))
            .k("status", ev.val("status"))
            .k("title", ev.val("title"))
            .k("command", command_text(ev, prev, "command", &["command"]))
            .k(
                "canonicalCommand",
                command_text(
                    ev,
                    prev,
                    "canonicalCommand",
                    &["canonicalCommand", "canonical_command"],
                ),
            )
            .k(
                "commandSummary",
                command_text(
                    ev,
                    prev,
                    "commandSummary",
                    &["commandSummary", "command_summary"],
                ),
            )
            .k("commandArgv", Val::Undef)
            .k(
                "commandArgvSource",
                prev_or(
                    prev,
                    "commandArgvSource",
                    opt(ev.raw_str(&["commandArgvSource", "command_argv_source"])),
                ),
            )
            .k(
                "cwd",
                prev_or(
                    prev,
                    "cwd",
                    opt(safe_path(ev.raw_str(&["cwd", "workingDirectory"]))),
                ),
            )
            .k(
                "exitCode",
                prev_or(prev, "exitCode", num(payload_num(ev, "exitCode"))),
            );
        let facts = process_facts(payload);
        for ((k, _, _), v) in PROCESS_FACTS.iter().zip(facts) {
            obj.push(*k, prev_or(prev, k, v));
        }
        let obj = obj
            .k("outputRefs", Val::Undef)
            .k(
                "preview",
                prev_or(
                    prev,
                    "preview",
                    sopt(preview320(ev.raw_str(&["preview", "summary"]))),
                ),
            )
            .k("sourceEventIds", Val::Undef);
        let mut lists = Lists::default();
        if let Some(p) = map.index.get(id).and_then(|&i| map.items.get_mut(i)) {
            lists = std::mem::take(&mut p.lists);
        }
        for a in vstr_arr(&[
            payload.and_then(|p| p.get("commandArgv")),
            payload.and_then(|p| p.get("command_argv")),
        ]) {
            push_unique(&mut lists.argv, &mut lists.argv_seen, Val::str(a));
        }
        add_output_refs(&mut lists, ev);
        lists.source_event_ids.push(ev.val("id"));
        map.set(
            id,
            Entry {
                obj,
                lists,
                sequence: sequence_of(ev),
            },
        );
    }
    finish(
        map.items,
        &[("commandArgv", 2), ("outputRefs", 1), ("sourceEventIds", 0)],
    )
}

fn collect_tests(events: &[Ev<'_>]) -> Vec<Obj> {
    let mut map: OrderedMap<Entry> = OrderedMap::new();
    for &ev in events {
        if !ev.cls().starts_with("test.") || ev.str("eventClass").is_none() {
            continue;
        }
        let Some(id) = scope_id(ev, "testRunId") else {
            continue;
        };
        let prev = map.get(id);
        let obj = Obj::new()
            .k("testRunId", Val::str(id))
            .k("status", ev.val("status"))
            .k("title", ev.val("title"))
            .k(
                "commandId",
                prev_or(prev, "commandId", opt(ev.raw_str(&["commandId"]))),
            )
            .k("command", command_text(ev, prev, "command", &["command"]))
            .k(
                "canonicalCommand",
                command_text(
                    ev,
                    prev,
                    "canonicalCommand",
                    &["canonicalCommand", "canonical_command"],
                ),
            )
            .k(
                "commandSummary",
                command_text(
                    ev,
                    prev,
                    "commandSummary",
                    &["commandSummary", "command_summary"],
                ),
            )
            .k("suite", prev_or(prev, "suite", opt(ev.raw_str(&["suite"]))))
            .k(
                "result",
                prev_or(prev, "result", opt(ev.raw_str(&["result", "status"]))),
            )
            .k(
                "passed",
                prev_or(prev, "passed", num(payload_num(ev, "passed"))),
            )
            .k(
                "failed",
                prev_or(prev, "failed", num(payload_num(ev, "failed"))),
            )
            .k("outputRefs", Val::Undef)
            .k(
                "failureCategory",
                prev_or(
                    prev,
                    "failureCategory",
                    opt(ev.raw_str(&["failureCategory"])),
                ),
            )
            .k("sourceEventIds", Val::Undef);
        let mut lists = Lists::default();
        if let Some(p) = map.index.get(id).and_then(|&i| map.items.get_mut(i)) {
            lists = std::mem::take(&mut p.lists);
        }
        add_output_refs(&mut lists, ev);
        lists.source_event_ids.push(ev.val("id"));
        map.set(
            id,
            Entry {
                obj,
                lists,
                sequence: sequence_of(ev),
            },
        );
    }
    finish(map.items, &[("outputRefs", 1), ("sourceEventIds", 0)])
}

// ---- read-model commands, tests, change summary ----

fn rm_list<'a>(rm: Option<&'a Rec>, k: &str) -> impl Iterator<Item = &'a Rec> {
    get(rm, k)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

fn source_ids(r: &Rec, fallback: String) -> Val {
    let ids = vstr_arr(&[r.get("source_event_ids"), r.get("sourceEventIds")]);
    if ids.is_empty() {
        Val::arr(vec![Val::string(fallback)])
    } else {
        str_list_val(&ids)
    }
}

fn command_from_rm(c: &Rec) -> Option<(String, Obj)> {
    let id = vstr(&[c.get("command_id"), c.get("commandId")])?;
    let summary = safe_command(vstr(&[c.get("command_summary"), c.get("commandSummary")]));
    let command = safe_command(vstr(&[c.get("command")]));
    let title = summary
        .clone()
        .or_else(|| command.clone())
        .unwrap_or_else(|| id.to_owned());
    let mut o = Obj::new()
        .c("commandId", Val::str(id))
        .c(
            "status",
            Val::str(vstr(&[c.get("status")]).unwrap_or("running")),
        )
        .c("title", Val::string(title))
        .c("command", sopt(command))
        .c(
            "canonicalCommand",
            sopt(safe_command(vstr(&[
                c.get("canonical_command"),
                c.get("canonicalCommand"),
            ]))),
        )
        .c("commandSummary", sopt(summary))
        .c(
            "commandArgv",
            str_list_val(&vstr_arr(&[c.get("command_argv"), c.get("commandArgv")])),
        )
        .c(
            "commandArgvSource",
            opt(vstr(&[
                c.get("command_argv_source"),
                c.get("commandArgvSource"),
            ])),
        )
        .c("cwd", opt(safe_path(vstr(&[c.get("cwd")]))))
        .c(
            "exitCode",
            num(vnum(&[c.get("exit_code"), c.get("exitCode")])),
        );
    for ((k, _, _), v) in PROCESS_FACTS.iter().zip(process_facts(Some(c))) {
        if !v.is_undef() {
            o.push(*k, v);
        }
    }
    let o = o
        .c(
            "outputRefs",
            str_list_val(&vstr_arr(&[c.get("output_refs"), c.get("outputRefs")])),
        )
        .c(
            "preview",
            sopt(preview320(vstr(&[
                c.get("output_preview"),
                c.get("outputPreview"),
            ]))),
        )
        .c(
            "sourceEventIds",
            source_ids(c, format!("read-model:command:{id}")),
        );
    Some((id.to_owned(), o))
}

fn test_from_rm(t: &Rec) -> Option<(String, Obj)> {
    let id = vstr(&[t.get("test_run_id"), t.get("testRunId")])?;
    let summary = safe_command(vstr(&[t.get("command_summary"), t.get("commandSummary")]));
    let title = summary
        .clone()
        .or_else(|| {
            vstr(&[t.get("suite"), t.get("command_id"), t.get("commandId")]).map(str::to_owned)
        })
        .unwrap_or_else(|| id.to_owned());
    let o = Obj::new()
        .c("testRunId", Val::str(id))
        .c(
            "status",
            Val::str(vstr(&[t.get("status")]).unwrap_or("running")),
        )
        .c("title", Val::string(title))
        .c(
            "commandId",
            opt(vstr(&[t.get("command_id"), t.get("commandId")])),
        )
        .c(
            "canonicalCommand",
            sopt(safe_command(vstr(&[
                t.get("canonical_command"),
                t.get("canonicalCommand"),
            ]))),
        )
        .c("commandSummary", sopt(summary))
        .c("suite", opt(vstr(&[t.get("suite")])))
        .c("result", opt(vstr(&[t.get("result")])))
        .c("passed", num(vnum(&[t.get("passed")])))
        .c("failed", num(vnum(&[t.get("failed")])))
        .c(
            "outputRefs",
            str_list_val(&vstr_arr(&[t.get("output_refs"), t.get("outputRefs")])),
        )
        .c(
            "failureCategory",
            opt(vstr(&[t.get("failure_category"), t.get("failureCategory")])),
        )
        .c(
            "sourceEventIds",
            source_ids(t, format!("read-model:test:{id}")),
        );
    Some((id.to_owned(), o))
}

/// Event entries first (they win over read-model facts), then new read-model entries.
fn merge_by_id(
    event_items: Vec<Obj>,
    id_key: &str,
    rm_items: impl Iterator<Item = (String, Obj)>,
) -> Vec<Obj> {
    let mut map: OrderedMap<Obj> = OrderedMap::new();
    for o in event_items {
        let id = obj_str(&o, id_key).unwrap_or("").to_owned();
        map.set(&id, o);
    }
    for (id, o) in rm_items {
        let merged = match map.get(&id) {
            Some(existing) => spread(&o, existing),
            None => o,
        };
        map.set(&id, merged);
    }
    map.items
}

fn change_summary(rm: Option<&Rec>) -> Val {
    let s = match get(rm, "change_summary") {
        Some(v) if !v.is_null() => Some(v),
        _ => get(rm, "changeSummary"),
    };
    let Some(s) = s else { return Val::Undef };
    let truthy = match s {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(x) => !x.is_empty(),
        _ => true,
    };
    if !truthy {
        return Val::Undef;
    }
    let r = s.as_object();
    let changed: Vec<&str> = vstr_arr(&[get(r, "changed_files"), get(r, "changedFiles")])
        .into_iter()
        .filter_map(|p| safe_path(Some(p)))
        .collect();
    let patch_count = vnum(&[get(r, "patch_count"), get(r, "patchCount")]).unwrap_or(0.0);
    let file_count = vnum(&[get(r, "changed_file_count"), get(r, "changedFileCount")])
        .unwrap_or(changed.len() as f64);
    if file_count == 0.0 && patch_count == 0.0 {
        return Val::Undef;
    }
    let count = |a: &str, b: &str| Val::Num(vnum(&[get(r, a), get(r, b)]).unwrap_or(0.0));
    Obj::new()
        .k("changedFileCount", Val::Num(file_count))
        .k("changedFiles", str_list_val(&changed))
        .k("patchCount", Val::Num(patch_count))
        .k(
            "appliedPatchCount",
            count("applied_patch_count", "appliedPatchCount"),
        )
        .k(
            "failedPatchCount",
            count("failed_patch_count", "failedPatchCount"),
        )
        .k(
            "runningPatchCount",
            count("running_patch_count", "runningPatchCount"),
        )
        .k(
            "sourceEventIds",
            str_list_val(&vstr_arr(&[
                get(r, "source_event_ids"),
                get(r, "sourceEventIds"),
            ])),
        )
        .into_val()
}

// ---- actions (§7.3) ----

/// The synthetic `action.required` events for the read model's pending requests (§7.3): each as
/// JSON (to project) and as the value the reference keeps as the action's `source` (its
/// `payload` holds `actionKind` and `request` even when they are `undefined`).
pub fn read_model_action_events(rm: Option<&Value>) -> Vec<(Value, Val)> {
    let Some(r) = rm.and_then(Value::as_object) else {
        return Vec::new();
    };
    let reqs = match r.get("pending_requests") {
        Some(v) if !v.is_null() => Some(v),
        _ => r.get("pendingRequests"),
    };
    let Some(Value::Array(reqs)) = reqs else {
        return Vec::new();
    };
    let thread_id = vstr(&[r.get("thread_id"), r.get("threadId")]);
    let active_turn = vstr(&[r.get("active_turn_id"), r.get("activeTurnId")]);
    let mut out = Vec::new();
    for req in reqs.iter().filter_map(Value::as_object) {
        let Some(id) = vstr(&[req.get("id")]) else {
            continue;
        };
        let status = vstr(&[req.get("status")]);
        let rtype = vstr(&[req.get("request_type"), req.get("requestType")]);
        let mut ev = Map::new();
        ev.insert("id".into(), Value::from(format!("read-model:action:{id}")));
        ev.insert(
            "schemaVersion".into(),
            Value::from("lime-runtime-event/v0.1"),
        );
        ev.insert("runtimeId".into(), Value::from("thread-read-model"));
        if let Some(t) = thread_id {
            ev.insert("threadId".into(), Value::from(t));
        }
        if let Some(t) = vstr(&[req.get("turn_id"), req.get("turnId")]).or(active_turn) {
            ev.insert("turnId".into(), Value::from(t));
        }
        ev.insert("actionId".into(), Value::from(id));
        ev.insert("eventClass".into(), Value::from("action.required"));
        ev.insert("kind".into(), Value::from("action"));
        ev.insert(
            "status".into(),
            Value::from(if status == Some("resolved") {
                "completed"
            } else {
                "blocked"
            }),
        );
        ev.insert(
            "title".into(),
            Value::from(
                vstr(&[req.get("title")])
                    .or(rtype)
                    .unwrap_or("Action required"),
            ),
        );
        let mut payload = Map::new();
        if let Some(t) = rtype {
            payload.insert("actionKind".into(), Value::from(t));
        }
        payload.insert("targetModule".into(), Value::from("coding-workbench"));
        if let Some(p) = req.get("payload") {
            payload.insert("request".into(), p.clone());
        }
        ev.insert("payload".into(), Value::Object(payload));
        ev.insert("createdAt".into(), Value::from("1970-01-01T00:00:00.000Z"));
        let json = Value::Object(ev);
        let mut source = match Val::from_json(&json) {
            Val::Obj(o) => (*o).clone(),
            _ => Obj::new(),
        };
        source.set(
            "payload",
            Obj::new()
                .k("actionKind", opt(rtype))
                .k("targetModule", Val::str("coding-workbench"))
                .k(
                    "request",
                    req.get("payload").map(Val::from_json).unwrap_or(Val::Undef),
                )
                .into_val(),
        );
        out.push((json, source.into_val()));
    }
    out
}

/// `state.actions` plus the read model's request actions not already present (by `id`).
/// `project_actions` projects one synthetic event alone and returns the state's `actions`.
fn merge_actions(
    actions: &Val,
    rm: Option<&Value>,
    project_actions: ProjectActions<'_>,
    refs: Option<StateRefs>,
) -> Val {
    // The state's own list, when nothing is merged into it.
    let unchanged = || refs.map_or_else(|| actions.clone(), |r| Val::Event(r.actions));
    let synthetic = read_model_action_events(rm);
    if synthetic.is_empty() {
        return unchanged();
    }
    let mut extra: Vec<Val> = Vec::new();
    for (json, source) in &synthetic {
        for a in project_actions(json) {
            // The projection refers to its only input event; put the event itself there.
            let a = match a.as_obj() {
                Some(o) if matches!(o.get("source"), Some(Val::Event(_))) => {
                    let mut o = o.clone();
                    o.set("source", source.clone());
                    o.into_val()
                }
                _ => a,
            };
            extra.push(a);
        }
    }
    if extra.is_empty() {
        return unchanged();
    }
    let mut map: OrderedMap<Val> = OrderedMap::new();
    for a in actions.as_arr().unwrap_or(&[]) {
        let key = set_key(&a.get("id").cloned().unwrap_or(Val::Undef));
        map.set(&key, a.clone());
    }
    for a in extra {
        let key = set_key(&a.get("id").cloned().unwrap_or(Val::Undef));
        if map.get(&key).is_none() {
            map.set(&key, a);
        }
    }
    Val::arr(map.items)
}

/// Projects one event alone and returns the resulting state's `actions` entries.
pub type ProjectActions<'a> = &'a dyn Fn(&Value) -> Vec<Val>;

/// The `actions` of the batch projection of one event alone (made whole, the rest of the state
/// left as the projection holds it).
pub fn single_event_actions(ev: &Value) -> Vec<Val> {
    let Ok(p) =
        crate::projection::projector::projected(std::slice::from_ref(ev), Val::Num(0.0), false)
    else {
        return Vec::new();
    };
    let actions = p
        .state_compact()
        .ok()
        .and_then(|s| s.get("actions").map(|a| p.expand(a)));
    actions
        .as_ref()
        .and_then(Val::as_arr)
        .map(<[Val]>::to_vec)
        .unwrap_or_default()
}

/// `projectCodingWorkbenchView(state, codingReadModel?)`: `events[i]` is the event that
/// `Val::Event(i)` in `state` stands for.
pub fn project_coding_workbench_view(
    state: &Val,
    coding_read_model: Option<&Value>,
    events: &[Value],
) -> Val {
    project_coding_workbench_view_with(state, coding_read_model, events, &single_event_actions)
}

/// `projectCodingWorkbenchViewFromEvents(input)` (§7.1): the view of the batch projection of
/// `input.executionEvents` (`Val::Event(i)` is event `i`), or, when there are none, of the
/// events of `input.threadItems` (§7.4), which the output then holds as objects. `Err` names an
/// execution event the projection refuses (see [`crate::projection::project`]). The view shows
/// nothing of the read model's `sourceCount`, so `input.sourceCount` is not read.
pub fn project_coding_workbench_view_from_events(input: &Value) -> Result<Val, String> {
    let rm = input.get("codingReadModel");
    if let Some(Value::Array(events)) = input.get("executionEvents") {
        if !events.is_empty() {
            return view_of_events(events, rm).map_err(|err| {
                match err.message.strip_prefix("events") {
                    // The projection names the event `events[i]`; here the list is the input's.
                    Some(rest) => format!("executionEvents{rest}"),
                    None => err.message,
                }
            });
        }
    }
    let items = match input.get("threadItems") {
        Some(Value::Array(a)) => a.as_slice(),
        _ => &[],
    };
    let synthetic = super::coding_thread_items::events_from_thread_items(items);
    let events: Vec<Value> = synthetic
        .iter()
        .map(|v| {
            v.js_stringify(&mut |_, _| false)
                .and_then(|t| crate::contract::json::parse_value(&t).ok())
                .unwrap_or(Value::Null)
        })
        .collect();
    let view = view_of_events(&events, rm).map_err(|err| err.to_string())?;
    Ok(view.with_events(&synthetic))
}

/// The state keys the view reads (besides the sources of the read model's events).
const VIEW_STATE_KEYS: [&str; 6] = [
    "runtime",
    "hydration",
    "actions",
    "diagnostics",
    "artifacts",
    "evidence",
];

/// The view of the batch projection of `events` (`Val::Event(i)` is event `i`).
fn view_of_events(
    events: &[Value],
    rm: Option<&Value>,
) -> Result<Val, crate::contract::event::EventError> {
    let projector = crate::projection::projector::projected(events, Val::Num(0.0), false)?;
    let state = projector.state_compact()?;
    Ok(view_of_state(
        &state,
        &|v| projector.expand(v),
        events,
        rm,
        &single_event_actions,
    ))
}

/// The view of a projection's `state` of `events` as the projection holds it (its objects made
/// from one event may be left to make, `expand` makes them): only the keys the view reads are
/// built whole ([`VIEW_STATE_KEYS`]), and the read model's events are read for their sources
/// (made from their events, or objects naming them).
pub fn view_of_state(
    state: &Val,
    expand: &dyn Fn(&Val) -> Val,
    events: &[Value],
    rm: Option<&Value>,
    project_actions: ProjectActions<'_>,
) -> Val {
    let mut whole = Obj::with_capacity(VIEW_STATE_KEYS.len());
    for k in VIEW_STATE_KEYS {
        whole.push(k, expand(state.get(k).unwrap_or(&Val::Undef)));
    }
    let src: Vec<Ev<'_>> = state
        .get("readModel")
        .and_then(|r| r.get("events"))
        .and_then(Val::as_arr)
        .unwrap_or(&[])
        .iter()
        .filter_map(|p| match p {
            Val::Made(m) => Some(m.event),
            _ => match p.get("source") {
                Some(Val::Event(i)) => Some(*i),
                _ => None,
            },
        })
        .filter_map(|i| events.get(i as usize).map(Ev::of))
        .collect();
    project_coding_workbench_view_of(&whole.into_val(), &src, rm, project_actions, None)
}

// ---- the view ----

fn status_of(o: &Obj) -> Option<&str> {
    obj_str(o, "status")
}

fn main_status(state: &Val, coding: &[Ev<'_>]) -> &'static str {
    if let Some(t) = coding
        .iter()
        .rev()
        .find(|e| e.str("eventClass").is_some_and(|c| c.starts_with("turn.")))
    {
        match t.cls() {
            "turn.completed" => return "completed",
            "turn.failed" => return "failed",
            "turn.canceled" => return "degraded",
            _ => {}
        }
    }
    if coding.iter().any(|e| e.str("status") == Some("blocked")) {
        return "blocked";
    }
    if coding.iter().any(|e| e.str("status") == Some("failed")) {
        return "failed";
    }
    let rs = state
        .get("runtime")
        .and_then(|r| r.get("status"))
        .and_then(Val::as_str);
    match rs {
        Some("running" | "waiting") => "running",
        Some("completed") => "completed",
        _ if coding.is_empty() => "idle",
        _ => "degraded",
    }
}

/// `projectCodingWorkbenchView(state, codingReadModel)` with the reference's read-model action
/// merge done through `project_actions`.
pub fn project_coding_workbench_view_with(
    state: &Val,
    coding_read_model: Option<&Value>,
    events: &[Value],
    project_actions: ProjectActions<'_>,
) -> Val {
    view_of_state(
        state,
        &Val::clone,
        events,
        coding_read_model,
        project_actions,
    )
}

/// Where the caller's own objects of a state are in the list the view's `Val::Event`s index
/// (`projectCodingWorkbenchView` of a state from JS): the reference's view holds the state's
/// `runtime` and, when no request of the coding read model is merged into them, its `actions`
/// themselves, not copies.
#[derive(Clone, Copy, Debug)]
pub struct StateRefs {
    pub runtime: u32,
    pub actions: u32,
}

/// The view of `state` whose read model's events have the sources `src` (the state's
/// `readModel` itself is not read). With `refs`, the state's objects the view holds are the
/// caller's own (see [`StateRefs`]).
pub fn project_coding_workbench_view_of(
    state: &Val,
    src: &[Ev<'_>],
    coding_read_model: Option<&Value>,
    project_actions: ProjectActions<'_>,
    refs: Option<StateRefs>,
) -> Val {
    let rm = coding_read_model.and_then(Value::as_object);
    let coding = coding_events(src);
    let changes = merge_changes(collect_changes(&coding), rm);
    let files = merge_files(collect_files(&coding), &changes, rm);
    let patches = collect_patches(&coding);
    let commands = merge_by_id(
        collect_commands(&coding),
        "commandId",
        rm_list(rm, "commands").filter_map(command_from_rm),
    );
    let tests = merge_by_id(
        collect_tests(&coding),
        "testRunId",
        rm_list(rm, "tests").filter_map(test_from_rm),
    );
    let actions = merge_actions(
        state.get("actions").unwrap_or(&Val::Undef),
        coding_read_model,
        project_actions,
        refs,
    );
    // `codingEvents.some((event) => event.id === diagnostic.sourceEventId)`: a string id by its
    // value (through the set); any other as JS compares it, a primitive by value, a record or a
    // list by identity, here by value (a diagnostic's source id is its own event's id).
    let coding_ids: HashSet<&str> = coding.iter().filter_map(|e| e.id()).collect();
    let diagnostics: Vec<Val> = state
        .get("diagnostics")
        .and_then(Val::as_arr)
        .unwrap_or(&[])
        .iter()
        .filter(|d| match d.get("sourceEventId").unwrap_or(&Val::Undef) {
            Val::Str(s) => coding_ids.contains(&**s),
            Val::Num(n) if n.is_nan() => false,
            sid => coding.iter().any(|e| deep_equal(&e.val("id"), sid)),
        })
        .cloned()
        .collect();

    let runtime = state.get("runtime").cloned().unwrap_or(Val::Undef);
    let latest = coding.last().copied();
    let rm_str = |a: &str, b: &str| vstr(&[get(rm, a), get(rm, b)]);
    let id = or(
        latest.map(|e| e.val("turnId")).unwrap_or(Val::Undef),
        or(
            runtime.get("activeTurnId").cloned().unwrap_or(Val::Undef),
            opt(rm_str("active_turn_id", "activeTurnId")
                .or_else(|| rm_str("thread_id", "threadId"))
                .or(Some("coding-workbench"))),
        ),
    );
    let title = or(
        latest.map(|e| e.val("title")).unwrap_or(Val::Undef),
        Val::str("Coding Workbench"),
    );
    let last_running = |items: &[Obj], key: &str| {
        items
            .iter()
            .rev()
            .find(|o| status_of(o) == Some("running"))
            .map(|o| obj_get(o, key))
            .unwrap_or(Val::Undef)
    };
    let active_command = match rm_str("active_command_id", "activeCommandId") {
        Some(s) => Val::str(s),
        None => last_running(&commands, "commandId"),
    };
    let active_test = match rm_str("active_test_run_id", "activeTestRunId") {
        Some(s) => Val::str(s),
        None => last_running(&tests, "testRunId"),
    };
    let main = Obj::new()
        .k("id", id)
        .k("title", title)
        .k("status", Val::str(main_status(state, &coding)))
        .k(
            "activeFilePath",
            files
                .last()
                .map(|f| obj_get(f, "path"))
                .unwrap_or(Val::Undef),
        )
        .k("activePatchId", last_running(&patches, "patchId"))
        .k("activeCommandId", active_command)
        .k("activeTestRunId", active_test)
        .k(
            "sourceEventId",
            latest.map(|e| e.val("id")).unwrap_or(Val::Undef),
        );

    let tab = if tests.iter().any(|t| status_of(t) == Some("failed")) || !commands.is_empty() {
        "outputs"
    } else if !changes.is_empty() {
        "changes"
    } else {
        "preview"
    };
    let hydration = state
        .get("hydration")
        .and_then(|h| h.get("status"))
        .and_then(Val::as_str);
    let ui = Obj::new().k("preferredTab", Val::str(tab)).k(
        "stale",
        Val::Bool(matches!(hydration, Some("stale" | "degraded"))),
    );
    let arr = |items: Vec<Obj>| Val::arr(items.into_iter().map(Obj::into_val).collect());
    Obj::new()
        .k(
            "runtime",
            refs.map_or_else(|| runtime.clone(), |r| Val::Event(r.runtime)),
        )
        .k("mainObject", main.into_val())
        .k("files", arr(files))
        .k("changes", arr(changes))
        .k("patches", arr(patches))
        .k("changeSummary", change_summary(rm))
        .k("commands", arr(commands))
        .k("tests", arr(tests))
        .k("actions", actions)
        .k(
            "artifacts",
            state.get("artifacts").cloned().unwrap_or(Val::Undef),
        )
        .k(
            "evidence",
            state.get("evidence").cloned().unwrap_or(Val::Undef),
        )
        .k("diagnostics", Val::arr(diagnostics))
        .k("ui", ui.into_val())
        .into_val()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_markers_and_paths() {
        assert!(has_secret_marker("x API_KEY=1", false));
        assert!(!has_secret_marker("token: x", false));
        assert!(has_secret_marker("token: x", true));
        assert!(has_secret_marker("Password\u{3000}x", true));
        assert!(!has_secret_marker("tokens", true));
        assert_eq!(safe_path(Some("src/a.ts")), Some("src/a.ts"));
        assert_eq!(safe_path(Some("C:/x")), None);
        assert_eq!(safe_path(Some("/etc")), None);
        assert_eq!(safe_path(Some("file:x")), None);
        assert_eq!(safe_path(Some("a?secret=1")), None);
        assert_eq!(safe_path(Some("a/API-Key=1")), None);
        assert_eq!(safe_path(Some("x=1&Authorization=b")), None);
        assert_eq!(safe_path(Some("=token=")), None);
        assert_eq!(safe_path(Some("tokens=1")), Some("tokens=1"));
        assert_eq!(safe_path(Some("token")), Some("token"));
        assert_eq!(safe_path(Some("é=token")), Some("é=token"));
    }
}

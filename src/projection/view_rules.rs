//! The per-event rules of the read model (an event's surface, its status keys, its action) and of
//! MCP tool names, kept as data tables.
//!
//! The projection evaluates these tables for every event it projects. The JS wrapper gets the
//! same tables once at import ([`rules_json`]) and evaluates them for the reference's per-event
//! helpers (`agentEventSurface`, `agentEventStatusKey`, `projectAgentRuntimeAction`,
//! `parseAgentUiMcpToolName`, ...), which must cost a fraction of a microsecond: a WebAssembly
//! call with JSON in and out would cost several. The rules themselves live only here.
//!
//! Every table is ordered: the first rule that matches decides.

use crate::contract::js::{includes, js_lower, js_trim, split_once_at};
use crate::contract::val::{write_json_list as items, write_json_str, write_json_str_list as list};

// ---- status keys ------------------------------------------------------------------------------

/// `agentEventStatusKey`: the display key of each known status.
pub const STATUS_KEYS: [(&str, &str); 5] = [
    ("completed", "agent.status.completed"),
    ("running", "agent.status.running"),
    ("blocked", "agent.status.blocked"),
    ("canceled", "agent.status.canceled"),
    ("failed", "agent.status.failed"),
];

/// The display key of any other status.
pub const DEFAULT_STATUS_KEY: &str = "agent.status.pending";

/// The class of an event asking a human for an action.
pub const ACTION_REQUIRED_CLASS: &str = "action.required";

/// The classes that resolve an action.
pub const ACTION_TERMINAL_CLASSES: [&str; 4] = [
    "action.resolved",
    "action.cancelled",
    "action.canceled",
    "action.expired",
];

/// Display key of an open action request.
pub const ACTION_REQUIRED_KEY: &str = "agent.status.actionRequired";

/// Display key of an action resolution, and of a request once resolved.
pub const ACTION_RESOLVED_KEY: &str = "agent.status.actionResolved";

/// `agentEventDisplayStatusKey`: the classes whose display key does not depend on the status.
pub const CLASS_DISPLAY_KEYS: [(&str, &str); 5] = [
    (ACTION_REQUIRED_CLASS, ACTION_REQUIRED_KEY),
    ("action.resolved", ACTION_RESOLVED_KEY),
    ("action.cancelled", ACTION_RESOLVED_KEY),
    ("action.canceled", ACTION_RESOLVED_KEY),
    ("action.expired", ACTION_RESOLVED_KEY),
];

/// `agentEventStatusKey(status)`.
pub fn status_key(status: Option<&str>) -> &'static str {
    STATUS_KEYS
        .iter()
        .find(|(s, _)| Some(*s) == status)
        .map_or(DEFAULT_STATUS_KEY, |(_, k)| k)
}

/// Is `cls` one of the classes that resolve an action?
pub fn is_action_terminal(cls: &str) -> bool {
    ACTION_TERMINAL_CLASSES.contains(&cls)
}

/// `agentEventDisplayStatusKey`: the key of an event of class `cls` and status `status`.
pub fn display_status_key(cls: &str, status: Option<&str>) -> &'static str {
    CLASS_DISPLAY_KEYS
        .iter()
        .find(|(c, _)| *c == cls)
        .map_or_else(|| status_key(status), |(_, k)| k)
}

// ---- actions ----------------------------------------------------------------------------------

/// Payload key of an action's kind (a string, else the kind is "").
pub const ACTION_KIND_KEY: &str = "actionKind";
/// Payload key of an action's target module (a string, else "").
pub const TARGET_MODULE_KEY: &str = "targetModule";
/// Payload key of an action request's controls (an array of strings).
pub const CONTROLS_KEY: &str = "controls";
/// Payload key by which a resolution names the request event it resolves.
pub const RESOLVED_FROM_KEY: &str = "resolvedFromEventId";
/// The label key of a control is this prefix and the control.
pub const CONTROL_LABEL_PREFIX: &str = "agent.action.";

/// How an action request is presented, by its kind and target module.
pub struct ActionRule {
    /// The rule applies when the action kind is one of these...
    pub action_kinds: &'static [&'static str],
    /// ...or the target module is one of these.
    pub target_modules: &'static [&'static str],
    pub label_key: &'static str,
    pub decision: &'static str,
    /// The action kind shown when the event has none (empty).
    pub default_action_kind: &'static str,
    /// An action request or resolution this rule applies to asks to add an input source
    /// (`isAgentInputSourceRecoveryEvent`).
    pub input_source_recovery: bool,
}

/// `projectAgentRuntimeAction`: the first rule that applies decides.
pub const ACTION_RULES: [ActionRule; 2] = [
    ActionRule {
        action_kinds: &["configure-text-model"],
        target_modules: &[],
        label_key: "agent.action.configureTextModel",
        decision: "open-model-settings",
        default_action_kind: "",
        input_source_recovery: false,
    },
    ActionRule {
        action_kinds: &["add-input-source"],
        target_modules: &["knowledge-inputs"],
        label_key: "agent.action.addInputSource",
        decision: "open-input-source",
        default_action_kind: "add-input-source",
        input_source_recovery: true,
    },
];

/// `(labelKey, decision)` when no rule applies.
pub const FALLBACK_ACTION: (&str, &str) = ("agent.action.acknowledge", "acknowledge");

impl ActionRule {
    fn applies(&self, action_kind: &str, target_module: &str) -> bool {
        self.action_kinds.contains(&action_kind) || self.target_modules.contains(&target_module)
    }
}

/// `projectAgentRuntimeAction`: `(actionKind, labelKey, decision)` of an action whose payload
/// gives `action_kind` and `target_module` ("" when not strings).
pub fn action_of<'a>(
    action_kind: &'a str,
    target_module: &str,
) -> (&'a str, &'static str, &'static str) {
    match ACTION_RULES
        .iter()
        .find(|r| r.applies(action_kind, target_module))
    {
        Some(r) if action_kind.is_empty() => (r.default_action_kind, r.label_key, r.decision),
        Some(r) => (action_kind, r.label_key, r.decision),
        None => (action_kind, FALLBACK_ACTION.0, FALLBACK_ACTION.1),
    }
}

/// `isAgentInputSourceRecoveryEvent`, from the event's class and its payload's action kind and
/// target module.
pub fn is_input_source_recovery(cls: &str, action_kind: &str, target_module: &str) -> bool {
    (cls == ACTION_REQUIRED_CLASS || is_action_terminal(cls))
        && ACTION_RULES
            .iter()
            .any(|r| r.input_source_recovery && r.applies(action_kind, target_module))
}

// ---- surfaces ---------------------------------------------------------------------------------

/// An event is on `surface` when its class is one of `classes` or starts with one of
/// `class_prefixes`, or its kind is one of `kinds`, or its phase one of `phases`.
pub struct SurfaceRule {
    pub surface: &'static str,
    pub classes: &'static [&'static str],
    pub class_prefixes: &'static [&'static str],
    pub kinds: &'static [&'static str],
    pub phases: &'static [&'static str],
}

/// `agentEventSurface`: the first rule that applies decides.
pub const SURFACE_RULES: [SurfaceRule; 8] = [
    SurfaceRule {
        surface: "human-action",
        classes: &[ACTION_REQUIRED_CLASS],
        class_prefixes: &[],
        kinds: &["action"],
        phases: &[],
    },
    SurfaceRule {
        surface: "permission",
        classes: &[],
        class_prefixes: &["permission.", "sandbox."],
        kinds: &["permission", "sandbox"],
        phases: &[],
    },
    SurfaceRule {
        surface: "artifact",
        classes: &["artifact.changed"],
        class_prefixes: &[],
        kinds: &["draft"],
        phases: &[],
    },
    SurfaceRule {
        surface: "evidence",
        classes: &["evidence.changed"],
        class_prefixes: &[],
        kinds: &["evidence"],
        phases: &[],
    },
    SurfaceRule {
        surface: "runtime-status",
        classes: &["snapshot.updated"],
        class_prefixes: &[],
        kinds: &["state"],
        phases: &[],
    },
    SurfaceRule {
        surface: "context",
        classes: &["context.resolved"],
        class_prefixes: &[],
        kinds: &["context", "source"],
        phases: &[],
    },
    SurfaceRule {
        surface: "tool",
        classes: &[],
        class_prefixes: &["tool."],
        kinds: &["skill", "tool"],
        phases: &["tool_running"],
    },
    SurfaceRule {
        surface: "runtime-status",
        classes: &[],
        class_prefixes: &[],
        kinds: &["model"],
        phases: &[],
    },
];

/// The surface of an event no rule applies to.
pub const DEFAULT_SURFACE: &str = "message";

/// `agentEventSurface`, from the event's class ("" when not a string), kind and phase.
pub fn surface_of(cls: &str, kind: Option<&str>, phase: Option<&str>) -> &'static str {
    let hit = |list: &[&str], v: Option<&str>| v.is_some_and(|v| list.contains(&v));
    SURFACE_RULES
        .iter()
        .find(|r| {
            r.classes.contains(&cls)
                || r.class_prefixes.iter().any(|p| cls.starts_with(p))
                || hit(r.kinds, kind)
                || hit(r.phases, phase)
        })
        .map_or(DEFAULT_SURFACE, |r| r.surface)
}

// ---- tool surface ------------------------------------------------------------------------------

/// A read-model projection is on the tool surface when its surface is one of `surfaces`, or its
/// event's kind is one of `kinds`, its class starts with one of `class_prefixes` or its phase is
/// one of `phases`.
pub struct ToolProjectionRule {
    pub surfaces: &'static [&'static str],
    pub kinds: &'static [&'static str],
    pub class_prefixes: &'static [&'static str],
    pub phases: &'static [&'static str],
}

/// The tool projections (`projectAgentUiToolSurface`).
pub const TOOL_PROJECTION: ToolProjectionRule = ToolProjectionRule {
    surfaces: &["tool"],
    kinds: &["tool", "skill"],
    class_prefixes: &["tool."],
    phases: &["tool_running"],
};

/// The members of a read-model projection the tool surface reads: its event, surface, title
/// and detail (the JS wrapper sends only these of each tool projection).
pub const TOOL_PROJECTION_FIELDS: [&str; 4] = ["source", "surface", "title", "detail"];

/// Is a projection with this surface, of an event with this class ("" when not a string), kind
/// and phase, a tool projection?
pub fn is_tool_projection(
    surface: Option<&str>,
    cls: &str,
    kind: Option<&str>,
    phase: Option<&str>,
) -> bool {
    let r = &TOOL_PROJECTION;
    let hit = |list: &[&str], v: Option<&str>| v.is_some_and(|v| list.contains(&v));
    hit(r.surfaces, surface)
        || hit(r.kinds, kind)
        || r.class_prefixes.iter().any(|p| cls.starts_with(p))
        || hit(r.phases, phase)
}

// ---- runtime status and subagents --------------------------------------------------------------

/// The runtime status when no event decides one.
pub const RUNTIME_IDLE: &str = "idle";

/// Idle first, then every runtime status an event stands for (the JS side gets a status as its
/// position here).
pub const RUNTIME_STATUSES: [&str; 7] = [
    RUNTIME_IDLE,
    "running",
    "waiting",
    "blocked",
    "completed",
    "canceled",
    "failed",
];

/// The position of `status` in [`RUNTIME_STATUSES`].
pub fn runtime_status_code(status: &str) -> u8 {
    RUNTIME_STATUSES
        .iter()
        .position(|s| *s == status)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(0)
}

/// The runtime status view's fields besides `status`, each the latest event's field.
pub const RUNTIME_VIEW_FIELDS: [(&str, &str); 5] = [
    ("activeTurnId", "turnId"),
    ("activeRunId", "runId"),
    ("activeTaskId", "taskId"),
    ("latestEventId", "id"),
    ("latestSequence", "sequence"),
];

/// Event fields naming the subagent thread of an event, in order: the first present and not
/// null decides (`??`).
pub const SUBAGENT_THREAD_FIELDS: [&str; 2] = ["subagentId", "workerId"];

/// Payload keys naming it when no field does: the first string with non-blank content.
pub const SUBAGENT_THREAD_PAYLOAD_KEYS: [&str; 6] = [
    "subagentId",
    "agentThreadId",
    "childThreadId",
    "childSessionId",
    "session_id",
    "targetThreadId",
];

// ---- state deltas ------------------------------------------------------------------------------

/// The class of a `state.delta` event (a repair patch of the projection state).
pub const STATE_DELTA_CLASS: &str = "state.delta";

// ---- coding ------------------------------------------------------------------------------------

/// A coding event's class starts with one of these...
pub const CODING_CLASS_PREFIXES: [&str; 4] = ["file.", "patch.", "command.", "test."];
/// ...or is one of these...
pub const CODING_CLASSES: [&str; 1] = ["sandbox.blocked"];
/// ...or its payload has this key with this value.
pub const CODING_PROFILE: (&str, &str) = ("profileId", "coding");
/// Events of classes starting with this join the coding events when they share a turn or a task
/// with one.
pub const CODING_TURN_PREFIX: &str = "turn.";

// ---- MCP tool names ---------------------------------------------------------------------------

/// An MCP tool name is `mcp__<server>__<tool>` (prefix compared case-insensitively).
pub const MCP_PREFIX: &str = "mcp__";
/// What separates the server from the tool (the tool name may contain it again).
pub const MCP_SEPARATOR: &str = "__";
/// The server of a name with an empty server part.
pub const MCP_DEFAULT_SERVER: &str = "unknown";
/// The tool of a name with an empty tool part.
pub const MCP_DEFAULT_TOOL: &str = "tool";

/// Names (lower-cased, only `[a-z0-9]` kept) classified even though they do not parse as
/// `mcp__<server>__<tool>`.
pub const MCP_BARE_NAMES: [&str; 3] = ["mcp", "mcptool", "mcpauthtool"];

/// An operation kind applies when the compacted tool name (lower-cased, only `[a-z0-9]` kept)
/// is one of `compact_equals` or contains one of `compact_contains`, or the lower-cased tool
/// name has one of `words` between `_` separators (or the string's ends).
pub struct McpOperationRule {
    pub kind: &'static str,
    pub compact_equals: &'static [&'static str],
    pub compact_contains: &'static [&'static str],
    pub words: &'static [&'static str],
}

/// `classifyAgentUiMcpOperationKind`: the first rule that applies decides.
pub const MCP_OPERATION_RULES: [McpOperationRule; 8] = [
    McpOperationRule {
        kind: "auth",
        compact_equals: &["mcpauth", "mcpauthtool"],
        compact_contains: &[],
        words: &[],
    },
    McpOperationRule {
        kind: "prompt",
        compact_equals: &[],
        compact_contains: &["prompt"],
        words: &[],
    },
    McpOperationRule {
        kind: "resource",
        compact_equals: &[],
        compact_contains: &["resource"],
        words: &[],
    },
    McpOperationRule {
        kind: "browser",
        compact_equals: &[],
        compact_contains: &[],
        words: &[
            "browser",
            "navigate",
            "click",
            "screenshot",
            "snapshot",
            "page",
        ],
    },
    McpOperationRule {
        kind: "mutation",
        compact_equals: &[],
        compact_contains: &[],
        words: &[
            "create", "update", "delete", "write", "send", "post", "mutate", "execute", "run",
        ],
    },
    McpOperationRule {
        kind: "search",
        compact_equals: &[],
        compact_contains: &[],
        words: &["search", "find", "lookup", "query"],
    },
    McpOperationRule {
        kind: "list",
        compact_equals: &[],
        compact_contains: &[],
        words: &["list"],
    },
    McpOperationRule {
        kind: "read",
        compact_equals: &[],
        compact_contains: &[],
        words: &["get", "read", "fetch", "open"],
    },
];

/// The operation kind of a classified name no rule applies to.
pub const DEFAULT_MCP_OPERATION: &str = "tool";

/// `parseAgentUiMcpToolName(name)`: `(serverId, toolName)`.
pub fn parse_mcp_tool_name(name: &str) -> Option<(String, String)> {
    let t = js_trim(name);
    if !js_lower(t).starts_with(MCP_PREFIX) {
        return None;
    }
    // The second part of `t.split("__")` is the server, the rest joined again the tool.
    let (_, rest) = split_once_at(t, MCP_SEPARATOR)?;
    let (server, tool) = split_once_at(rest, MCP_SEPARATOR)?;
    let mut tool = tool.to_string();
    let server = if server.is_empty() {
        MCP_DEFAULT_SERVER
    } else {
        server
    };
    if tool.is_empty() {
        tool = MCP_DEFAULT_TOOL.to_string();
    }
    Some((server.to_string(), tool))
}

/// `classifyAgentUiMcpOperationKind(name)`.
pub fn classify_mcp_operation_kind(name: &str) -> Option<&'static str> {
    let parsed = parse_mcp_tool_name(name);
    let inner = parsed.as_ref().map_or(name, |p| p.1.as_str());
    let lc = js_lower(js_trim(inner));
    let compact: String = lc
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .collect();
    if parsed.is_none() && !MCP_BARE_NAMES.contains(&compact.as_str()) {
        return None;
    }
    let has_word = |words: &[&str]| lc.split('_').any(|seg| words.contains(&seg));
    let rule = MCP_OPERATION_RULES.iter().find(|r| {
        r.compact_equals.contains(&compact.as_str())
            || r.compact_contains.iter().any(|w| includes(&compact, w))
            || has_word(r.words)
    });
    Some(rule.map_or(DEFAULT_MCP_OPERATION, |r| r.kind))
}

// ---- the tables as JSON -----------------------------------------------------------------------

fn key(k: &str, out: &mut String) {
    write_json_str(k, out);
    out.push(':');
}

fn str_member(k: &str, v: &str, out: &mut String) {
    key(k, out);
    write_json_str(v, out);
}

/// Every table of this module as one JSON object (what the JS wrapper evaluates):
///
/// ```text
/// {"readModel": {"statusKeys": [[status, key]...], "classDisplayKeys": [[class, key]...],
///    "defaultStatusKey", "actionRequiredClass",
///    "actionTerminalClasses", "actionRequiredKey", "actionResolvedKey", "actionKindKey",
///    "targetModuleKey", "controlsKey", "resolvedFromKey", "controlLabelPrefix",
///    "actionRules": [{actionKinds, targetModules, labelKey, decision, defaultActionKind,
///    inputSourceRecovery}...], "fallbackAction": {labelKey, decision},
///    "surfaceRules": [{surface, classes, classPrefixes, kinds, phases}...], "defaultSurface"},
///  "runtimeStatuses", "stateDeltaClass", "supersessionFields" (read by the package build, which
///    writes the wrapper's reader of an event's supersession fields), "areaReads": [[area,
///    [field...]]...], "stateDeltaRecordKey",
///  "stateDeltaPatchKeys", "refViews": [[stateKey, idsField]...],
///  "stateDeltaOps": [[op, member, string]...],
///  "runtimeViewFields": [[viewKey, eventField]...] (read by the package build, which writes the
///    runtime status view as an object literal: scripts/assemble-pkg.mjs),
///  "subagents": {"threadFields", "threadPayloadKeys"},
///  "toolProjection": {"surfaces", "kinds", "classPrefixes", "phases", "fields"},
///  "coding": {"classPrefixes", "classes", "profile": [key, value], "turnPrefix"},
///  "mcp": {"prefix", "separator", "defaultServer", "defaultTool", "bareNames",
///    "operationRules": [{kind, compactEquals, compactContains, words}...], "defaultOperation"}}
/// ```
pub fn rules_json() -> String {
    let mut s = String::with_capacity(4096);
    s.push_str("{\"readModel\":{\"statusKeys\":[");
    for (i, (st, k)) in STATUS_KEYS.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        list(&[st, k], &mut s);
    }
    s.push_str("],\"classDisplayKeys\":[");
    for (i, (c, k)) in CLASS_DISPLAY_KEYS.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        list(&[c, k], &mut s);
    }
    s.push_str("],");
    for (k, v) in [
        ("defaultStatusKey", DEFAULT_STATUS_KEY),
        ("actionRequiredClass", ACTION_REQUIRED_CLASS),
        ("actionRequiredKey", ACTION_REQUIRED_KEY),
        ("actionResolvedKey", ACTION_RESOLVED_KEY),
        ("actionKindKey", ACTION_KIND_KEY),
        ("targetModuleKey", TARGET_MODULE_KEY),
        ("controlsKey", CONTROLS_KEY),
        ("resolvedFromKey", RESOLVED_FROM_KEY),
        ("controlLabelPrefix", CONTROL_LABEL_PREFIX),
        ("defaultSurface", DEFAULT_SURFACE),
    ] {
        str_member(k, v, &mut s);
        s.push(',');
    }
    key("actionTerminalClasses", &mut s);
    list(&ACTION_TERMINAL_CLASSES, &mut s);
    s.push_str(",\"actionRules\":[");
    for (i, r) in ACTION_RULES.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push('{');
        key("actionKinds", &mut s);
        list(r.action_kinds, &mut s);
        s.push(',');
        key("targetModules", &mut s);
        list(r.target_modules, &mut s);
        s.push(',');
        str_member("labelKey", r.label_key, &mut s);
        s.push(',');
        str_member("decision", r.decision, &mut s);
        s.push(',');
        str_member("defaultActionKind", r.default_action_kind, &mut s);
        s.push_str(",\"inputSourceRecovery\":");
        s.push_str(if r.input_source_recovery {
            "true"
        } else {
            "false"
        });
        s.push('}');
    }
    s.push_str("],\"fallbackAction\":{");
    str_member("labelKey", FALLBACK_ACTION.0, &mut s);
    s.push(',');
    str_member("decision", FALLBACK_ACTION.1, &mut s);
    s.push_str("},\"surfaceRules\":[");
    for (i, r) in SURFACE_RULES.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push('{');
        str_member("surface", r.surface, &mut s);
        for (k, l) in [
            ("classes", r.classes),
            ("classPrefixes", r.class_prefixes),
            ("kinds", r.kinds),
            ("phases", r.phases),
        ] {
            s.push(',');
            key(k, &mut s);
            list(l, &mut s);
        }
        s.push('}');
    }
    s.push_str("]},");
    key("runtimeStatuses", &mut s);
    list(&RUNTIME_STATUSES, &mut s);
    s.push(',');
    str_member("stateDeltaClass", STATE_DELTA_CLASS, &mut s);
    s.push(',');
    key("supersessionFields", &mut s);
    list(&super::state_delta::SUPERSESSION_FIELDS, &mut s);
    s.push(',');
    key("areaReads", &mut s);
    items(
        &super::state_delta::AREA_READS,
        &mut s,
        |(area, fields), s| {
            s.push('[');
            write_json_str(area, s);
            s.push(',');
            list(fields, s);
            s.push(']');
        },
    );
    s.push(',');
    str_member(
        "stateDeltaRecordKey",
        super::state_delta::STATE_DELTA_RECORD_KEY,
        &mut s,
    );
    s.push(',');
    key("stateDeltaPatchKeys", &mut s);
    list(&super::state_delta::STATE_DELTA_PATCH_KEYS, &mut s);
    s.push_str(",\"refViews\":");
    items(&super::refs::REF_VIEWS, &mut s, |(views, ids), s| {
        list(&[views, ids], s)
    });
    s.push_str(",\"stateDeltaOps\":");
    items(
        &super::state_delta::STATE_DELTA_OPS,
        &mut s,
        |(op, member, string), s| {
            s.push('[');
            write_json_str(op, s);
            s.push(',');
            write_json_str(member, s);
            s.push_str(if *string { ",true]" } else { ",false]" });
        },
    );
    s.push_str(",\"runtimeViewFields\":");
    items(&RUNTIME_VIEW_FIELDS, &mut s, |(k, f), s| list(&[k, f], s));
    s.push_str(",\"subagents\":{");
    key("threadFields", &mut s);
    list(&SUBAGENT_THREAD_FIELDS, &mut s);
    s.push(',');
    key("threadPayloadKeys", &mut s);
    list(&SUBAGENT_THREAD_PAYLOAD_KEYS, &mut s);
    s.push_str("},\"toolProjection\":{");
    for (i, (k, l)) in [
        ("surfaces", TOOL_PROJECTION.surfaces),
        ("kinds", TOOL_PROJECTION.kinds),
        ("classPrefixes", TOOL_PROJECTION.class_prefixes),
        ("phases", TOOL_PROJECTION.phases),
        ("fields", &TOOL_PROJECTION_FIELDS),
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            s.push(',');
        }
        key(k, &mut s);
        list(l, &mut s);
    }
    s.push_str("},\"fixtureReplay\":{");
    key("readModels", &mut s);
    list(&crate::contract::validation::FIXTURE_READ_MODELS, &mut s);
    s.push(',');
    key("projectionLists", &mut s);
    list(
        &crate::contract::validation::READ_MODEL_PROJECTION_LISTS,
        &mut s,
    );
    s.push_str("},\"coding\":{");
    key("classPrefixes", &mut s);
    list(&CODING_CLASS_PREFIXES, &mut s);
    s.push(',');
    key("classes", &mut s);
    list(&CODING_CLASSES, &mut s);
    s.push(',');
    key("profile", &mut s);
    list(&[CODING_PROFILE.0, CODING_PROFILE.1], &mut s);
    s.push(',');
    str_member("turnPrefix", CODING_TURN_PREFIX, &mut s);
    s.push_str("},\"mcp\":{");
    for (k, v) in [
        ("prefix", MCP_PREFIX),
        ("separator", MCP_SEPARATOR),
        ("defaultServer", MCP_DEFAULT_SERVER),
        ("defaultTool", MCP_DEFAULT_TOOL),
        ("defaultOperation", DEFAULT_MCP_OPERATION),
    ] {
        str_member(k, v, &mut s);
        s.push(',');
    }
    key("bareNames", &mut s);
    list(&MCP_BARE_NAMES, &mut s);
    s.push_str(",\"operationRules\":[");
    for (i, r) in MCP_OPERATION_RULES.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push('{');
        str_member("kind", r.kind, &mut s);
        for (k, l) in [
            ("compactEquals", r.compact_equals),
            ("compactContains", r.compact_contains),
            ("words", r.words),
        ] {
            s.push(',');
            key(k, &mut s);
            list(l, &mut s);
        }
        s.push('}');
    }
    s.push_str("]}}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_json_is_json() {
        let v: serde_json::Value =
            serde_json::from_str(&rules_json()).unwrap_or(serde_json::Value::Null);
        assert_eq!(
            v["readModel"]["surfaceRules"].as_array().map(Vec::len),
            Some(SURFACE_RULES.len())
        );
        assert_eq!(v["mcp"]["operationRules"][3]["words"][0], "browser");
    }

    #[test]
    fn mcp_words_are_plain_lowercase() {
        // The JS wrapper turns each word list into a regular expression without escaping.
        for r in &MCP_OPERATION_RULES {
            for w in r.words {
                assert!(w.bytes().all(|b| b.is_ascii_lowercase()), "{w}");
            }
        }
    }

    #[test]
    fn class_display_keys_cover_the_action_classes() {
        let classes: Vec<&str> = CLASS_DISPLAY_KEYS.iter().map(|(c, _)| *c).collect();
        assert_eq!(classes[0], ACTION_REQUIRED_CLASS);
        assert_eq!(&classes[1..], &ACTION_TERMINAL_CLASSES[..]);
        assert_eq!(
            display_status_key("x", Some("failed")),
            "agent.status.failed"
        );
    }

    #[test]
    fn runtime_status_codes() {
        assert_eq!(RUNTIME_STATUSES[0], RUNTIME_IDLE);
        for (i, s) in RUNTIME_STATUSES.iter().enumerate() {
            assert_eq!(usize::from(runtime_status_code(s)), i);
        }
    }

    #[test]
    fn surfaces_follow_rule_order() {
        assert_eq!(
            surface_of("artifact.changed", Some("tool"), None),
            "artifact"
        );
        assert_eq!(surface_of("", Some("model"), Some("tool_running")), "tool");
        assert_eq!(surface_of("sandbox.applied", None, None), "permission");
        assert_eq!(surface_of("", None, None), "message");
    }

    #[test]
    fn actions_and_mcp_names() {
        assert_eq!(
            action_of("", "knowledge-inputs"),
            (
                "add-input-source",
                "agent.action.addInputSource",
                "open-input-source"
            )
        );
        assert_eq!(
            action_of("other", ""),
            ("other", "agent.action.acknowledge", "acknowledge")
        );
        assert!(is_input_source_recovery(
            "action.resolved",
            "configure-text-model",
            "knowledge-inputs"
        ));
        assert_eq!(
            parse_mcp_tool_name(" MCP__srv__a__b "),
            Some(("srv".into(), "a__b".into()))
        );
        assert_eq!(
            parse_mcp_tool_name("mcp____"),
            Some(("unknown".into(), "tool".into()))
        );
        assert_eq!(parse_mcp_tool_name("mcp__x"), None);
        assert_eq!(
            classify_mcp_operation_kind("mcp__s__list_items"),
            Some("list")
        );
        assert_eq!(classify_mcp_operation_kind("MCP Auth Tool"), Some("auth"));
        assert_eq!(classify_mcp_operation_kind("search"), None);
    }
}

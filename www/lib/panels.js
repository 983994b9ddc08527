// Human-readable views of the projection state, one function per panel.
// Long lists show only their tail (or a capped number of nodes) so huge streams stay responsive.

import { h, pill, clip, fmtInt, setChildren } from "./dom.js";

export const LIST_TAIL = 100;
const MESSAGE_TAIL = 40;
const TEXT_MAX = 6000;
const GRAPH_MAX = 250;

const str = (v) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
const arr = (v) => (Array.isArray(v) ? v : []);
const obj = (v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? v : {});

function tail(list, n) {
  const start = Math.max(0, list.length - n);
  return { items: list.slice(start), start };
}

function more(start, what) {
  return start > 0 ? h("div", { class: "more", text: `… ${fmtInt(start)} earlier ${what} not shown` }) : null;
}

function empty(text) {
  return h("div", { class: "empty", text });
}

function refsLine(refs) {
  const r = arr(refs).filter((x) => typeof x === "string");
  if (!r.length) return null;
  return h("div", { class: "refs" }, r.slice(0, 12).map((x) => h("span", { class: "ref", text: x })), r.length > 12 ? ` +${r.length - 12}` : null);
}

// ---------------------------------------------------------------------------------------------
// Messages

export function renderMessages(el, messages) {
  const list = arr(messages);
  if (!list.length) return setChildren(el, empty("No message parts yet."));
  const { items, start } = tail(list, MESSAGE_TAIL);
  setChildren(el, more(start, "parts"), items.map((p, i) => messagePart(obj(p), start + i)));
}

function messagePart(p, index) {
  const type = str(p.type);
  const meta = h("div", { class: "msg-meta" }, h("span", { class: "msg-type", text: type || "part" }), pill(p.state), h("span", { class: "muted", text: str(p.partId) }));
  const text = clip(str(p.text), TEXT_MAX);
  const base = { class: `msg mt-${type}`, "data-testid": "message-part", "data-type": type, "data-index": index };
  switch (type) {
    case "text":
      return h("div", base, meta, h("div", { class: "msg-text", text }), refsLine(p.refs));
    case "reasoning":
      return h("div", base, h("details", { class: "reasoning" }, h("summary", null, "Reasoning ", pill(p.state), " ", h("span", { class: "muted", text: clip(str(p.text), 80) })), h("div", { class: "msg-text", text })));
    case "plan":
      return h("div", base, meta, h("div", { class: "plan" }, str(p.text).split("\n").slice(0, 200).map((line) => h("div", { class: "plan-line", text: clip(line, 400) }))));
    case "tool-preview":
      return h("div", base, meta, h("div", { class: "chip-line" }, "Tool ", h("code", { text: str(p.toolCallId) }), ": ", text));
    case "artifact-card":
      return h("div", base, meta, h("div", { class: "chip-line" }, "Artifact ", h("code", { text: str(p.artifactId) }), ": ", text));
    case "evidence-citation":
      return h("div", base, meta, h("div", { class: "chip-line" }, "Evidence ", h("code", { text: str(p.evidenceId) }), ": ", text));
    case "diagnostic-ref":
      return h("div", base, meta, h("div", { class: "chip-line" }, "Diagnostic ", h("code", { text: str(p.diagnosticId) }), ": ", text));
    default:
      return h("div", base, meta, h("div", { class: "msg-text", text }));
  }
}

// ---------------------------------------------------------------------------------------------
// Timeline

export function renderTimeline(el, timeline) {
  const list = arr(timeline);
  if (!list.length) return setChildren(el, empty("No timeline entries yet."));
  const { items, start } = tail(list, LIST_TAIL);
  const rows = items.map((raw) => {
    const t = obj(raw);
    return h(
      "tr",
      null,
      h("td", { class: "num", text: str(t.sequence) }),
      h("td", null, h("span", { class: `kind kind-${str(t.kind)}`, text: str(t.kind) })),
      h("td", null, pill(t.status)),
      h("td", { class: "wrap" }, str(t.title), t.detail !== undefined ? h("div", { class: "muted small", text: clip(str(t.detail), 200) }) : null),
      h("td", { class: "muted small", text: str(t.phase || t.owner) })
    );
  });
  setChildren(
    el,
    more(start, "entries"),
    h("table", { class: "grid" }, h("thead", null, h("tr", null, ["seq", "kind", "status", "title", "phase/owner"].map((c) => h("th", { text: c })))), h("tbody", null, rows.reverse()))
  );
}

// ---------------------------------------------------------------------------------------------
// Execution graph (tree by parentId)

export function renderGraph(el, graph) {
  const nodes = arr(graph).map(obj);
  if (!nodes.length) return setChildren(el, empty("No graph nodes yet."));
  const byId = new Map();
  for (const n of nodes) if (!byId.has(n.nodeId)) byId.set(n.nodeId, n);
  const children = new Map();
  const roots = [];
  for (const n of nodes) {
    const parent = n.parentId;
    if (parent !== undefined && parent !== null && parent !== n.nodeId && byId.has(parent)) {
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(n);
    } else {
      roots.push(n);
    }
  }
  let shown = 0;
  const seen = new Set();
  // Iterative depth-first walk (no recursion on input; cycles are cut by `seen`).
  const out = h("ul", { class: "tree" });
  const stack = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i], into: out });
  while (stack.length && shown < GRAPH_MAX) {
    const { node, into } = stack.pop();
    if (seen.has(node)) continue;
    seen.add(node);
    shown++;
    const kids = children.get(node.nodeId) || [];
    const li = h(
      "li",
      { "data-testid": "graph-node" },
      h(
        "div",
        { class: "node" },
        h("span", { class: `ntype ntype-${str(node.nodeType)}`, text: str(node.nodeType) }),
        pill(node.status),
        h("span", { class: "ntitle", text: clip(str(node.title), 120) }),
        h("span", { class: "muted small", text: str(node.nodeId) }),
        arr(node.sourceEventIds).length > 1 ? h("span", { class: "muted small", text: `${arr(node.sourceEventIds).length} events` }) : null
      )
    );
    into.append(li);
    if (kids.length) {
      const ul = h("ul");
      li.append(ul);
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], into: ul });
    }
  }
  const hidden = nodes.length - shown;
  setChildren(el, out, hidden > 0 ? h("div", { class: "more", text: `… ${fmtInt(hidden)} more nodes not shown (first ${GRAPH_MAX} in tree order)` }) : null);
}

// ---------------------------------------------------------------------------------------------
// Tool calls

export function renderTools(el, toolCalls, mcp) {
  const tc = obj(toolCalls);
  const calls = arr(tc.calls).map(obj);
  const m = obj(mcp);
  if (!calls.length) return setChildren(el, empty("No tool calls yet."));
  const { items, start } = tail(calls, LIST_TAIL);
  const summary = h(
    "div",
    { class: "summary-line" },
    `${fmtInt(calls.length)} calls · ${fmtInt(arr(tc.activeCallIds).length)} active · ${fmtInt(arr(tc.completedCallIds).length)} completed · ${fmtInt(arr(tc.failedCallIds).length)} failed`,
    m.hasMcp ? ` · MCP servers: ${arr(m.servers).map((s) => str(obj(s).id)).join(", ")}` : null
  );
  const rows = items
    .map((c) =>
      h(
        "tr",
        { "data-testid": "tool-call" },
        h("td", null, pill(c.status)),
        h("td", { class: "wrap" }, h("b", { text: clip(str(c.displayName || c.toolName), 80) }), c.title && c.title !== c.displayName ? h("div", { class: "muted small", text: clip(str(c.title), 120) }) : null),
        h("td", { class: "small", text: str(c.family) }),
        h("td", { class: "num", text: arr(c.eventIds).length }),
        h("td", { class: "muted small", text: str(c.toolCallId || c.id) })
      )
    )
    .reverse();
  setChildren(el, summary, more(start, "calls"), h("table", { class: "grid" }, h("thead", null, h("tr", null, ["status", "tool", "family", "events", "toolCallId"].map((c) => h("th", { text: c })))), h("tbody", null, rows)));
}

// ---------------------------------------------------------------------------------------------
// Pending actions

export function renderActions(el, readModel, actions) {
  const pending = arr(obj(readModel).pendingActions).map(obj);
  const all = arr(actions);
  const head = h("div", { class: "summary-line" }, `${fmtInt(pending.length)} pending · ${fmtInt(all.length)} action events`);
  if (!pending.length) return setChildren(el, head, empty("No pending actions."));
  const { items, start } = tail(pending, LIST_TAIL);
  setChildren(
    el,
    head,
    more(start, "actions"),
    items.map((p) => {
      const controls = arr(p.actions).map(obj);
      return h(
        "div",
        { class: "card action-card", "data-testid": "pending-action" },
        h("div", null, pill(p.status), " ", h("b", { text: clip(str(p.title), 160) })),
        p.detail !== undefined ? h("div", { class: "muted small", text: clip(str(p.detail), 300) }) : null,
        h("div", { class: "small" }, "actionId ", h("code", { text: str(p.actionId) }), p.actionKind ? [" · kind ", h("code", { text: str(p.actionKind) })] : null),
        controls.length ? h("div", { class: "controls" }, controls.map((c) => h("button", { class: "ctl", disabled: true, title: str(c.labelKey), text: str(c.decision) }))) : null
      );
    })
  );
}

// ---------------------------------------------------------------------------------------------
// Artifacts and evidence

export function renderRefs(el, artifacts, evidence) {
  const a = arr(artifacts).map(obj);
  const e = arr(evidence).map(obj);
  const section = (title, list, testid) => {
    const { items, start } = tail(list, LIST_TAIL);
    return h(
      "div",
      { class: "refs-section" },
      h("h4", { text: `${title} (${fmtInt(list.length)})` }),
      list.length ? null : empty(`No ${title.toLowerCase()}.`),
      more(start, "refs"),
      items.map((r) =>
        h(
          "div",
          { class: "card ref-card", "data-testid": testid },
          h("div", null, pill(r.status), " ", h("b", { text: clip(str(r.title || r.id), 120) })),
          h("div", { class: "small" }, h("code", { text: str(r.id) }), r.path ? [" · ", h("span", { class: "path", text: str(r.path) })] : null, r.mimeType ? ` · ${str(r.mimeType)}` : null),
          r.preview ? h("div", { class: "muted small", text: clip(str(r.preview), 280) }) : null
        )
      )
    );
  };
  setChildren(el, section("Artifacts", a, "artifact"), section("Evidence", e, "evidence"));
}

// ---------------------------------------------------------------------------------------------
// Subagents

export function renderSubagents(el, subagents) {
  const s = obj(subagents);
  const threads = arr(s.threads).map(obj);
  const dels = arr(s.delegationCalls).map(obj);
  const acts = arr(s.activities).map(obj);
  if (!threads.length && !dels.length && !acts.length) return setChildren(el, empty("No subagents."));
  const t = tail(threads, LIST_TAIL);
  const d = tail(dels, LIST_TAIL);
  const a = tail(acts, 50);
  setChildren(
    el,
    h("h4", { text: `Threads (${fmtInt(threads.length)})` }),
    more(t.start, "threads"),
    t.items.map((th) =>
      h(
        "div",
        { class: "card", "data-testid": "subagent-thread" },
        h("div", null, pill(th.status), " ", h("b", { text: str(th.nickname || th.role || th.threadId) }), " ", h("span", { class: "muted small", text: str(th.threadId) })),
        th.title ? h("div", { class: "small", text: clip(str(th.title), 160) }) : null,
        th.summary ? h("div", { class: "muted small", text: clip(str(th.summary), 280) }) : null,
        h("div", { class: "muted small" }, `parent ${str(th.parentThreadId) || "—"} · task ${str(th.taskId) || "—"} · ${arr(th.sourceEventIds).length} events`)
      )
    ),
    h("h4", { text: `Delegations (${fmtInt(dels.length)})` }),
    more(d.start, "delegations"),
    d.items.length
      ? h(
          "table",
          { class: "grid" },
          h("tbody", null, d.items.map((x) => h("tr", null, h("td", null, h("span", { class: "kind", text: str(x.action) })), h("td", null, pill(x.status)), h("td", { class: "wrap", text: clip(str(x.title), 120) }), h("td", { class: "muted small", text: arr(x.targetThreadIds).join(", ") }))))
        )
      : null,
    h("h4", { text: `Activities (${fmtInt(acts.length)})` }),
    more(a.start, "activities"),
    h(
      "ol",
      { class: "activities", start: a.start + 1 },
      a.items.map((x) => h("li", null, h("span", { class: "kind", text: str(x.kind) }), " ", pill(x.status), " ", clip(str(x.title), 120), " ", h("span", { class: "muted small", text: str(x.threadId) })))
    )
  );
}

// ---------------------------------------------------------------------------------------------
// Runtime, hydration, diagnostics

export function renderRuntime(el, state) {
  const r = obj(state.runtime);
  const hy = obj(state.hydration);
  const diags = arr(state.diagnostics).map(obj);
  const kv = (k, v) => h("tr", null, h("th", { text: k }), h("td", null, v));
  const d = tail(diags, 50);
  setChildren(
    el,
    h(
      "table",
      { class: "kv" },
      kv("status", pill(r.status)),
      kv("activeTurnId", str(r.activeTurnId) || "—"),
      kv("activeRunId", str(r.activeRunId) || "—"),
      kv("activeTaskId", str(r.activeTaskId) || "—"),
      kv("latestEventId", str(r.latestEventId) || "—"),
      kv("latestSequence", r.latestSequence === undefined ? "—" : str(r.latestSequence)),
      kv("hydration", [pill(hy.status), ` ${fmtInt(Number(hy.eventCount))} events`]),
      kv("sourceCount", str(obj(state.readModel).sourceCount)),
      kv("ephemeralUi", `${Object.keys(obj(state.ephemeralUi)).length} keys`)
    ),
    h("h4", { text: `Diagnostics (${fmtInt(diags.length)})` }),
    more(d.start, "diagnostics"),
    d.items.map((x) => h("div", { class: "diag" }, pill(x.status), " ", h("b", { text: clip(str(x.title), 120) }), x.detail !== undefined ? h("span", { class: "muted small", text: " " + clip(str(x.detail), 200) }) : null))
  );
}

/** The numbers the tests and the fixture expectations look at, keyed by data-testid. */
export function factsOf(state) {
  const s = obj(state);
  const sub = obj(s.subagents);
  return {
    "runtime-status": str(obj(s.runtime).status),
    "hydration-status": str(obj(s.hydration).status),
    "hydration-count": obj(s.hydration).eventCount,
    "message-part-count": arr(s.messages).length,
    "timeline-entry-count": arr(s.timeline).length,
    "graph-node-count": arr(s.graph).length,
    "tool-call-count": arr(obj(s.toolCalls).calls).length,
    "pending-action-count": arr(obj(s.readModel).pendingActions).length,
    "artifact-count": arr(s.artifacts).length,
    "evidence-count": arr(s.evidence).length,
    "diagnostic-count": arr(s.diagnostics).length,
    "subagent-has": sub.hasSubagents === true ? "true" : "false",
    "subagent-thread-count": arr(sub.threads).length,
    "subagent-delegation-count": arr(sub.delegationCalls).length,
    "subagent-activity-count": arr(sub.activities).length,
    "subagent-active-count": arr(sub.activeThreadIds).length,
    "subagent-completed-count": arr(sub.completedThreadIds).length,
    "subagent-failed-count": arr(sub.failedThreadIds).length,
  };
}

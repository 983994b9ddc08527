// Fixture playground: load a stream of runtime events, validate it, and replay it through the
// wasm projector step by step, showing the projected UI state.

import { h, setChildren, pill, clip, fmtInt, fmtUs } from "./lib/dom.js";
import { parseEventText, toExecutionEvents } from "./lib/input.js";
import { ApplyStats } from "./lib/stats.js";
import { JsonTree } from "./lib/jsontree.js";
import { EventList } from "./lib/eventlist.js";
import { renderMessages, renderTimeline, renderGraph, renderTools, renderActions, renderRefs, renderSubagents, renderRuntime, factsOf } from "./lib/panels.js";

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Generator options offered in the form (empty input = the generator's default). */
const GEN_OPTIONS = [
  ["toolFailureRate", "tool failure rate"],
  ["actionRate", "action rate"],
  ["subagentRate", "subagent rate"],
  ["turnFailureRate", "turn failure rate"],
  ["stateDeltaRate", "state.delta rate"],
];
const GEN_MAX = 100000;
const VALIDATE_CHUNK = 2000;
const REPLAY_CHUNK = 2000;

const app = {
  api: null,
  fixtures: [],
  source: null, // {kind:"fixture", id} | {kind:"gen", n, seed, options} | {kind:"paste"}
  events: [],
  issues: new Map(), // event index -> [{code, path, message}]
  violations: [],
  rejected: new Map(), // event index -> message (the projector refused the event)
  flagsDirty: false,
  flagged: [], // sorted indices with any issue
  validating: false,
  step: 0, // events applied in the state on screen
  projStep: 0, // events applied to the projector (differs from `step` while showing a cached state)
  cache: new Map(), // step -> state, recently shown states (they share unchanged subtrees)
  cacheLimit: 64,
  projector: null,
  redact: "off",
  shown: undefined, // state on screen
  stats: new ApplyStats(),
  lastSeekMs: NaN,
  playing: false,
  loadToken: 0,
  replayRate: null,
};

let jsonTree;
let eventList;

// -------------------------------------------------------------------------------------------
// Package loading

function entryOf(pj) {
  const pick = (e) => {
    if (typeof e === "string") return e;
    if (e && typeof e === "object") return pick(e.browser) || pick(e.import) || pick(e.module) || pick(e.default);
    return undefined;
  };
  const exp = pj.exports;
  const dot = exp && typeof exp === "object" && !Array.isArray(exp) && "." in exp ? exp["."] : exp;
  return pick(dot) || pj.module || (typeof pj.browser === "string" ? pj.browser : undefined) || pj.main || "index.js";
}

async function loadPackage() {
  const base = new URL("./pkg/", location.href);
  const res = await fetch(new URL("package.json", base));
  if (!res.ok) throw new Error(`The wasm package is not built (GET ./pkg/package.json → ${res.status}). Run: bash scripts/play.sh`);
  const pj = await res.json();
  const entry = entryOf(pj).replace(/^\.\//, "");
  const api = await import(new URL(entry, base).href);
  return { api, pj };
}

/**
 * Makes a projector: the lean one (`createProjector`: apply returns a small summary, the state is
 * built only when asked for) when the package has it, else `createAgentUiProjector`.
 * Secret redaction is turned on when the package lists `redactSecrets` among its projector
 * options (`PROJECTOR_OPTIONS`); this package version may not offer it.
 */
function makeProjector() {
  const api = app.api;
  const factory = typeof api.createProjector === "function" ? api.createProjector : api.createAgentUiProjector;
  const known = Array.isArray(api.PROJECTOR_OPTIONS) ? api.PROJECTOR_OPTIONS : [];
  let p;
  if (known.includes("redactSecrets")) {
    p = factory(undefined, { redactSecrets: true });
    app.redact = "on";
  } else {
    p = factory();
    app.redact = "not offered by this package";
  }
  if (typeof p.getState !== "function" || typeof p.apply !== "function") throw new Error("The package's projector lacks getState/apply.");
  return p;
}

// -------------------------------------------------------------------------------------------
// Sources

function readGenForm() {
  const n = Math.trunc(Number(/** @type {HTMLInputElement} */ ($("gen-n")).value));
  const seed = Math.trunc(Number(/** @type {HTMLInputElement} */ ($("gen-seed")).value));
  const options = {};
  for (const [k] of GEN_OPTIONS) {
    const v = /** @type {HTMLInputElement} */ ($(`opt-${k}`)).value.trim();
    if (v !== "" && Number.isFinite(Number(v))) options[k] = Number(v);
  }
  return { n, seed, options };
}

function writeGenForm({ n, seed, options }) {
  /** @type {HTMLInputElement} */ ($("gen-n")).value = String(n);
  /** @type {HTMLInputElement} */ ($("gen-seed")).value = String(seed);
  for (const [k] of GEN_OPTIONS) /** @type {HTMLInputElement} */ ($(`opt-${k}`)).value = options[k] !== undefined ? String(options[k]) : "";
}

async function loadSource(source, events, wantStep) {
  stopPlay();
  const token = ++app.loadToken;
  app.source = source;
  app.events = events;
  app.issues = new Map();
  app.violations = [];
  app.rejected = new Map();
  app.flagsDirty = false;
  app.flagged = [];
  app.stats.reset();
  app.replayRate = null;
  app.lastSeekMs = NaN;
  if (app.projector && typeof app.projector.free === "function") app.projector.free();
  app.projector = makeProjector();
  app.step = 0;
  app.projStep = 0;
  app.cache = new Map();
  // Recent states kept for instant back/forward; fewer for long streams (big arrays per state).
  app.cacheLimit = Math.max(8, Math.min(256, Math.floor(2_000_000 / Math.max(1, events.length))));
  app.shown = undefined;
  eventList.setEvents(events);
  /** @type {HTMLInputElement} */ ($("scrubber")).max = String(events.length);
  $("total").textContent = String(events.length);
  $("events-count").textContent = `${fmtInt(events.length)}`;
  $("fig-replay").textContent = "—";
  showTab(source.kind);
  renderExpectations();
  const target = wantStep === "end" ? events.length : Number.isInteger(wantStep) ? wantStep : 0;
  seek(target);
  renderNow();
  validate(token);
}

function loadFixture(id, wantStep) {
  const fx = app.fixtures.find((f) => f.id === id) || app.fixtures[0];
  if (!fx) return;
  /** @type {HTMLSelectElement} */ ($("fixture-select")).value = fx.id;
  $("fixture-title").textContent = `${fx.title} — ${fx.events.length} events`;
  loadSource({ kind: "fixture", id: fx.id }, fx.events.slice(), wantStep);
}

function loadGenerated(params, wantStep) {
  const n = Math.min(GEN_MAX, Math.max(1, params.n || 1));
  const seed = Number.isFinite(params.seed) ? params.seed : 1;
  const p = { n, seed, options: params.options || {} };
  writeGenForm(p);
  const t0 = performance.now();
  let events;
  try {
    events = app.api.generateRuntimeEvents(n, seed, p.options);
  } catch (e) {
    $("gen-note").textContent = `Generator error: ${errText(e)}`;
    return;
  }
  $("gen-note").textContent = `${fmtInt(events.length)} events generated in ${(performance.now() - t0).toFixed(0)} ms`;
  loadSource({ kind: "gen", ...p }, Array.isArray(events) ? events : Array.from(events), wantStep);
}

function loadPasted(text, wantStep) {
  const { items, errors } = parseEventText(text);
  const { events, notes } = toExecutionEvents(items, app.api.normalizeRuntimeEvent);
  const envelopes = notes.filter((n) => n.kind === "envelope").length;
  const failed = notes.filter((n) => n.kind === "envelope-error");
  const note = $("paste-note");
  setChildren(
    note,
    `${fmtInt(events.length)} event${events.length === 1 ? "" : "s"} read`,
    envelopes ? ` (${fmtInt(envelopes)} canonical envelopes normalized)` : "",
    errors.length ? h("div", { class: "bad", text: `${errors.length} lines are not JSON (first: line ${errors[0].line}: ${errors[0].message})` }) : null,
    failed.length ? h("div", { class: "bad", text: `${failed.length} envelopes could not be normalized (first: item ${failed[0].index + 1}: ${failed[0].message})` }) : null
  );
  loadSource({ kind: "paste" }, events, wantStep);
}

// -------------------------------------------------------------------------------------------
// Validation (per-event issues in chunks, then the sequence verifier)

async function validate(token) {
  const api = app.api;
  const events = app.events;
  app.validating = true;
  renderValidation();
  for (let start = 0; start < events.length; start += VALIDATE_CHUNK) {
    const end = Math.min(events.length, start + VALIDATE_CHUNK);
    for (let i = start; i < end; i++) {
      let list;
      try {
        list = api.collectRuntimeEventValidationIssues(events[i], `$[${i}]`);
      } catch (e) {
        list = [{ code: "validator_error", path: `$[${i}]`, message: errText(e) }];
      }
      if (Array.isArray(list) && list.length) app.issues.set(i, list);
    }
    if (end < events.length) {
      $("validation-summary").textContent = `validating… ${fmtInt(end)} / ${fmtInt(events.length)}`;
      await new Promise((r) => setTimeout(r, 0));
      if (token !== app.loadToken) return;
    }
  }
  try {
    app.violations = api.verifyRuntimeEventSequence(events) || [];
  } catch (e) {
    app.violations = [{ code: "verifier_error", eventId: "", message: errText(e) }];
  }
  if (token !== app.loadToken) return;
  app.validating = false;
  updateFlags();
  renderValidation();
}

function violationIndexMap() {
  const byId = new Map();
  const wanted = new Set(app.violations.map((v) => v && v.eventId));
  app.events.forEach((ev, i) => {
    const id = ev && typeof ev === "object" ? ev.id : undefined;
    if (wanted.has(id)) {
      if (!byId.has(id)) byId.set(id, []);
      byId.get(id).push(i);
    }
  });
  return byId;
}

function updateFlags() {
  const flags = new Map();
  for (const i of app.issues.keys()) flags.set(i, "issue");
  const byId = violationIndexMap();
  app.violationIdx = new Map();
  for (const v of app.violations) {
    for (const i of byId.get(v && v.eventId) || []) {
      flags.set(i, flags.get(i) === "issue" ? "both" : "violation");
      if (!app.violationIdx.has(i)) app.violationIdx.set(i, []);
      app.violationIdx.get(i).push(v);
    }
  }
  for (const i of app.rejected.keys()) flags.set(i, "rejected");
  app.flagged = [...flags.keys()].sort((a, b) => a - b);
  eventList.setFlags(flags);
}

function renderValidation() {
  const sum = $("validation-summary");
  const list = $("issue-list");
  if (app.validating) {
    sum.textContent = "validating…";
    list.replaceChildren();
    return;
  }
  let issueCount = 0;
  const codes = new Map();
  for (const l of app.issues.values()) {
    issueCount += l.length;
    for (const x of l) codes.set(x.code, (codes.get(x.code) || 0) + 1);
  }
  for (const v of app.violations) codes.set(v.code, (codes.get(v.code) || 0) + 1);
  const ok = issueCount === 0 && app.violations.length === 0 && app.rejected.size === 0;
  setChildren(
    sum,
    ok ? h("span", { class: "good", text: "✓ no issues" }) : h("span", { class: "bad", text: "⚠" }),
    " ",
    h("b", { "data-testid": "issue-count", text: issueCount }),
    ` issues on ${fmtInt(app.issues.size)} events · `,
    h("b", { "data-testid": "violation-count", text: app.violations.length }),
    " sequence violations",
    app.rejected.size ? [" · ", h("b", { "data-testid": "rejected-count", text: app.rejected.size }), " rejected by the projector"] : null,
    codes.size ? h("div", { class: "codes", "data-testid": "issue-codes" }, [...codes].map(([c, n]) => h("span", { class: "code", text: `${c} ×${n}` }))) : null
  );
  const rows = [];
  const LIMIT = 300;
  outer: for (const i of app.flagged) {
    for (const x of app.issues.get(i) || []) {
      rows.push(issueRow(i, x.code, x.path, x.message));
      if (rows.length >= LIMIT) break outer;
    }
    for (const v of (app.violationIdx && app.violationIdx.get(i)) || []) {
      rows.push(issueRow(i, v.code, v.scopeId ? `scope ${v.scopeId}` : "sequence", v.message));
      if (rows.length >= LIMIT) break outer;
    }
    if (app.rejected.has(i)) rows.push(issueRow(i, "rejected", "projector", app.rejected.get(i)));
  }
  const placed = violationIndexMap();
  const unplaced = app.violations.filter((v) => !placed.has(v && v.eventId));
  for (const v of unplaced.slice(0, 20)) rows.push(issueRow(-1, v.code, "sequence", v.message));
  setChildren(list, rows, app.flagged.length > LIMIT ? h("div", { class: "more", text: `showing the first ${LIMIT}` }) : null);
}

function issueRow(i, code, path, message) {
  return h(
    "div",
    { class: "issue", "data-testid": "issue", "data-code": code, onclick: i >= 0 ? () => seekAndRender(i + 1) : undefined },
    h("span", { class: "ev-i", text: i >= 0 ? `#${i + 1}` : "—" }),
    h("span", { class: "code", text: code }),
    h("span", { class: "muted small", text: path || "" }),
    h("div", { class: "small", text: clip(message, 300) })
  );
}

// -------------------------------------------------------------------------------------------
// Stepping

function applyOne(i) {
  const ev = app.events[i];
  const t0 = performance.now();
  try {
    app.projector.apply(ev);
  } catch (e) {
    if (!app.rejected.has(i)) {
      app.rejected.set(i, errText(e));
      app.flagsDirty = true;
    }
  }
  app.stats.add((performance.now() - t0) * 1000);
}

/** Applies events [a, b) to the projector, in one call where possible. */
function applyRange(a, b) {
  if (b <= a) return;
  const p = app.projector;
  if (typeof p.applyMany === "function") {
    try {
      p.applyMany(app.events.slice(a, b));
      return;
    } catch {
      // Some event was refused: rebuild one event at a time to find out which.
      p.reset();
      for (let i = 0; i < b; i++) applyQuiet(i);
      return;
    }
  }
  for (let i = a; i < b; i++) applyQuiet(i);
}

function applyQuiet(i) {
  try {
    app.projector.apply(app.events[i]);
  } catch (e) {
    if (!app.rejected.has(i)) {
      app.rejected.set(i, errText(e));
      app.flagsDirty = true;
    }
  }
}

/** Brings the projector to `k` events: forward incrementally, backward by reset + replay. */
function moveProjectorTo(k) {
  if (k === app.projStep) return;
  if (k === app.projStep + 1) {
    applyOne(app.projStep);
  } else if (k > app.projStep) {
    applyRange(app.projStep, k);
  } else {
    app.projector.reset();
    applyRange(0, k);
  }
  app.projStep = k;
}

/**
 * Moves to step `k` (number of events applied). A recently shown step comes from the state
 * cache at once; otherwise the projector moves there (one timed apply for a single step forward).
 */
function seek(k) {
  const n = app.events.length;
  k = Math.max(0, Math.min(n, Math.trunc(k)));
  if (k === app.step) return;
  const t0 = performance.now();
  if (!app.cache.has(k)) {
    if (k < app.projStep && k > 0) rebuildWithWindow(k);
    else moveProjectorTo(k);
  }
  app.step = k;
  app.lastSeekMs = performance.now() - t0;
}

/**
 * Going back costs a rebuild (reset + replay of the prefix). Rebuild to a few steps before `k`
 * and keep the states of the steps up to `k`, so that further steps back are instant.
 */
function rebuildWithWindow(k) {
  const w = Math.max(0, Math.min(16, app.cacheLimit - 4));
  const from = Math.max(0, k - w);
  app.projector.reset();
  applyRange(0, from);
  app.projStep = from;
  for (let j = from; j < k; j++) {
    app.cache.set(j, app.projector.getState());
    applyQuiet(j);
    app.projStep = j + 1;
  }
  trimCache();
}

function trimCache() {
  while (app.cache.size > app.cacheLimit) app.cache.delete(app.cache.keys().next().value);
}

/** The state at the current step: from the cache, or materialized by the projector. */
function currentState() {
  const cached = app.cache.get(app.step);
  if (cached !== undefined) {
    app.cache.delete(app.step); // refresh its place in the LRU order
  }
  const s = cached !== undefined ? cached : (moveProjectorTo(app.step), app.projector.getState());
  app.cache.set(app.step, s);
  trimCache();
  return s;
}

/** Seeks and redraws at once (buttons, keys, clicks). */
function seekAndRender(k) {
  seek(k);
  renderNow();
}

// -------------------------------------------------------------------------------------------
// Play / replay all

function stopPlay() {
  app.playing = false;
  $("btn-play").textContent = "▶ Play";
}

function startPlay() {
  if (app.step >= app.events.length) seek(0);
  moveProjectorTo(app.step);
  app.playing = true;
  $("btn-play").textContent = "⏸ Pause";
  let last = performance.now();
  let budget = 0;
  const tick = (now) => {
    if (!app.playing) return;
    const speedSel = /** @type {HTMLSelectElement} */ ($("speed")).value;
    const dt = Math.min(250, now - last);
    last = now;
    const frameStart = performance.now();
    if (speedSel === "max") {
      while (app.projStep < app.events.length && performance.now() - frameStart < 12) {
        applyOne(app.projStep);
        app.projStep++;
      }
    } else {
      budget += (Number(speedSel) * dt) / 1000;
      while (budget >= 1 && app.projStep < app.events.length && performance.now() - frameStart < 14) {
        applyOne(app.projStep);
        app.projStep++;
        budget -= 1;
      }
      if (budget > 1) budget = 1;
    }
    app.step = app.projStep;
    renderNow();
    if (app.step >= app.events.length) {
      stopPlay();
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function replayAll() {
  stopPlay();
  const token = app.loadToken;
  const events = app.events;
  const p = app.projector;
  const btn = /** @type {HTMLButtonElement} */ ($("btn-replay"));
  btn.disabled = true;
  p.reset();
  app.step = 0;
  app.projStep = 0;
  app.cache = new Map();
  app.stats.reset();
  let busy = 0;
  for (let start = 0; start < events.length; start += REPLAY_CHUNK) {
    const end = Math.min(events.length, start + REPLAY_CHUNK);
    const t0 = performance.now();
    for (let i = start; i < end; i++) applyOne(i);
    busy += performance.now() - t0;
    app.step = end;
    app.projStep = end;
    $("fig-replay").textContent = `replaying… ${fmtInt(end)} / ${fmtInt(events.length)}`;
    await new Promise((r) => setTimeout(r, 0));
    if (token !== app.loadToken) return;
  }
  btn.disabled = false;
  const rate = busy > 0 ? events.length / (busy / 1000) : Infinity;
  app.replayRate = { rate, ms: busy, n: events.length };
  const el = $("fig-replay");
  el.textContent = `${fmtInt(rate)} events/s (${fmtInt(events.length)} events in ${busy.toFixed(0)} ms)`;
  el.dataset.rate = String(Math.round(rate));
  el.dataset.done = "1";
  app.shown = undefined;
  renderNow();
}

// -------------------------------------------------------------------------------------------
// Rendering

function renderNow() {
  const t0 = performance.now();
  if (app.flagsDirty && !app.validating) {
    // Events the projector refused since the last frame join the flagged ones (once per frame).
    app.flagsDirty = false;
    updateFlags();
    renderValidation();
  }
  const s = currentState();
  const prev = app.shown;
  const hasPrev = prev !== undefined;
  const changed = (k) => !hasPrev || prev[k] !== s[k];

  if (changed("messages")) {
    const box = $("p-messages");
    renderMessages(box, s.messages);
    // Newest part in view, as in a chat; measured at the next frame to avoid a forced layout now.
    requestAnimationFrame(() => (box.scrollTop = box.scrollHeight));
  }
  if (changed("timeline")) renderTimeline($("p-timeline"), s.timeline);
  if (changed("graph")) renderGraph($("p-graph"), s.graph);
  if (changed("toolCalls") || changed("mcp")) renderTools($("p-tools"), s.toolCalls, s.mcp);
  if (changed("readModel") || changed("actions")) renderActions($("p-actions"), s.readModel, s.actions);
  if (changed("artifacts") || changed("evidence")) renderRefs($("p-refs"), s.artifacts, s.evidence);
  if (changed("subagents")) renderSubagents($("p-subagents"), s.subagents);
  renderRuntime($("p-runtime"), s);
  renderFacts(s);
  renderExpectationValues(s);
  renderCurrentEvent();
  jsonTree.render(s, prev, hasPrev);
  app.shown = s;

  $("step").textContent = String(app.step);
  /** @type {HTMLInputElement} */ ($("scrubber")).value = String(app.step);
  eventList.setStep(app.step);
  $("fig-last").textContent = fmtUs(app.stats.last);
  $("fig-p50").textContent = fmtUs(app.stats.quantile(0.5));
  $("fig-p99").textContent = fmtUs(app.stats.quantile(0.99));
  $("fig-n").textContent = fmtInt(app.stats.count);
  $("fig-seek").textContent = Number.isFinite(app.lastSeekMs) ? `${app.lastSeekMs.toFixed(1)} ms` : "—";
  $("fig-seek").title = `render ${(performance.now() - t0).toFixed(1)} ms`;
  updateUrl();
}

const FACT_LABELS = [
  ["runtime-status", "runtime"],
  ["hydration-status", "hydration"],
  ["hydration-count", "hydrated events"],
  ["message-part-count", "message parts"],
  ["timeline-entry-count", "timeline"],
  ["graph-node-count", "graph nodes"],
  ["tool-call-count", "tool calls"],
  ["pending-action-count", "pending actions"],
  ["artifact-count", "artifacts"],
  ["evidence-count", "evidence"],
  ["diagnostic-count", "diagnostics"],
  ["subagent-thread-count", "subagent threads"],
  ["subagent-delegation-count", "delegations"],
  ["subagent-activity-count", "activities"],
  ["subagent-active-count", "active threads"],
  ["subagent-completed-count", "completed threads"],
  ["subagent-failed-count", "failed threads"],
];

function renderFacts(s) {
  const f = factsOf(s);
  setChildren(
    $("facts"),
    FACT_LABELS.map(([k, label]) =>
      h(
        "div",
        { class: "fact" },
        h("span", { class: "fact-label", text: label }),
        k.endsWith("-status") ? h("span", { "data-testid": k, "data-value": f[k] }, pill(f[k])) : h("b", { "data-testid": k, text: String(f[k] ?? "—") })
      )
    ),
    h("span", { hidden: true, "data-testid": "subagent-has", text: f["subagent-has"] })
  );
}

// Fixture expectations: [path in expected, fact key, comparison]
const EXPECT_RULES = [
  ["messagePartCount", "message-part-count", ">="],
  ["timelineEntryCount", "timeline-entry-count", ">="],
  ["graphNodeCount", "graph-node-count", ">="],
  ["pendingActionCount", "pending-action-count", "=="],
  ["artifactCount", "artifact-count", ">="],
  ["evidenceCount", "evidence-count", ">="],
  ["subagents.hasSubagents", "subagent-has", "=="],
  ["subagents.threadCount", "subagent-thread-count", ">="],
  ["subagents.delegationCallCount", "subagent-delegation-count", ">="],
  ["subagents.activityCount", "subagent-activity-count", ">="],
  ["subagents.activeThreadCount", "subagent-active-count", "=="],
  ["subagents.completedThreadCount", "subagent-completed-count", "=="],
  ["subagents.failedThreadCount", "subagent-failed-count", "=="],
];

function currentFixture() {
  return app.source && app.source.kind === "fixture" ? app.fixtures.find((f) => f.id === app.source.id) : undefined;
}

function renderExpectations() {
  const fx = currentFixture();
  $("expect-box").hidden = !fx;
  if (!fx) return;
  let replay;
  try {
    replay = typeof app.api.replayAgentUiFixture === "function" ? app.api.replayAgentUiFixture(fx) : undefined;
  } catch (e) {
    replay = { error: errText(e) };
  }
  app.fixtureReplay = replay;
}

function renderExpectationValues(s) {
  const fx = currentFixture();
  if (!fx) return;
  const exp = fx.expected || {};
  const facts = factsOf(s);
  const atEnd = app.step === app.events.length;
  const rows = [];
  const statusOk = facts["runtime-status"] === exp.status;
  rows.push(
    h(
      "tr",
      { "data-testid": "expect-status", "data-ok": String(statusOk) },
      h("th", { text: "status" }),
      h("td", null, pill(exp.status)),
      h("td", null, pill(facts["runtime-status"])),
      h("td", { class: statusOk ? "good" : "warn", text: statusOk ? "✓" : "≠" }),
      h("td", { class: "muted small", text: statusOk ? "" : "expected.status is informational: replayAgentUiFixture does not check it (the projected status is the batch status)" })
    )
  );
  for (const [path, key, op] of EXPECT_RULES) {
    const want = path.split(".").reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), exp);
    if (want === undefined) continue;
    const got = key === "subagent-has" ? facts[key] === "true" : facts[key];
    const ok = op === "==" ? got === want : got >= want;
    rows.push(
      h(
        "tr",
        { "data-testid": `expect-${path}`, "data-ok": String(ok) },
        h("th", { text: path }),
        h("td", { text: `${op === ">=" ? "≥ " : ""}${want}` }),
        h("td", { text: String(got) }),
        h("td", { class: ok ? "good" : atEnd ? "bad" : "muted", text: ok ? "✓" : "✗" }),
        h("td")
      )
    );
  }
  if (exp.coding) rows.push(h("tr", null, h("th", { text: "coding" }), h("td", { class: "small", text: JSON.stringify(exp.coding) }), h("td", { class: "muted small", text: "coding view: checked by replay" }), h("td"), h("td")));
  if (Array.isArray(exp.diagnostics)) rows.push(h("tr", null, h("th", { text: "waived diagnostics" }), h("td", { class: "small", text: exp.diagnostics.join(", ") }), h("td"), h("td"), h("td")));
  const r = app.fixtureReplay;
  const replayLine = !r
    ? "replayAgentUiFixture is not exported by this package"
    : r.error
      ? `replayAgentUiFixture threw: ${r.error}`
      : h(
          "span",
          null,
          "replayAgentUiFixture: ",
          h("b", { class: r.passed ? "good" : "bad", "data-testid": "replay-passed", text: r.passed ? "passed" : "failed" }),
          ` · ${Array.isArray(r.validationIssues) ? r.validationIssues.length : "?"} validation issues · ${Array.isArray(r.sequenceViolations) ? r.sequenceViolations.length : "?"} violations`,
          Array.isArray(r.diagnostics) && r.diagnostics.length ? ` · diagnostics: ${r.diagnostics.join(", ")}` : ""
        );
  setChildren($("expect"), h("table", { class: "grid expect" }, h("thead", null, h("tr", null, ["fact", "expected", "now", "", ""].map((c) => h("th", { text: c })))), h("tbody", null, rows)), h("div", { class: "small" }, replayLine));
}

function renderCurrentEvent() {
  const el = $("p-event");
  const i = app.step - 1;
  if (i < 0) return setChildren(el, h("div", { class: "empty", text: "Step 0: no event applied yet. Step forward (→) to apply the first one." }));
  const ev = app.events[i];
  let text;
  try {
    text = JSON.stringify(ev, null, 2);
  } catch {
    text = String(ev);
  }
  const issues = app.issues.get(i) || [];
  const viol = (app.violationIdx && app.violationIdx.get(i)) || [];
  setChildren(
    el,
    h("div", { class: "small" }, `#${i + 1} of ${fmtInt(app.events.length)}`),
    app.rejected.has(i) ? h("div", { class: "bad small", text: `Rejected by the projector: ${app.rejected.get(i)}` }) : null,
    issues.map((x) => h("div", { class: "bad small" }, h("span", { class: "code", text: x.code }), ` ${x.path}: ${x.message}`)),
    viol.map((v) => h("div", { class: "bad small" }, h("span", { class: "code", text: v.code }), ` ${v.message}`)),
    h("pre", { class: "event-json", text: clip(text, 20000) })
  );
}

// -------------------------------------------------------------------------------------------
// URL: #fixture=<id>&step=<k|end> · #gen=<n>&seed=<s>[&<option>=<v>...]&step=<k> · #paste&step=<k>

let urlTimer = 0;
function updateUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => {
    const q = new URLSearchParams();
    const s = app.source;
    if (!s) return;
    if (s.kind === "fixture") q.set("fixture", s.id);
    else if (s.kind === "gen") {
      q.set("gen", String(s.n));
      q.set("seed", String(s.seed));
      for (const [k, v] of Object.entries(s.options)) q.set(k, String(v));
    } else q.set("paste", "");
    q.set("step", String(app.step));
    const hash = "#" + q.toString().replace("paste=&", "paste&").replace(/paste=$/, "paste");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }, 150);
}

function readUrl() {
  const q = new URLSearchParams(location.hash.replace(/^#/, "") || location.search.replace(/^\?/, ""));
  const stepRaw = q.get("step");
  const step = stepRaw === "end" ? "end" : stepRaw !== null && /^\d+$/.test(stepRaw) ? Number(stepRaw) : undefined;
  if (q.has("gen")) {
    const options = {};
    for (const [k] of GEN_OPTIONS) if (q.has(k) && Number.isFinite(Number(q.get(k)))) options[k] = Number(q.get(k));
    return { kind: "gen", n: Number(q.get("gen")) || 1000, seed: Number(q.get("seed") ?? 1), options, step };
  }
  if (q.has("paste")) return { kind: "paste", step };
  if (q.has("fixture")) return { kind: "fixture", id: q.get("fixture"), step };
  return { kind: "fixture", id: undefined, step };
}

// -------------------------------------------------------------------------------------------
// Wiring

function showTab(kind) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.getAttribute("data-tab") === kind);
  for (const p of document.querySelectorAll(".tabpane")) /** @type {HTMLElement} */ (p).hidden = p.getAttribute("data-pane") !== kind;
}

function errText(e) {
  return e instanceof Error ? e.message : String(e);
}

function wire() {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.getAttribute("data-tab")));
  $("fixture-select").addEventListener("change", (e) => loadFixture(/** @type {HTMLSelectElement} */ (e.target).value, 0));
  $("gen-go").addEventListener("click", () => loadGenerated(readGenForm(), 0));
  $("paste-go").addEventListener("click", () => loadPasted(/** @type {HTMLTextAreaElement} */ ($("paste-text")).value, 0));
  const readFile = async (file) => {
    const text = await file.text();
    /** @type {HTMLTextAreaElement} */ ($("paste-text")).value = text.length > 2_000_000 ? "" : text;
    loadPasted(text, 0);
  };
  $("file-input").addEventListener("change", (e) => {
    const f = /** @type {HTMLInputElement} */ (e.target).files?.[0];
    if (f) readFile(f);
  });
  const drop = $("drop-zone");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const f = e.dataTransfer?.files?.[0];
    if (f) readFile(f);
    else {
      const t = e.dataTransfer?.getData("text/plain");
      if (t) {
        /** @type {HTMLTextAreaElement} */ ($("paste-text")).value = t;
        loadPasted(t, 0);
      }
    }
  });

  $("btn-start").addEventListener("click", () => (stopPlay(), seekAndRender(0)));
  $("btn-back").addEventListener("click", () => (stopPlay(), seekAndRender(app.step - 1)));
  $("btn-fwd").addEventListener("click", () => (stopPlay(), seekAndRender(app.step + 1)));
  $("btn-end").addEventListener("click", () => (stopPlay(), seekAndRender(app.events.length)));
  $("btn-play").addEventListener("click", () => (app.playing ? stopPlay() : startPlay()));
  $("btn-replay").addEventListener("click", () => replayAll());
  $("btn-next-issue").addEventListener("click", () => {
    stopPlay();
    const next = app.flagged.find((i) => i >= app.step);
    if (next !== undefined) seekAndRender(next + 1);
  });
  const scrub = /** @type {HTMLInputElement} */ ($("scrubber"));
  // Dragging the scrubber fires many input events: seek at most once per frame.
  let scrubTarget = -1;
  scrub.addEventListener("input", () => {
    stopPlay();
    const first = scrubTarget < 0;
    scrubTarget = Number(scrub.value);
    if (!first) return;
    requestAnimationFrame(() => {
      const k = scrubTarget;
      scrubTarget = -1;
      seek(k);
      renderNow();
    });
  });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    if (e.key === "ArrowRight") (stopPlay(), seekAndRender(app.step + 1));
    else if (e.key === "ArrowLeft") (stopPlay(), seekAndRender(app.step - 1));
    else if (e.key === "Home") (stopPlay(), seekAndRender(0));
    else if (e.key === "End") (stopPlay(), seekAndRender(app.events.length));
    else if (e.key === " ") app.playing ? stopPlay() : startPlay();
    else if (e.key === "n") $("btn-next-issue").click();
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    const want = readUrl();
    if (want.kind === "fixture" && want.id && (!app.source || app.source.kind !== "fixture" || app.source.id !== want.id)) loadFixture(want.id, want.step);
    else if (want.kind === "gen" && (!app.source || app.source.kind !== "gen" || app.source.n !== want.n || app.source.seed !== want.seed || JSON.stringify(app.source.options) !== JSON.stringify(want.options))) loadGenerated(want, want.step);
    else if (want.step !== undefined) seekAndRender(want.step === "end" ? app.events.length : want.step);
  });
}

async function main() {
  jsonTree = new JsonTree($("p-json"));
  eventList = new EventList($("event-list"), (i) => (stopPlay(), seekAndRender(i + 1)));
  const optsEl = $("gen-opts");
  for (const [k, label] of GEN_OPTIONS) optsEl.append(h("label", null, label, h("input", { id: `opt-${k}`, type: "number", min: "0", max: "1", step: "0.01", placeholder: "default", "data-testid": `opt-${k}` })));
  wire();
  let loaded;
  try {
    loaded = await loadPackage();
  } catch (e) {
    const f = $("fatal");
    f.hidden = false;
    f.textContent = errText(e);
    $("pkg-info").textContent = "package not loaded";
    return;
  }
  app.api = loaded.api;
  app.fixtures = Array.isArray(app.api.agentUiConformanceFixtures) ? app.api.agentUiConformanceFixtures : [];
  const sel = /** @type {HTMLSelectElement} */ ($("fixture-select"));
  for (const f of app.fixtures) sel.append(h("option", { value: f.id, text: `${f.id} (${f.events.length})` }));
  const want = readUrl();
  if (want.kind === "gen") loadGenerated(want, want.step);
  else if (want.kind === "paste") {
    loadSource({ kind: "paste" }, [], 0);
    setChildren($("paste-note"), h("div", { class: "warn", text: "This link pointed at pasted input, which is not kept in the URL. Paste or drop the events again." }));
  } else loadFixture(want.id, want.step ?? 0);
  setChildren(
    $("pkg-info"),
    h("code", { text: `${loaded.pj.name || "package"}@${loaded.pj.version || "?"}` }),
    " · ",
    h("span", { "data-testid": "redact", text: `redactSecrets: ${app.redact}` }),
    " · ",
    h("span", { title: "performance.now() resolution is finer when the page is cross-origin isolated", text: crossOriginIsolated ? "timer: fine (isolated)" : "timer: coarse" })
  );
  document.body.dataset.ready = "1";
}

// Test hooks: the browser tests compare the projector with the batch projection through these.
window.playground = {
  get step() {
    return app.step;
  },
  get eventCount() {
    return app.events.length;
  },
  get source() {
    return app.source;
  },
  /** The state on screen (from the projector or the recent-state cache). */
  state: () => app.shown,
  /** The projector's own state, brought to the current step first. */
  projectorState: () => (moveProjectorTo(app.step), app.projector.getState()),
  batchState: (k = app.step) => app.api.projectAgentUiState({ executionEvents: app.events.slice(0, k) }),
  seek: (k) => {
    seek(k);
    renderNow();
  },
  replayRate: () => app.replayRate,
  fixtures: () => app.fixtures.map((f) => ({ id: f.id, expected: f.expected, eventCount: f.events.length })),
  validating: () => app.validating,
};

main();

// Per-function speed of the views taken one at a time (pkg-template/views.js) against the
// reference's own functions (its built dist), on the same arguments.
//
//   LIME_REFERENCE_DIR=/path/to/lime node bench/views.mjs [--quick]
//
// LIME_REFERENCE_DIR names a local build of the reference packages (its
// packages/agent-runtime-projection/dist; bench/README.md, "Reference builds"); nothing of it is
// kept here. The arguments come from
// the project's generator (`generateRuntimeEvents(n, 42)`): its events, the read model, tool
// calls and subagent activities the package projects from them. Each function is measured in a
// fresh process (so neither side's call sites are shared with another function's), warmed up,
// then timed in rounds, ours and the reference's interleaved; a row is each side's fastest round
// (the least disturbed on a shared machine); the ratio is ours / reference.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const reference = process.env.LIME_REFERENCE_DIR;
const refEntry = reference && join(reference, "packages", "agent-runtime-projection", "dist", "index.js");
if (!refEntry || !existsSync(refEntry)) {
  console.error("bench/views: set LIME_REFERENCE_DIR to a local build of the reference packages (bench/README.md)");
  process.exit(2);
}
const quick = process.argv.includes("--quick");
const caseAt = process.argv.indexOf("--case");
const only = caseAt > 0 ? process.argv[caseAt + 1] : undefined;
const ours = await import(pathToFileURL(join(import.meta.dirname, "..", "pkg", "index.node.js")).href);
const ref = await import(pathToFileURL(refEntry).href);

const events = ours.generateRuntimeEvents(quick ? 600 : 2000, 42);
const state = ours.projectAgentUiState({ executionEvents: events });
const context = { resolvedActionIds: new Set(), resolvedEventIds: new Set() };
for (const e of events) {
  if (e.eventClass === "action.resolved" && e.actionId) context.resolvedActionIds.add(e.actionId);
}
const toolNames = [
  ...new Set([
    ...state.toolCalls.calls.map((c) => c.toolName),
    "mcp__github__search_issues",
    "mcp__browser__navigate",
    "mcp__docs__list_pages",
    "MCP Auth Tool",
  ]),
];
const isRecord = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const raw = (payload, ...keys) => {
  for (const k of keys) if (typeof payload?.[k] === "string" && payload[k].trim()) return payload[k];
  return undefined;
};
const collaborationInputs = events
  .map((e) => {
    const payload = isRecord(e.payload) ? e.payload : undefined;
    return {
      sourceType: e.eventClass,
      collaborationKind: raw(payload, "collaborationKind", "collaboration_kind"),
      phase: e.phase,
      status: e.status,
      taskId: e.taskId,
      agentId: e.subagentId ?? e.workerId,
      parentThreadId: raw(payload, "parentThreadId", "parent_thread_id") ?? e.threadId,
      handoffId: e.handoffId,
      metadata: isRecord(payload?.metadata) ? payload.metadata : undefined,
      payload,
    };
  });
const deltaEvent = {
  id: "bench-delta",
  kind: "state",
  status: "completed",
  eventClass: "state.delta",
  title: "repair",
  createdAt: "2026-06-10T00:00:00.000Z",
  payload: { target: "runtime", patch: [{ op: "replace", path: "/runtime/status", value: "running" }] },
};

/** ns per call of `fn(arg)` over `args`, `reps` passes. */
function time(fn, args, reps) {
  let sink = 0;
  const t = process.hrtime.bigint();
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < args.length; i++) {
      const out = fn(args[i]);
      if (out !== undefined) sink++;
    }
  }
  const ns = Number(process.hrtime.bigint() - t);
  if (sink < 0) console.log(sink);
  return ns / (reps * args.length);
}

const rows = [];
const names = [];
function bench(name, args, oursFn, refFn, reps) {
  names.push(name);
  if (only !== name) return;
  const rounds = quick ? 7 : 15;
  // Warm up until both sides are optimized (at least ~50 ms or 20 passes each).
  for (const fn of [oursFn, refFn]) {
    const until = performance.now() + 50;
    for (let i = 0; i < 20 || performance.now() < until; i++) time(fn, args, 1);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < rounds; i++) {
    a.push(time(oursFn, args, reps));
    b.push(time(refFn, args, reps));
  }
  // The machine is shared: the fastest round is the least disturbed one.
  const o = Math.min(...a);
  const r = Math.min(...b);
  rows.push({ name, calls: args.length, ours: o, ref: r, ratio: o / r });
}

const perEvent = quick ? 20 : 60;
bench("agentEventStatusLabel", events.map((e) => e.status), ours.agentEventStatusLabel, ref.agentEventStatusLabel, perEvent);
bench("agentEventStatusKey", events.map((e) => e.status), ours.agentEventStatusKey, ref.agentEventStatusKey, perEvent);
for (const name of [
  "agentEventDisplayStatusKey",
  "agentEventActionKind",
  "agentEventTargetModule",
  "projectAgentRuntimeAction",
  "agentEventSurface",
  "isAgentInputSourceRecoveryEvent",
]) {
  bench(name, events, ours[name], ref[name], perEvent);
}
bench(
  "projectAgentRuntimeEvent",
  events,
  (e) => ours.projectAgentRuntimeEvent(e, context),
  (e) => ref.projectAgentRuntimeEvent(e, context),
  perEvent,
);
bench("parseAgentUiMcpToolName", toolNames, ours.parseAgentUiMcpToolName, ref.parseAgentUiMcpToolName, perEvent * 20);
bench(
  "classifyAgentUiMcpOperationKind",
  toolNames,
  ours.classifyAgentUiMcpOperationKind,
  ref.classifyAgentUiMcpOperationKind,
  perEvent * 20,
);
bench(
  "buildAgentUiCollaborationPayloadMetadata",
  collaborationInputs,
  ours.buildAgentUiCollaborationPayloadMetadata,
  ref.buildAgentUiCollaborationPayloadMetadata,
  quick ? 3 : 10,
);
bench("readAgentRuntimeStateDelta", [deltaEvent], ours.readAgentRuntimeStateDelta, ref.readAgentRuntimeStateDelta, 2000);

// Whole streams (one call = one stream).
const once = [events];
bench("runtimeStatusForEvents", once, ours.runtimeStatusForEvents, ref.runtimeStatusForEvents, 3);
bench("projectAgentUiToolSurface", [state.readModel.events], ours.projectAgentUiToolSurface, ref.projectAgentUiToolSurface, 3);
bench("projectAgentUiMcpSurface", [state.toolCalls], ours.projectAgentUiMcpSurface, ref.projectAgentUiMcpSurface, 20);
bench(
  "applyAgentRuntimeStateDeltaToProjectionState",
  [state],
  (s) => ours.applyAgentRuntimeStateDeltaToProjectionState(s, deltaEvent),
  (s) => ref.applyAgentRuntimeStateDeltaToProjectionState(s, deltaEvent),
  20,
);
// A delta into a long list: only the item it names crosses (the others as references).
for (const [what, path] of [["a timeline entry", "/timeline/2/title"], ["a message part", "/messages/3/text"]]) {
  const into = { ...deltaEvent, payload: { target: "projection", patch: [{ op: "replace", path, value: "edited" }] } };
  bench(
    `applyAgentRuntimeStateDeltaToProjectionState, ${what}`,
    [state],
    (s) => ours.applyAgentRuntimeStateDeltaToProjectionState(s, into),
    (s) => ref.applyAgentRuntimeStateDeltaToProjectionState(s, into),
    20,
  );
}
bench(
  "applyAgentRuntimeStateDeltasToProjectionState",
  [state],
  (s) => ours.applyAgentRuntimeStateDeltasToProjectionState(s, [...events, deltaEvent]),
  (s) => ref.applyAgentRuntimeStateDeltasToProjectionState(s, [...events, deltaEvent]),
  3,
);
bench("projectCodingWorkbenchView", [state], ours.projectCodingWorkbenchView, ref.projectCodingWorkbenchView, 3);
bench(
  "projectCodingWorkbenchViewFromEvents",
  [{ executionEvents: events }],
  ours.projectCodingWorkbenchViewFromEvents,
  ref.projectCodingWorkbenchViewFromEvents,
  1,
);
for (const [name, make, method] of [
  ["createAgentRuntimeReadModelAccumulator", "createAgentRuntimeReadModelAccumulator", "apply"],
  ["createRuntimeStatusAccumulator", "createRuntimeStatusAccumulator", "apply"],
  ["createAgentUiSubagentsModelAccumulator", "createAgentUiSubagentsModelAccumulator", "apply"],
]) {
  const run = (api) => () => {
    const acc = api[make]();
    for (const e of events) acc[method](e);
    return acc;
  };
  bench(`${name} (whole stream)`, [0], run(ours), run(ref), 1);
}

if (only !== undefined) {
  console.log(JSON.stringify(rows[0]));
  process.exit(0);
}
for (const name of names) {
  const args = [import.meta.filename, "--case", name, ...(quick ? ["--quick"] : [])];
  rows.push(JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", env: process.env }).trim()));
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
console.log(`views vs reference, ${events.length} generated events (seed 42), node ${process.version}`);
console.log("| function | args | ours / call | reference / call | ratio |");
console.log("|---|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(`| ${r.name} | ${r.calls} | ${fmt(r.ours)} | ${fmt(r.ref)} | ${r.ratio.toFixed(2)} |`);
}

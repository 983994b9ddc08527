// The views taken one at a time (pkg-template/views.js) against the states the reference
// recorded (../shared/reference/parity): every expected value here is read from a recorded state
// (or from the recorded events themselves), never written in.
//
// - tool and MCP surfaces: a batch state's `toolCalls` is the tool surface of its
//   `readModel.events`, its `mcp` the MCP surface of its `toolCalls`;
// - runtime status: a batch state's `runtime` is `runtimeStatusForEvents(events)`, a projector
//   state's the runtime-status accumulator's view after every (first) event;
// - per-event read-model helpers: every recorded projection is `projectAgentRuntimeEvent` of its
//   source with the stream's resolutions; surfaces, status keys, actions likewise; MCP names;
// - accumulators: the read model after every event, the subagents model, and which objects stay
//   the same between steps;
// - collaboration metadata: every recorded subagent activity's `collaboration`;
// - state deltas: a batch state is the delta pass over the state built from events alone;
// - the coding workbench view holds the state's own runtime, actions, artifacts and evidence
//   (as the reference's does).
import assert from "node:assert/strict";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import { decodeUndefined, hasReference, listReference, pkgEntry, readReference } from "./reference.mjs";
import { xorshift } from "../../scripts/xorshift.mjs";

const api = await import(pkgEntry);

/** The recorded parity cases (standard fixtures and generated streams, not the odd ones). */
function parityCases() {
  if (!hasReference) return [];
  const cases = [];
  for (const dir of ["fixtures", "streams"]) {
    for (const file of listReference("parity", dir)) {
      const data = readReference("parity", dir, file);
      const input = decodeUndefined(data.input);
      cases.push({
        name: `${dir}/${file.replace(/\.json$/, "")}`,
        events: dir === "fixtures" ? input.events : input.executionEvents,
        sourceCount: dir === "fixtures" ? undefined : input.sourceCount,
        batch: decodeUndefined(data.batchState),
        projector: decodeUndefined(data.projectorState),
      });
    }
  }
  return cases;
}

const cases = parityCases();

const TERMINAL = new Set(["action.resolved", "action.cancelled", "action.canceled", "action.expired"]);

test("views: a tool name is lower-cased as JS lower-cases it, text beyond ASCII included", () => {
  // The tool family rules read the lower-cased name, so a name and its `toLowerCase()` have the
  // same family; the module lower-cases text beyond ASCII with the host's own `toLowerCase`
  // (the Kelvin sign is an ASCII "k" then).
  const event = api.agentUiConformanceFixtures.find((f) => f.id === "tool-success").events[0];
  const family = (name) =>
    api.projectAgentUiState({ executionEvents: [{ ...event, title: name, payload: { toolName: name } }] }).toolCalls
      .calls[0].family;
  assert.equal(family("S\u212aILL"), "skill");
  assert.equal(family("\u0130"), family("\u0130".toLowerCase()));
  for (const name of ["S\u212aILL", "WEB_\u212aSEARCH", "B\u00c1SH", "\u0392ROWSER", "REA\u0110", "\u4e2dREAD"]) {
    assert.equal(family(name), family(name.toLowerCase()), name);
  }
});

test("views: the recorded cases are there", { skip: !hasReference }, () => {
  assert.ok(cases.length >= 19);
  assert.ok(cases.some((c) => c.batch.mcp.hasMcp));
  assert.ok(cases.some((c) => c.events.some((e) => e.eventClass === "state.delta")));
});

for (const c of cases) {
  test(`views ${c.name}: tool and MCP surfaces of the recorded state`, () => {
    assert.deepStrictEqual(api.projectAgentUiToolSurface(c.batch.readModel.events), c.batch.toolCalls);
    const mcp = api.projectAgentUiMcpSurface(c.batch.toolCalls);
    assert.deepStrictEqual(mcp, c.batch.mcp);
    // As in the reference, the surface's tools are the calls' own views.
    const views = new Set(c.batch.toolCalls.calls.map((call) => call.mcp));
    for (const tool of mcp.tools) assert.ok(views.has(tool));
    for (const tool of c.batch.mcp.tools) {
      assert.equal(api.parseAgentUiMcpToolName(tool.fullName)?.toolName ?? tool.fullName, tool.toolName);
      assert.equal(api.classifyAgentUiMcpOperationKind(tool.fullName) ?? "tool", tool.operationKind);
    }
    for (const call of c.batch.toolCalls.calls) {
      if (call.family !== "mcp") assert.equal(api.parseAgentUiMcpToolName(call.toolName), undefined);
    }
  });

  test(`views ${c.name}: runtime status, batch and incremental`, () => {
    assert.deepStrictEqual(api.runtimeStatusForEvents(c.events), c.batch.runtime);
    const acc = api.createRuntimeStatusAccumulator();
    const seen = new Set();
    let view = acc.getStatus();
    assert.equal(view.status, "idle");
    for (const event of c.events) {
      if (seen.has(event.id)) continue;
      seen.add(event.id);
      view = acc.apply(event);
      assert.equal(acc.getStatus(), view);
    }
    // The projector's runtime is the incremental accumulator's (spec §3.3.2).
    assert.deepStrictEqual(view, c.projector.runtime);
    assert.deepStrictEqual(acc.reset(), api.createRuntimeStatusAccumulator().getStatus());
  });

  test(`views ${c.name}: per-event read-model helpers`, () => {
    const context = { resolvedActionIds: new Set(), resolvedEventIds: new Set() };
    for (const event of c.events) {
      if (!TERMINAL.has(event.eventClass)) continue;
      if (event.actionId) context.resolvedActionIds.add(event.actionId);
      const from = event.payload?.resolvedFromEventId;
      if (typeof from === "string" && from) context.resolvedEventIds.add(from);
    }
    for (const p of c.batch.readModel.events) {
      const source = p.source;
      assert.deepStrictEqual(api.projectAgentRuntimeEvent(source, context), p);
      assert.equal(api.agentEventSurface(source), p.surface);
      assert.equal(api.agentEventActionKind(source), p.actionKind);
      assert.equal(api.agentEventTargetModule(source), p.targetModule);
      if (!p.resolved) assert.equal(api.agentEventDisplayStatusKey(source), p.displayStatusKey);
      if (p.action) assert.deepStrictEqual(api.projectAgentRuntimeAction(source), p.action);
      if (!source.eventClass?.startsWith("action.")) {
        assert.equal(api.agentEventStatusKey(source.status), p.displayStatusKey);
        assert.equal(api.agentEventStatusLabel(source.status), p.displayStatusKey);
      }
    }
    assert.equal(c.events.some(api.isAgentInputSourceRecoveryEvent), c.batch.readModel.inputSourceRecovery);
  });

  test(`views ${c.name}: read-model accumulator`, () => {
    const acc = api.createAgentRuntimeReadModelAccumulator(c.sourceCount ?? 0);
    const stepwise = c.events.length <= 120;
    let prev = acc.getReadModel();
    c.events.forEach((event, i) => {
      const next = acc.apply(event);
      assert.equal(acc.getReadModel(), next);
      if (stepwise) {
        const expected = api.projectAgentRuntimeReadModel({
          executionEvents: c.events.slice(0, i + 1),
          sourceCount: c.sourceCount,
        });
        assert.deepStrictEqual(next, expected, `after event ${i}`);
      }
      // Only a resolution projects earlier events again: otherwise they stay the same objects.
      if (!TERMINAL.has(event.eventClass)) {
        for (let j = 0; j < prev.events.length; j++) assert.equal(next.events[j], prev.events[j]);
      }
      if (!event.taskId) assert.equal(next.taskRefs, prev.taskRefs);
      prev = next;
    });
    assert.deepStrictEqual(prev, c.batch.readModel);
    for (const surface of new Set(c.batch.readModel.events.map((p) => p.surface))) {
      const bucket = acc.getEventsBySurface(surface);
      assert.deepStrictEqual(
        bucket,
        c.batch.readModel.events.filter((p) => p.surface === surface),
      );
    }
    assert.deepStrictEqual(acc.getEventsBySurface("no-such-surface"), []);
    assert.deepStrictEqual(acc.reset(3), api.projectAgentRuntimeReadModel({ sourceCount: 3 }));
    // With `strict`, each event is checked as JSON first; the model is the same.
    const strict = api.projectAgentRuntimeReadModel({ executionEvents: c.events, sourceCount: c.sourceCount }, { strict: true });
    assert.deepStrictEqual(strict, c.batch.readModel);
  });

  test(`views ${c.name}: subagents accumulator`, () => {
    const acc = api.createAgentUiSubagentsModelAccumulator();
    let prev = acc.getModel();
    for (const event of c.events) {
      const next = acc.apply(event);
      assert.equal(acc.getModel(), next);
      if (next !== prev) {
        // A subagent event changes one thread: the others stay the same objects.
        const changed = next.threads.filter((t, i) => t !== prev.threads[i]);
        assert.ok(changed.length <= 1, `${event.id} changed ${changed.length} threads`);
        for (let i = 0; i < prev.activities.length; i++) assert.equal(next.activities[i], prev.activities[i]);
      }
      prev = next;
    }
    assert.deepStrictEqual(prev, api.buildAgentUiSubagentsModel(c.events));
    if (!c.events.some((e) => e.eventClass === "state.delta")) {
      assert.deepStrictEqual(prev, c.batch.subagents);
    }
    assert.deepStrictEqual(acc.reset(), api.buildAgentUiSubagentsModel([]));
  });

  test(`views ${c.name}: collaboration metadata of every recorded activity`, () => {
    const byId = new Map(c.events.map((e) => [e.id, e]));
    for (const activity of c.batch.subagents.activities) {
      const event = byId.get(activity.sourceEventId);
      assert.deepStrictEqual(
        api.buildAgentUiCollaborationPayloadMetadata(collaborationInput(event)),
        activity.collaboration,
      );
    }
  });
}

/** The builder's input for an event, as the subagents projection gives it (spec §3.11.4). */
function collaborationInput(event) {
  const payload = isRecord(event.payload) ? event.payload : undefined;
  const raw = (...keys) => {
    if (!payload) return undefined;
    for (const k of keys) if (typeof payload[k] === "string" && payload[k].trim()) return payload[k];
    return undefined;
  };
  return {
    sourceType: event.eventClass,
    collaborationKind: raw("collaborationKind", "collaboration_kind"),
    surface: raw("collaborationSurface", "collaboration_surface"),
    phase: event.phase ?? raw("collaborationPhase", "collaboration_phase"),
    status: event.status,
    runtimeEntity: raw("runtimeEntity", "runtime_entity"),
    runtimeStatus: raw("runtimeStatus", "runtime_status"),
    latestTurnStatus: raw("latestTurnStatus", "latest_turn_status"),
    taskId: event.taskId ?? raw("taskId", "task_id"),
    agentId: event.subagentId ?? event.workerId,
    parentThreadId: raw("parentThreadId", "parent_thread_id") ?? event.threadId,
    transcriptRef: raw("transcriptRef", "transcript_ref"),
    handoffId: event.handoffId,
    metadata: isRecord(payload?.metadata) ? payload.metadata : undefined,
    payload,
  };
}

function isRecord(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------
// State deltas: the recorded deltas patch the subagents model only, so the state built from the
// events alone is the recorded batch state with the subagents model of the events.

const deltaCases = cases.filter((c) => c.events.some((e) => e.eventClass === "state.delta"));

function eventOnlyState(c) {
  return { ...c.batch, subagents: api.buildAgentUiSubagentsModel(c.events) };
}

for (const c of deltaCases) {
  test(`views ${c.name}: the delta pass over the events-only state is the recorded state`, () => {
    const before = eventOnlyState(c);
    const after = api.applyAgentRuntimeStateDeltasToProjectionState(before, c.events);
    assert.deepStrictEqual(after, c.batch);
    // Where every delta is superseded by a later event, nothing applies: the same state.
    if (isDeepStrictEqual(before.subagents, c.batch.subagents)) assert.equal(after, before);
    // Only what the deltas touched is new.
    for (const key of ["timeline", "messages", "readModel", "toolCalls", "graph", "tools"]) {
      assert.equal(after[key], before[key], key);
    }
    assert.equal(api.applyAgentRuntimeStateDeltasToProjectionState(before, []), before);
  });

  test(`views ${c.name}: one delta at a time`, () => {
    const before = eventOnlyState(c);
    for (const event of c.events.filter((e) => e.eventClass === "state.delta")) {
      const delta = api.readAgentRuntimeStateDelta(event);
      const given = event.payload.stateDelta ?? event.payload;
      assert.deepStrictEqual(delta, {
        schemaVersion: given.schemaVersion ?? "lime-runtime-state-delta/v0.1",
        runtimeId: given.runtimeId ?? event.runtimeId ?? "runtime",
        threadId: given.threadId ?? event.threadId,
        turnId: given.turnId ?? event.turnId,
        sequence: given.sequence ?? event.sequence ?? 0,
        baseEventId: given.baseEventId ?? given.baseCursor,
        target: given.target,
        patch: given.patch ?? given.ops,
        createdAt: given.createdAt ?? event.createdAt,
      });
      const result = api.applyAgentRuntimeStateDeltaToProjectionState(before, event);
      assert.equal(result.applied, true);
      assert.ok(!Object.hasOwn(result, "error"));
      // The recorded ops replace a thread's summary.
      const expected = structuredClone(before);
      for (const op of delta.patch) {
        const [, list, index, key] = op.path.split("/");
        expected.subagents[list][Number(index)][key] = op.value;
      }
      assert.deepStrictEqual(result.state, expected);
      assert.equal(result.state.readModel, before.readModel);
      // The subagents' lists the ops do not name come back as the same objects.
      assert.equal(result.state.subagents.activities, before.subagents.activities);
      assert.equal(result.state.subagents.delegationCalls, before.subagents.delegationCalls);
    }
  });
}

test("views: state deltas that do not apply", { skip: deltaCases.length === 0 }, () => {
  const c = deltaCases[0];
  const state = eventOnlyState(c);
  const plain = c.events.find((e) => e.eventClass !== "state.delta");
  const skipped = api.applyAgentRuntimeStateDeltaToProjectionState(state, plain);
  assert.deepStrictEqual(Object.keys(skipped), ["state", "applied"]);
  assert.equal(skipped.state, state);
  assert.equal(skipped.applied, false);
  assert.equal(api.readAgentRuntimeStateDelta(plain), undefined);

  const delta = c.events.find((e) => e.eventClass === "state.delta");
  const bad = { ...delta, id: "bad-delta", payload: { target: "projection", patch: [{ op: "add", path: "/toolCalls/x", value: 1 }] } };
  const failed = api.applyAgentRuntimeStateDeltaToProjectionState(state, bad);
  const message = "state.delta cannot patch unknown projection root: /toolCalls";
  assert.equal(failed.applied, false);
  assert.equal(failed.error, message);
  assert.deepStrictEqual(failed.state.diagnostics.at(-1), {
    id: "state-delta:bad-delta",
    sourceEventId: "bad-delta",
    title: "state.delta apply failed",
    detail: message,
    status: "failed",
  });
  assert.deepStrictEqual(failed.state.diagnostics.slice(0, -1), state.diagnostics);
  assert.deepStrictEqual(failed.state.hydration, { ...state.hydration, status: "stale" });
  assert.equal(failed.state.subagents, state.subagents);
  assert.equal(failed.state.toolCalls, state.toolCalls);

  // A failure found while applying (a test op that fails) is recorded the same way, by the
  // single and the list form (the state's diagnostics cross only then).
  const failing = {
    ...delta,
    id: "failing-delta",
    payload: { target: "projection.subagents", patch: [{ op: "test", path: "/threads/0/status", value: "none" }] },
  };
  const once = api.applyAgentRuntimeStateDeltaToProjectionState(state, failing);
  assert.equal(once.applied, false);
  assert.equal(once.error, "JSON Patch test failed at /subagents/threads/0/status");
  for (const result of [once.state, api.applyAgentRuntimeStateDeltasToProjectionState(state, [failing])]) {
    assert.deepStrictEqual(result.diagnostics.at(-1), {
      id: "state-delta:failing-delta",
      sourceEventId: "failing-delta",
      title: "state.delta apply failed",
      detail: once.error,
      status: "failed",
    });
    assert.deepStrictEqual(result.diagnostics.slice(0, -1), state.diagnostics);
    assert.equal(result.subagents, state.subagents);
  }

  const invalid = { ...delta, id: "invalid-delta", payload: { target: "projection" } };
  assert.equal(api.readAgentRuntimeStateDelta(invalid), undefined);
  assert.equal(
    api.applyAgentRuntimeStateDeltaToProjectionState(state, invalid).error,
    "Missing or invalid state.delta payload.",
  );
  // A later event touching the same area supersedes a delta.
  const later = c.events.find((e) => e.subagentId);
  assert.ok(later);
  const superseded = api.applyAgentRuntimeStateDeltasToProjectionState(state, [delta, later]);
  assert.equal(superseded, state);
  // An event the reference throws on while a delta is active is named by its index in the list,
  // the events before the first delta counted too.
  const odd = { id: "odd-class", eventClass: 5, kind: "tool" };
  assert.throws(() => api.applyAgentRuntimeStateDeltasToProjectionState(state, [later, later, delta, odd]), {
    name: "TypeError",
    message: /^applyAgentRuntimeStateDeltasToProjectionState: events\[3\]: .*eventClass \(a number\)/,
  });
});

test("views: the coding workbench view holds the state's own objects", { skip: cases.length === 0 }, () => {
  for (const c of cases) {
    const state = api.projectAgentUiState({ executionEvents: c.events, sourceCount: c.sourceCount });
    const view = api.projectCodingWorkbenchView(state);
    for (const key of ["runtime", "actions", "artifacts", "evidence"]) {
      assert.equal(view[key], state[key], `${c.name}: view.${key}`);
    }
    // A state given twice gives views that share those objects (React can skip their subtrees).
    assert.equal(api.projectCodingWorkbenchView(state).runtime, view.runtime, c.name);
  }
});

test("views: readAgentRuntimeStateDelta reads the caller's own delta (spec 3.13.1)", () => {
  const read = (payload, extra = {}) =>
    api.readAgentRuntimeStateDelta({ eventClass: "state.delta", runtimeId: "rt", sequence: 4, ...extra, payload });
  const patch = [{ op: "replace", path: "/threads/0/summary", value: "s" }];
  const delta = read({ target: "projection.subagents", patch, ops: "ignored" }, { threadId: "th", createdAt: "c" });
  assert.deepStrictEqual(delta, {
    schemaVersion: "lime-runtime-state-delta/v0.1",
    runtimeId: "rt",
    threadId: "th",
    turnId: undefined,
    sequence: 4,
    baseEventId: undefined,
    target: "projection.subagents",
    patch,
    createdAt: "c",
  });
  // The same array object as the event's, as the reference returns it.
  assert.equal(delta.patch, patch);
  // The record under payload.stateDelta wins over the payload, its strings over the event's.
  const nested = read({ target: "x", patch: [], stateDelta: { target: " t ", ops: patch, runtimeId: "r2", sequence: Infinity, baseCursor: "b" } });
  assert.deepStrictEqual([nested.target, nested.patch, nested.runtimeId, nested.sequence, nested.baseEventId], [" t ", patch, "r2", 4, "b"]);
  // Which operations are valid: value must be an own key; from must be a string (inherited or own).
  const valid = (op) => read({ target: "t", patch: [op] }) !== undefined;
  assert.equal(valid({ op: "add", path: "/a", value: undefined }), true);
  assert.equal(valid(Object.assign(Object.create({ value: 1 }), { op: "add", path: "/a" })), false);
  assert.equal(valid({ op: "test", path: "/a" }), false);
  assert.equal(valid({ op: "remove", path: "/a" }), true);
  assert.equal(valid({ op: "remove", path: 1 }), false);
  assert.equal(valid({ op: "move", path: "/a", from: "/b" }), true);
  assert.equal(valid(Object.assign(Object.create({ from: "/b" }), { op: "copy", path: "/a" })), true);
  assert.equal(valid({ op: "copy", path: "/a", from: 2 }), false);
  assert.equal(valid({ op: "bogus", path: "/a", value: 1 }), false);
  assert.equal(valid(["op"]), false);
  // A non-nullish patch that is not an array does not fall back to ops; a null one does.
  assert.equal(read({ target: "t", patch: "x", ops: patch }), undefined);
  assert.equal(read({ target: "t", patch: null, ops: patch }).patch, patch);
  assert.equal(read({ target: "   ", patch }), undefined);
  assert.equal(read([patch]), undefined);
  assert.equal(api.readAgentRuntimeStateDelta({ eventClass: "state.deltas", payload: { target: "t", patch } }), undefined);
  // A value that is not an event reads as one without a class; a nullish one throws reading it.
  assert.equal(api.readAgentRuntimeStateDelta("state.delta"), undefined);
  assert.equal(api.readAgentRuntimeStateDelta([]), undefined);
  assert.throws(() => api.readAgentRuntimeStateDelta(null), { name: "TypeError", message: /reading 'eventClass'/ });
});

test("views: the coding view's diagnostics and merged actions are the state's own items", { skip: !hasReference }, () => {
  // Recorded calls: the diagnostics the view keeps are the state's objects (a filter of them).
  let kept = 0;
  for (const call of readReference("calls", "projection", "coding.json").calls) {
    if (call.name !== "projectCodingWorkbenchView") continue;
    const [state, readModel] = decodeUndefined(call.args);
    const view = api.projectCodingWorkbenchView(state, readModel);
    for (const d of view.diagnostics) assert.ok(state.diagnostics.includes(d), "a diagnostic is the state's own");
    kept += view.diagnostics.length;
  }
  assert.ok(kept > 0);
  // A read model that merges a request in: the state's actions come first as its own objects.
  const fixture = api.agentUiConformanceFixtures.find((f) => f.events.some((e) => e.eventClass === "action.required"));
  const state = api.projectAgentUiState({ executionEvents: fixture.events });
  assert.ok(state.actions.length > 0);
  const view = api.projectCodingWorkbenchView(state, { threadId: "t", pendingRequests: [{ id: "req-1", requestType: "approval" }] });
  assert.notEqual(view.actions, state.actions);
  assert.equal(view.actions.length, state.actions.length + 1);
  state.actions.forEach((action, i) => assert.equal(view.actions[i], action, `actions[${i}]`));
  assert.equal(view.actions.at(-1).id, "read-model:action:req-1");
  assert.ok(!state.actions.includes(view.actions.at(-1)));
});

test("views: undefined members survive a state delta", () => {
  const state = api.projectAgentUiState({
    executionEvents: [{ id: "e1", kind: "state", status: "running", eventClass: "turn.started", title: "T", createdAt: "2026-06-10T00:00:00.000Z" }],
  });
  assert.ok(Object.hasOwn(state.runtime, "activeRunId"));
  const delta = {
    id: "d1",
    kind: "state",
    status: "completed",
    eventClass: "state.delta",
    title: "D",
    createdAt: "2026-06-10T00:00:00.000Z",
    payload: { target: "runtime", patch: [{ op: "replace", path: "/runtime/latestEventId", value: "x" }] },
  };
  const { state: next } = api.applyAgentRuntimeStateDeltaToProjectionState(state, delta);
  assert.ok(Object.hasOwn(next.runtime, "activeRunId"));
  assert.equal(next.runtime.activeRunId, undefined);
  assert.equal(next.runtime.latestEventId, "x");
  assert.equal(next.messages, state.messages);
});

// Only what a delta pass reads crosses into the module (state_delta::WholeStatePass::needed_json):
// the containers on its paths, items by index unless an operation shifts them. The batch
// projection applies the same deltas to the state it holds whole: the two must agree.
test("views: random state deltas give the state the batch projection gives, the untouched parts the caller's own", () => {
  const { rnd, pick } = xorshift(2026);
  const stream = api.generateRuntimeEvents(60, 3, { actionRate: 0.3, subagentRate: 0.3 });
  const roots = ["messages", "timeline", "artifacts", "evidence", "subagents", "readModel", "actions", "diagnostics", "tools", "graph", "runtime", "hydration", "ephemeralUi"];
  const pathIn = (state) => {
    let value = state;
    const tokens = [];
    for (let depth = 1 + Math.floor(rnd() * 4); tokens.length < depth; ) {
      if (tokens.length === 0) tokens.push(pick(roots));
      else if (Array.isArray(value)) {
        const r = rnd();
        tokens.push(r < 0.1 ? "-" : r < 0.15 ? String(value.length + 1) : String(Math.floor(rnd() * Math.max(1, value.length))));
      } else if (isRecord(value)) tokens.push(rnd() < 0.9 ? pick(Object.keys(value)) ?? "zz" : "zz");
      else break;
      value = value?.[tokens.at(-1)];
    }
    return { path: `/${tokens.join("/")}`, value };
  };
  const delta = (id, patch) => ({
    id,
    kind: "state",
    status: "completed",
    eventClass: "state.delta",
    threadId: stream[0].threadId,
    sequence: 100000,
    title: "delta",
    payload: { target: "projection", patch },
    createdAt: "2026-06-10T00:00:00.000Z",
  });
  // Values key by key (the root's key order is compared on its own: a root a delta replaces goes last).
  const byKey = (state, events) =>
    Object.fromEntries(Object.keys(state).sort().map((k) => [k, JSON.stringify(state[k], (_, v) => (events.includes(v) ? "<delta>" : v))]));
  let applied = 0;
  for (let n = 0; n < 150; n++) {
    const base = stream.slice(0, 10 + Math.floor(rnd() * 50));
    const before = api.projectAgentUiState({ executionEvents: base });
    const ops = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => {
      const op = pick(["add", "remove", "replace", "test", "move", "copy", "replace", "add", "remove"]);
      const { path, value } = pathIn(before);
      if (op === "test") return { op, path, value: rnd() < 0.7 ? structuredClone(value) ?? null : "x" };
      if (op === "move" || op === "copy") return { op, path, from: pathIn(before).path };
      return op === "remove" ? { op, path } : { op, path, value: pick(["v", 1, null, { id: "nid", status: "running", threadId: "t9" }, [1]]) };
    });
    const event = delta("d", ops);
    const empty = delta("d", []);
    const expected = api.projectAgentUiState({ executionEvents: [...base, event] });
    const given = api.projectAgentUiState({ executionEvents: [...base, empty] });
    const givenText = JSON.stringify(given);
    const result = api.applyAgentRuntimeStateDeltaToProjectionState(given, event);
    // The given state is never changed (the result's new containers are its own).
    assert.equal(JSON.stringify(given), givenText, JSON.stringify(ops));
    if (result.applied) applied++;
    assert.deepStrictEqual(byKey(result.state, [event, empty]), byKey(expected, [event, empty]), JSON.stringify(ops));
    assert.deepStrictEqual(Object.keys(result.state), Object.keys(expected), JSON.stringify(ops));
    // A projector given the same events (the delta in a patch of its own) holds the same state.
    const projector = api.createAgentUiProjector();
    projector.applyMany(base);
    const live = projector.apply(event);
    assert.deepStrictEqual(Object.keys(live), Object.keys(expected), JSON.stringify(ops));
    assert.deepStrictEqual(byKey(live, [event]), byKey(expected, [event]), JSON.stringify(ops));
    // A root no operation names and the re-sync does not rebuild is the caller's own.
    const named = new Set(ops.flatMap((op) => [op.path, op.from ?? ""].map((p) => p.split("/")[1])));
    for (const key of Object.keys(given)) {
      if (named.has(key) || ["artifacts", "evidence", "subagents", "hydration", "diagnostics"].includes(key)) continue;
      assert.equal(result.state[key], given[key], `${key} after ${JSON.stringify(ops)}`);
    }
  }
  assert.ok(applied > 30, `${applied} of 150 deltas applied`);
  // Past 64 lists an operation may shift, every index names any item.
  const many = [
    ...Array.from({ length: 70 }, (_, i) => ({ op: "add", path: `/messages/${i % 3}/refs/0`, value: `r${i}` })),
    { op: "replace", path: "/timeline/2/title", value: "x" },
  ];
  const [event, empty] = [delta("d", many), delta("d", [])];
  const expected = api.projectAgentUiState({ executionEvents: [...stream.slice(0, 30), event] });
  const given = api.projectAgentUiState({ executionEvents: [...stream.slice(0, 30), empty] });
  const result = api.applyAgentRuntimeStateDeltaToProjectionState(given, event);
  assert.equal(result.applied, true, result.error);
  assert.deepStrictEqual(byKey(result.state, [event, empty]), byKey(expected, [event, empty]));
});

// A `test` operation reads its value whole: the wrapper writes it with encodeWire (JSON.stringify
// with a replacer: toJSON, undefined members, strings the wire escapes); the reference compares
// the two sides' JSON texts.
test("views: a delta's test operation reads the state's values as JSON.stringify writes them", () => {
  const state = api.projectAgentUiState({ executionEvents: [] });
  const when = new Date(Date.UTC(2026, 0, 2));
  const proto = { x: [1, { y: undefined }] };
  const odd = { a: undefined, s: "\u0000x", q: 'a"b\\\n', f: () => 1, list: [undefined, () => 1, "\u0000u"], when };
  Object.defineProperty(odd, "__proto__", { value: proto, enumerable: true, writable: true, configurable: true });
  const given = { ...state, ephemeralUi: { odd, when, keep: { big: "x".repeat(40) } } };
  const check = (path, value) => api.applyAgentRuntimeStateDeltaToProjectionState(given, projectionDelta("t", [{ op: "test", path, value }]));
  const same = { s: "\u0000x", q: 'a"b\\\n', list: [null, null, "\u0000u"], when: when.toJSON() };
  Object.defineProperty(same, "__proto__", { value: { x: [1, {}] }, enumerable: true, writable: true, configurable: true });
  for (const [path, value] of [["/ephemeralUi/when", when.toJSON()], ["/ephemeralUi/odd", same], ["/ephemeralUi/odd/__proto__", { x: [1, {}] }]]) {
    const result = check(path, value);
    assert.equal(result.applied, true, `${path}: ${result.error}`);
    assert.equal(result.state.ephemeralUi, given.ephemeralUi, path);
  }
  for (const [path, value] of [["/ephemeralUi/when", "2026-01-03T00:00:00.000Z"], ["/ephemeralUi/odd", { ...same, s: "\u0000y" }]]) {
    const result = check(path, value);
    assert.equal(result.applied, false, path);
    assert.equal(result.error, `JSON Patch test failed at ${path}`);
  }
});

/** A `state.delta` event of `patch` on the whole projection. */
const projectionDelta = (id, patch) => ({
  id,
  kind: "state",
  status: "completed",
  eventClass: "state.delta",
  title: "delta",
  payload: { target: "projection", patch },
  createdAt: "2026-06-10T00:00:00.000Z",
});

// A list inside a root (the subagents' threads and activities) whose items an operation shifts:
// the patch rewrites each shifted item to its neighbour's value, and the items come back as the
// caller's own objects, as the reference's do (it moves them).
test("views: a delta that shifts the items of a list inside a root keeps the caller's items", () => {
  // Four subagents: the handoff fixture's events (but its delta and snapshot) once for each.
  const handoff = api.agentUiConformanceFixtures.find((f) => f.id === "subagent-handoff").events;
  let sequence = 0;
  const events = ["a", "b", "c", "d"].flatMap((name) =>
    handoff
      .filter((e) => e.eventClass !== "state.delta" && e.eventClass !== "snapshot.updated")
      .map((e) => ({
        ...JSON.parse(JSON.stringify(e).replaceAll("sub_arp_analyst", `sub_${name}`)),
        id: `${name}_${e.id}`,
        sequence: ++sequence,
      })),
  );
  const state = api.projectAgentUiState({ executionEvents: events });
  const stateText = JSON.stringify(state);
  assert.equal(state.subagents.threads.length, 4);
  const delta = (patch) => projectionDelta("d", patch);
  for (const [list, patch, order] of [
    ["threads", [{ op: "move", from: "/subagents/threads/0", path: "/subagents/threads/2" }], [1, 2, 0, 3]],
    ["threads", [{ op: "remove", path: "/subagents/threads/1" }], [0, 2, 3]],
    ["activities", [{ op: "move", from: "/subagents/activities/0", path: "/subagents/activities/3" }], [1, 2, 3, 0, 4, 5]],
    // A copy is a new object (the reference copies the value); the item it equals stays the
    // caller's, one place on.
    ["threads", [{ op: "copy", from: "/subagents/threads/1", path: "/subagents/threads/0" }], [-1, 0, 1, 2, 3]],
  ]) {
    const { state: next, applied } = api.applyAgentRuntimeStateDeltaToProjectionState(state, delta(patch));
    assert.equal(applied, true);
    const given = state.subagents[list];
    order.forEach((from, i) => {
      const item = next.subagents[list][i];
      if (from >= 0) assert.equal(item, given[from], `${list}[${i}] after ${JSON.stringify(patch)}`);
      else assert.ok(!given.includes(item), `${list}[${i}] after ${JSON.stringify(patch)} is a copy`);
    });
    assert.equal(next.subagents[list].length, given.length + ({ remove: -1, copy: 1 }[patch[0].op] ?? 0));
    assert.equal(next.subagents[list].at(-1), given.at(-1));
  }
  assert.equal(JSON.stringify(state), stateText);
});

test("views: a delta that shifts a list's items or moves a root key keeps the caller's objects", () => {
  const state = api.projectAgentUiState({ executionEvents: api.generateRuntimeEvents(40, 5) });
  const apply = (patch, given = state) => api.applyAgentRuntimeStateDeltaToProjectionState(given, projectionDelta("d", patch));
  // Items shift: the artifacts cross as containers (their ids are read), the graph whole (moved from).
  for (const patch of [
    [{ op: "remove", path: "/artifacts/0" }],
    [{ op: "add", path: "/artifacts/0", value: { id: "new" } }],
    [{ op: "move", path: "/runtime/moved", from: "/graph/1" }],
  ]) {
    const { state: next, applied } = apply(patch);
    assert.equal(applied, true, JSON.stringify(patch));
    const [root] = patch[0].from?.split("/").slice(1) ?? patch[0].path.split("/").slice(1);
    for (const item of next[root]) {
      // The added item, and a ref the re-sync makes for an id of the read model no view has.
      if (item.id === "new" || (Object.keys(item).length === 2 && item.sourceEventId === item.id)) continue;
      assert.ok(state[root].includes(item), `${root}: ${JSON.stringify(item).slice(0, 80)} after ${JSON.stringify(patch)}`);
    }
  }
  // A diagnostics list an operation names crosses in part; a failure still replaces the
  // delta's earlier diagnostic (it needs every item's id).
  const failing = { ...state, diagnostics: [{ id: "state-delta:d", title: "old" }] };
  const failed = api.applyAgentRuntimeStateDeltaToProjectionState(failing, {
    id: "d",
    kind: "state",
    status: "completed",
    eventClass: "state.delta",
    title: "delta",
    payload: { target: "projection", patch: [{ op: "remove", path: "/diagnostics/5" }] },
    createdAt: "2026-06-10T00:00:00.000Z",
  });
  assert.deepStrictEqual(failed.state.diagnostics.map((x) => [x.id, x.title]), [["state-delta:d", "state.delta apply failed"]]);
  // A list named by two indexes of a list that shifts; a ref view the re-sync shortens (its
  // duplicate id) between two deltas.
  const nested = { ...state, timeline: [{ parts: [] }, { parts: [{ text: "a" }, { text: "b" }] }] };
  const shifted = api.applyAgentRuntimeStateDeltaToProjectionState(nested, {
    id: "d",
    kind: "state",
    status: "completed",
    eventClass: "state.delta",
    title: "delta",
    payload: {
      target: "projection",
      patch: [
        { op: "add", path: "/timeline/1/parts/0", value: {} },
        { op: "add", path: "/timeline/0", value: {} },
        { op: "replace", path: "/timeline/2/parts/1/text", value: "x" },
      ],
    },
    createdAt: "2026-06-10T00:00:00.000Z",
  });
  assert.deepStrictEqual(shifted.state.timeline[2].parts, [{}, { text: "x" }, { text: "b" }]);
  const twice = { ...state, artifacts: [{ id: "a" }, { id: "a" }, { id: "b", meta: { x: 1 } }] };
  const delta = (id, patch) => ({ id, kind: "state", status: "completed", eventClass: "state.delta", title: "delta", payload: { target: "projection", patch }, createdAt: "2026-06-10T00:00:00.000Z" });
  const synced = api.applyAgentRuntimeStateDeltasToProjectionState(twice, [
    delta("e1", [{ op: "add", path: "/runtime/k", value: 1 }]),
    delta("e2", [{ op: "replace", path: "/artifacts/1/meta/x", value: 2 }]),
  ]);
  assert.deepStrictEqual(synced.artifacts.find((a) => a.id === "b").meta, { x: 2 });
  // An item replaced by a value equal to another item is not that item's object.
  const equal = { ...state, timeline: [{ id: "a" }, { id: "b" }] };
  const { state: same } = apply([{ op: "replace", path: "/timeline/1", value: { id: "a" } }], equal);
  assert.notEqual(same.timeline[1], same.timeline[0]);
  assert.equal(same.timeline[0], equal.timeline[0]);
  // A replaced root goes last, as in the reference; the other roots stay the caller's.
  const { state: moved } = apply([{ op: "replace", path: "/timeline", value: [] }]);
  assert.equal(Object.keys(moved).at(-1), "timeline");
  for (const key of ["messages", "readModel", "graph", "tools", "actions", "runtime"]) assert.equal(moved[key], state[key], key);
});

test("views: a delta pass reads of ref views' items and subagent threads only what the re-sync reads, and keeps them", () => {
  const state = api.projectAgentUiState({ executionEvents: api.generateRuntimeEvents(40, 5) });
  // The reference's re-sync reads an item's id (a thread's threadId and status) and keeps the
  // item itself: members it does not read are not read here either, class instances included.
  class View {
    constructor(id) {
      this.id = id;
      this.sourceEventId = id;
    }
  }
  let reads = 0;
  const loud = { id: "loud", sourceEventId: "loud", get title() { reads++; throw new Error("title read"); } };
  const thread = { threadId: "t1", status: "running", get summary() { reads++; throw new Error("summary read"); } };
  const given = {
    ...state,
    artifacts: [loud, new View("instance"), { id: "loud", sourceEventId: "again" }],
    evidence: [new View("ev")],
    subagents: { ...state.subagents, threads: [thread, { threadId: "t2", status: "completed" }] },
  };
  const delta = projectionDelta("d", [{ op: "add", path: "/runtime/k", value: 1 }]);
  for (const next of [
    api.applyAgentRuntimeStateDeltaToProjectionState(given, delta).state,
    api.applyAgentRuntimeStateDeltasToProjectionState(given, [delta]),
  ]) {
    assert.equal(reads, 0);
    assert.equal(next.runtime.k, 1);
    // The re-sync keeps the last view of an id at the first one's place, then adds a ref per id
    // of the read model no view has.
    assert.equal(next.artifacts[0], given.artifacts[2]);
    assert.equal(next.artifacts[1], given.artifacts[1]);
    assert.deepStrictEqual(next.artifacts.slice(2), state.readModel.artifactRefs.map((id) => ({ id, sourceEventId: id })));
    assert.equal(next.evidence[0], given.evidence[0]);
    assert.equal(next.subagents.threads, given.subagents.threads);
    assert.deepStrictEqual([next.subagents.activeThreadIds, next.subagents.completedThreadIds], [["t1"], ["t2"]]);
  }
  // An item a delta writes into is read whole: the result holds a copy with the write.
  const written = { ...given, artifacts: [{ id: "w", title: "T" }, given.artifacts[1]] };
  const next = api.applyAgentRuntimeStateDeltaToProjectionState(written, projectionDelta("e", [{ op: "add", path: "/artifacts/0/x", value: 1 }])).state;
  assert.deepStrictEqual(next.artifacts[0], { id: "w", title: "T", x: 1 });
  assert.equal(next.artifacts[1], given.artifacts[1]);
});

test("the coding view names an event it cannot project by its place in executionEvents", () => {
  const [event] = api.agentUiConformanceFixtures.find((f) => f.id === "tool-success").events;
  assert.throws(
    () => api.projectCodingWorkbenchViewFromEvents({ executionEvents: [event, 5] }),
    { name: "TypeError", message: "projectCodingWorkbenchViewFromEvents: executionEvents[1]: Runtime event must be an object." },
  );
  assert.throws(
    () => api.projectCodingWorkbenchViewFromEvents({ executionEvents: [{ ...event, status: 5 }] }),
    (error) => error instanceof TypeError && error.message.startsWith(`projectCodingWorkbenchViewFromEvents: executionEvents[0] (id "${event.id}"): `),
  );
});

test("runtimeStatusForEvents names the event its scan throws on", () => {
  const events = [
    { id: "e0", kind: "turn", eventClass: "turn.started", status: "running" },
    { id: "e1", kind: "turn", eventClass: "turn.started", status: 5 },
  ];
  assert.throws(() => api.runtimeStatusForEvents(events), {
    name: "TypeError",
    message: 'runtimeStatusForEvents: events[1] (id "e1"): the reference projection throws a TypeError on this event: it calls a string method on status (a number)',
  });
});

test("the runtime status reads ids and classes in any script as the batch projection does", () => {
  // Every id, action id and resolved-from id renamed one-to-one into text that is not ASCII (two
  // and three UTF-8 bytes a unit, surrogate pairs, ASCII after them): the status functions take
  // these fields as strings one by one, the batch projection inside the events' JSON text.
  const scripts = ["é", "中文", "😀", "ü-x", "ı"];
  const names = new Map();
  const rename = (id) => {
    if (typeof id !== "string") return id;
    if (!names.has(id)) names.set(id, `${scripts[names.size % scripts.length]}${id}${scripts[(names.size + 2) % scripts.length]}`);
    return names.get(id);
  };
  const events = api.generateRuntimeEvents(600, 17).map((e) => {
    const out = { ...e, id: rename(e.id), actionId: rename(e.actionId) };
    if (e.payload && typeof e.payload.resolvedFromEventId === "string") {
      out.payload = { ...e.payload, resolvedFromEventId: rename(e.payload.resolvedFromEventId) };
    }
    return out;
  });
  assert.ok(events.some((e) => e.actionId !== undefined), "the stream resolves actions");
  const acc = api.createRuntimeStatusAccumulator();
  const statuses = new Set();
  for (let n = 0; n < events.length; n++) {
    const view = acc.apply(events[n]);
    statuses.add(view.status);
    if (n % 25 === 0 || n === events.length - 1) {
      const prefix = events.slice(0, n + 1);
      const batch = api.projectAgentUiState({ executionEvents: prefix });
      assert.deepStrictEqual(api.runtimeStatusForEvents(prefix), batch.runtime, `after ${n + 1} events`);
    }
  }
  assert.ok(statuses.size >= 2, `statuses seen: ${[...statuses]}`);
  // The accumulator over the renamed stream says what it says over the original one, event by
  // event.
  const statusesOf = (stream) => {
    const a = api.createRuntimeStatusAccumulator();
    return stream.map((e) => a.apply(e).status);
  };
  assert.deepStrictEqual(statusesOf(events), statusesOf(api.generateRuntimeEvents(600, 17)));
});

test("the runtime status accumulator answers alike while the table of class codes starts afresh", () => {
  // 1,500 distinct (eventClass, status) pairs: more than the wrapper keeps codes for, so its
  // table is cleared and filled again on the way; each event is a new candidate, so the status
  // is the event's own.
  const acc = api.createRuntimeStatusAccumulator();
  for (let i = 0; i < 1500; i++) {
    const waiting = i % 3 === 0;
    const view = acc.apply({ id: `e${i}`, eventClass: `custom.step${i}`, status: waiting ? "pending" : "running" });
    assert.equal(view.status, waiting ? "waiting" : "running", `event ${i}`);
  }
  // An action request, then its resolution by actionId, on classes seen before the clear.
  assert.equal(acc.apply({ id: "req", eventClass: "action.required", actionId: "a1", status: "pending" }).status, "waiting");
  assert.equal(acc.apply({ id: "done", eventClass: "action.resolved", actionId: "a1", status: "completed" }).status, "running");
  // The same events on a fresh accumulator: the same answers, as after a reset.
  const events = api.agentUiConformanceFixtures.flatMap((f) => f.events);
  const statusesOf = (a) => events.map((e) => a.apply(e).status);
  const fresh = statusesOf(api.createRuntimeStatusAccumulator());
  acc.reset();
  assert.deepStrictEqual(statusesOf(acc), fresh);
});

test("the runtime status functions compare ids as the reference's sets do: as the values they are", () => {
  // A missing id and "" are two ids; a truthy actionId of any type is an action; two strings that
  // differ only in a lone surrogate are two actionIds. Statuses after each event, accumulator and
  // scan of each prefix, as the reference gives them.
  const cases = [
    [[{ eventClass: "action.required", actionId: "x" }, { id: "", status: "running" }, { id: "r", eventClass: "action.resolved", actionId: "x" }],
      "waiting,running,running", "waiting,running,running"],
    [[{ id: "a", eventClass: "action.required", actionId: 7, status: "pending" }, { id: "b", eventClass: "action.resolved", actionId: 7, status: "completed" }],
      "waiting,idle", "waiting,idle"],
    [[{ id: "b", eventClass: "action.resolved", actionId: 7 }, { id: "a", eventClass: "action.required", actionId: 7, status: "pending" }],
      "idle,idle", "idle,waiting"],
    [[{ id: "a", eventClass: "action.required", actionId: "x\ud800" }, { id: "b", eventClass: "action.resolved", actionId: "x\udc00" }],
      "waiting,waiting", "waiting,waiting"],
  ];
  for (const [events, accumulated, scanned] of cases) {
    const acc = api.createRuntimeStatusAccumulator();
    assert.equal(events.map((e) => acc.apply(e).status).join(","), accumulated, JSON.stringify(events));
    assert.equal(events.map((_, i) => api.runtimeStatusForEvents(events.slice(0, i + 1)).status).join(","), scanned, JSON.stringify(events));
  }
});

test("read model: an event the reference throws on is refused by name, and the accumulator keeps its model", () => {
  const good = { id: "evt-1", eventClass: "tool.started", kind: "tool", status: "running", taskId: "task-1" };
  const odd = { id: "evt-2", eventClass: 5, kind: "tool", status: "running" };
  const oddRefs = { id: "evt-3", eventClass: "artifact.changed", artifactRefs: "artifact-1" };
  const acc = api.createAgentRuntimeReadModelAccumulator();
  const before = acc.apply(good);
  assert.throws(() => acc.apply(odd), (e) => e instanceof TypeError && /apply: .*eventClass/.test(e.message));
  assert.throws(() => acc.apply(oddRefs), (e) => e instanceof TypeError && /apply: .*artifactRefs/.test(e.message));
  assert.equal(acc.getReadModel(), before);
  const after = acc.apply({ ...good, id: "evt-4" });
  assert.deepStrictEqual(after, api.projectAgentRuntimeReadModel({ executionEvents: [good, { ...good, id: "evt-4" }] }));
  assert.throws(
    () => api.projectAgentRuntimeReadModel({ executionEvents: [good, odd] }),
    (e) => e instanceof TypeError && /events\[1\]: .*eventClass/.test(e.message),
  );
  // An odd class the reference does not reach (the kind decides the surface first) projects.
  const action = { id: "evt-5", eventClass: 5, kind: "action", status: "pending" };
  assert.equal(acc.apply(action).events.at(-1).surface, "human-action");
  // Ids and refs are compared as the reference's sets compare them: the same object is one ref.
  const ref = { name: "artifact" };
  const model = api.projectAgentRuntimeReadModel({
    executionEvents: [
      { id: "a", eventClass: "artifact.changed", artifactRefs: [ref, "x"] },
      { id: "b", eventClass: "artifact.changed", artifactRefs: [ref, "x", { name: "artifact" }] },
    ],
  });
  assert.equal(model.artifactRefs.length, 3);
  assert.equal(model.artifactRefs[0], ref);
  // The refs of a sparse list are those `forEach` visits.
  const sparse = ["a"];
  sparse[2] = "c";
  const refs = api.projectAgentRuntimeReadModel({ executionEvents: [{ id: "s", eventClass: "artifact.changed", artifactRefs: sparse }] });
  assert.deepStrictEqual(refs.artifactRefs, ["a", "c"]);
});

test("agentEventSurface throws where the reference calls a string method on an eventClass that is no string", () => {
  const message = "event.eventClass?.startsWith is not a function";
  for (const event of [{ eventClass: 5, kind: "tool" }, { eventClass: {}, kind: "note" }, { eventClass: true }]) {
    assert.throws(() => api.agentEventSurface(event), { name: "TypeError", message });
    assert.throws(() => api.projectAgentRuntimeEvent(event), { name: "TypeError", message });
  }
  // The rules before the first class prefix decide without reading the class as a string.
  assert.equal(api.agentEventSurface({ eventClass: 5, kind: "action" }), "human-action");
  assert.equal(api.agentEventSurface({ eventClass: 5, kind: "sandbox" }), "permission");
  assert.equal(api.agentEventSurface({ eventClass: null, kind: "tool" }), "tool");
  assert.equal(api.agentEventSurface({ kind: "model" }), "runtime-status");
});

// The reference's projection adds a failed delta's diagnostic with `state.diagnostics.filter(
// (item) => item.id !== ...)`: after a delta that removed the list, made it a non-list or gave it
// a null item, it throws (our message names the event first, docs/limits.md).
test("views: a failed delta over a diagnostics list an earlier delta broke throws the reference's TypeError, batch and projector", () => {
  const base = api.generateRuntimeEvents(20, 4);
  const delta = projectionDelta;
  const failing = delta("f", [{ op: "replace", path: "/timeline/-", value: 1 }]);
  for (const [patch, message] of [
    [[{ op: "remove", path: "/diagnostics" }], "Cannot read properties of undefined (reading 'filter')"],
    [[{ op: "replace", path: "/diagnostics", value: null }], "Cannot read properties of null (reading 'filter')"],
    [[{ op: "replace", path: "/diagnostics", value: "v" }], "state.diagnostics.filter is not a function"],
    [[{ op: "add", path: "/diagnostics/0", value: null }], "Cannot read properties of null (reading 'id')"],
  ]) {
    const events = [...base, delta("e", patch), failing];
    const thrown = (error) => error instanceof TypeError && error.message.endsWith(`(id "f"): ${message}`);
    assert.throws(() => api.projectAgentUiState({ executionEvents: events }), thrown, JSON.stringify(patch));
    const projector = api.createAgentUiProjector();
    projector.applyMany(events.slice(0, -1));
    assert.throws(() => projector.apply(failing), thrown, JSON.stringify(patch));
    assert.throws(() => projector.getState(), thrown, JSON.stringify(patch));
    // A later event of the failed delta's area supersedes it: the state is readable again.
    const later = { ...base[1], id: "later", sequence: 999 };
    assert.deepStrictEqual(
      projector.apply(later),
      api.projectAgentUiState({ executionEvents: [...events, later] }),
      JSON.stringify(patch),
    );
    // The broken list alone is a state.
    assert.equal(typeof api.projectAgentUiState({ executionEvents: events.slice(0, -1) }), "object");
  }
});

// The wire text a state crosses in (pkg-template/wire.js `encodeWire`) is written by a walk that
// copies only what holds an escape, then JSON.stringify without a replacer; what the walk does not
// take as plain data goes through a replacer. Either way the text is the format's definition:
// JSON.stringify with the escapes made by a replacer, as here.
test("views: a state's wire text is JSON.stringify's with the wire escapes, for any value", async () => {
  const { WireRef, encodeWire } = await import(new URL("wire.js", pathToFileURL(pkgEntry)).href);
  const definition = (value, refs) =>
    JSON.stringify(value, function (_, x) {
      if (typeof x === "string") return x.charCodeAt(0) === 0 ? `\u0000${x}` : x;
      if (x === undefined) return "\u0000u";
      if (x instanceof WireRef) return `\u0000e${x.index}`;
      if (refs !== undefined && typeof x === "object" && x !== null && refs.has(x)) return `\u0000e${refs.get(x)}`;
      return x;
    }).replace(/\\\\|\\u(d[89a-f][0-9a-f]{2})/g, (m) => (m.length === 2 ? m : "\\ufffd"));
  const shared = { id: "s", list: [1, 2] };
  const refs = new Map([[shared, 7]]);
  const withProto = { a: 1 };
  Object.defineProperty(withProto, "__proto__", { value: { b: undefined }, enumerable: true, writable: true, configurable: true });
  let deep = { end: "\u0000deep" };
  for (let i = 0; i < 300; i++) deep = i % 2 ? { next: deep } : [deep, undefined];
  const getters = { get g() { return "\u0000got"; }, plain: "p" };
  const nullProto = Object.assign(Object.create(null), { n: undefined, m: "\u0000m" });
  class Point { constructor() { this.x = 1; } }
  const values = [
    { plain: { a: 1, b: [true, null, "x"], c: "text" } },
    { escapes: "\u0000lead", inner: ["\u0000", "mid\u0000", undefined, , 3], gone: undefined },
    { ref: new WireRef(3), refs: [new WireRef(0), shared, { shared }], twice: shared },
    { functions: [() => 1, Symbol("s")], f() {}, s: Symbol("t") },
    { when: new Date(Date.UTC(2026, 0, 2)), point: new Point(), map: new Map([[1, 2]]), boxed: new String("b") },
    { withProto, getters, nullProto, deep },
    { lone: "a\ud800b", pair: "\ud83d\ude00", text: "\\ud800 stays" },
    { withToJSON: Object.assign(["\u0000x", undefined], { toJSON: () => "T" }), list: [Object.assign(["\u0000"], { toJSON: () => ["j"] })] },
    undefined,
    "\u0000top",
    [undefined, shared],
    42,
  ];
  for (const value of values) {
    const before = JSON.stringify(value, (_, x) => (x === undefined ? "<undefined>" : x));
    assert.equal(encodeWire(value, refs), definition(value, refs));
    assert.equal(encodeWire(value), definition(value));
    assert.equal(JSON.stringify(value, (_, x) => (x === undefined ? "<undefined>" : x)), before, "the value is not changed");
  }
  // Each member is read once, as JSON.stringify reads it.
  let reads = 0;
  const counted = { get first() { reads++; return "a"; }, escaped: "\u0000b" };
  assert.equal(encodeWire({ counted }), definition({ counted: { first: "a", escaped: "\u0000b" } }));
  assert.equal(reads, 1);
  const cycle = { a: [] };
  cycle.a.push(cycle);
  assert.throws(() => encodeWire(cycle), (error) => error instanceof TypeError && /circular/i.test(error.message));
  assert.throws(() => encodeWire({ big: 1n }), (error) => error instanceof TypeError && /BigInt/.test(error.message));
});

// The part of a state a delta pass reads is written in wire form as it is built (views.js
// `deltaPassOver`): strings that look like the wire's escapes and undefined slots, read whole,
// kept or passed by, come back as themselves.
test("views: a delta pass reads and keeps strings that look like wire escapes as themselves", () => {
  const state = api.projectAgentUiState({ executionEvents: [] });
  const odd = { ref: "\u0000e0", undef: "\u0000u", lead: "\u0000", list: [undefined, "\u0000e1"], nested: { s: "\u0000x" } };
  const given = { ...state, ephemeralUi: { odd, other: { keep: "\u0000e2", long: "\u0000".repeat(30) } } };
  const apply = (patch) => api.applyAgentRuntimeStateDeltaToProjectionState(given, projectionDelta("w", patch));
  const same = JSON.parse(JSON.stringify(odd));
  const tested = apply([{ op: "test", path: "/ephemeralUi/odd", value: same }]);
  assert.equal(tested.applied, true, tested.error);
  assert.equal(tested.state.ephemeralUi, given.ephemeralUi);
  const replaced = apply([{ op: "replace", path: "/ephemeralUi/odd/nested/s", value: "\u0000y" }]);
  assert.equal(replaced.applied, true, replaced.error);
  assert.deepStrictEqual(replaced.state.ephemeralUi, { odd: { ...odd, nested: { s: "\u0000y" } }, other: given.ephemeralUi.other });
  assert.equal(replaced.state.ephemeralUi.other, given.ephemeralUi.other);
  assert.equal(replaced.state.ephemeralUi.odd.list, odd.list);
  const moved = apply([{ op: "copy", from: "/ephemeralUi/odd/list", path: "/ephemeralUi/copied" }]);
  assert.equal(moved.applied, true, moved.error);
  assert.deepStrictEqual(moved.state.ephemeralUi.copied, [undefined, "\u0000e1"]);
});

// After its last delta, a list crosses a part at a time while a delta is not yet superseded
// (views.js `applyAgentRuntimeStateDeltasToProjectionState`): an event anywhere in the list,
// first part or any later one, supersedes the delta, and an event the reference throws on is
// named by its index in the list.
test("views: a delta list's later events supersede and throw the same in every part the list crosses in", () => {
  const state = api.projectAgentUiState({ executionEvents: api.generateRuntimeEvents(30, 3) });
  const delta = projectionDelta("tools-delta", [{ op: "replace", path: "/tools", value: [] }]);
  const filler = (i) => ({ id: `f${i}`, eventClass: "model.delta", kind: "model", status: "running", title: "text" });
  const toolEvent = { id: "t", eventClass: "tool.started", kind: "tool", status: "running", title: "tool" };
  const odd = { id: "odd", eventClass: 5, kind: "model" };
  const list = (n, at, event) => {
    const events = [filler(-1), delta, ...Array.from({ length: n }, (_, i) => filler(i))];
    if (at !== undefined) events.splice(2 + at, 0, event);
    return events;
  };
  const applied = api.applyAgentRuntimeStateDeltasToProjectionState(state, list(300));
  assert.deepStrictEqual(applied.tools, []);
  assert.notEqual(applied.tools, state.tools);
  for (const at of [0, 31, 32, 33, 95, 96, 97, 224, 299]) {
    assert.equal(api.applyAgentRuntimeStateDeltasToProjectionState(state, list(300, at, toolEvent)), state, `superseded at ${at}`);
    assert.throws(() => api.applyAgentRuntimeStateDeltasToProjectionState(state, list(300, at, odd)), {
      name: "TypeError",
      message: new RegExp(`^applyAgentRuntimeStateDeltasToProjectionState: events\\[${2 + at}\\]: .*eventClass \\(a number\\)`),
    });
    // Once the delta is superseded, a later event is not read for it: no throw.
    const both = list(300, at, toolEvent);
    both.splice(3 + at, 0, odd);
    assert.equal(api.applyAgentRuntimeStateDeltasToProjectionState(state, both), state, `odd after ${at}`);
  }
  // No event touches `ephemeralUi`: its delta applies, and no later event is read for it.
  const intoUi = projectionDelta("ui-delta", [{ op: "replace", path: "/ephemeralUi", value: { open: true } }]);
  const uiList = [intoUi, ...list(100, 50, odd).slice(2), toolEvent];
  assert.deepStrictEqual(api.applyAgentRuntimeStateDeltasToProjectionState(state, uiList).ephemeralUi, { open: true });
});

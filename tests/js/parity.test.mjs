// Parity with the recorded reference outputs (shared/reference/parity): batch projection,
// the incremental projector (decided semantics: incremental == batch), fixture replay, and the
// generator (same streams as shared/bench/gen.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeUndefined, hasReference, listReference, pkgEntry, readReference } from "./reference.mjs";

const api = await import(pkgEntry);

/**
 * How a state shares the objects the reference shares: the `tools` and `actions` projections
 * found (by identity) among `readModel.events`, and the tool calls' MCP views found (by
 * identity) in `mcp.tools`, each against its total.
 */
function sharing(state) {
  const entries = new Set(state.readModel.events);
  const buckets = [...state.tools, ...state.actions];
  const views = state.toolCalls.calls.map((call) => call.mcp).filter(Boolean);
  const listed = new Set(state.mcp.tools);
  return {
    buckets: buckets.length,
    bucketsShared: buckets.filter((p) => entries.has(p)).length,
    views: views.length,
    viewsShared: views.filter((v) => listed.has(v)).length,
  };
}

/** The reference's batch state shares both kinds; its projectors' states only the MCP views. */
function assertBatchSharing(state) {
  const s = sharing(state);
  assert.equal(s.bucketsShared, s.buckets, "tools and actions are readModel.events entries");
  assert.equal(s.viewsShared, s.views, "the calls' MCP views are mcp.tools entries");
}

function assertProjectorSharing(state) {
  const s = sharing(state);
  assert.equal(s.bucketsShared, 0, "a projector's tools and actions are copies");
  assert.equal(s.viewsShared, s.views, "the calls' MCP views are mcp.tools entries");
}

// Streams of their own: a state delta that edits or moves a tool projection, an MCP tool call
// that reports progress, and one whose tool turns out not to be an MCP tool.
const T = "2026-06-10T00:00:00.000Z";
const toolEvent = (id, eventClass, status, toolName, callId = "c1") => ({
  id,
  kind: "tool",
  eventClass,
  status,
  title: toolName,
  createdAt: T,
  payload: { toolCallId: callId, toolName },
});
const deltaEvent = (id, patch) => ({
  id,
  kind: "state",
  eventClass: "state.delta",
  status: "completed",
  title: "delta",
  createdAt: T,
  payload: { target: "projection", patch },
});

test("a state delta that edits a tool projection leaves its read-model entry apart", () => {
  const started = toolEvent("e1", "tool.started", "running", "search");
  const delta = deltaEvent("d1", [{ op: "replace", path: "/tools/0/title", value: "patched" }]);
  const before = api.projectAgentUiState({ executionEvents: [started] });
  const state = api.projectAgentUiState({ executionEvents: [started, delta] });
  assert.equal(state.tools[0].title, delta.payload.patch[0].value);
  assert.deepStrictEqual(state.readModel.events[0], before.readModel.events[0]);
  assert.notEqual(state.readModel.events[0], state.tools[0]);
});

test("a state delta that moves tool projections keeps each one shared with its entry", () => {
  const events = [
    toolEvent("e1", "tool.started", "running", "search", "c1"),
    toolEvent("e2", "tool.started", "running", "read", "c2"),
    deltaEvent("d1", [{ op: "move", from: "/tools/0", path: "/tools/1" }]),
  ];
  const state = api.projectAgentUiState({ executionEvents: events });
  assert.equal(state.tools[0].source, events[1]);
  assert.ok(state.tools.every((projection) => state.readModel.events.includes(projection)));
});

test("an event object given twice has two read-model entries, each shared with its tool projection", () => {
  const started = toolEvent(undefined, "tool.started", "running", "search");
  delete started.id;
  const state = api.projectAgentUiState({ executionEvents: [started, started] });
  assert.equal(state.readModel.events.length, 2);
  assert.equal(state.tools.length, 2);
  assert.notEqual(state.readModel.events[0], state.readModel.events[1]);
  assert.equal(state.tools[0], state.readModel.events[0]);
  assert.equal(state.tools[1], state.readModel.events[1]);
});

test("a projector keeps each tool call's MCP view in mcp.tools after every event", () => {
  const streams = [
    [
      toolEvent("e1", "tool.started", "running", "mcp__github__search"),
      toolEvent("e2", "tool.progress", "running", "mcp__github__search"),
      toolEvent("e3", "tool.result", "completed", "mcp__github__search"),
    ],
    [
      toolEvent("e1", "tool.started", "running", "mcp__github__search"),
      toolEvent("e2", "tool.started", "running", "mcp__fs__read", "c2"),
      toolEvent("e3", "tool.progress", "running", "bash"),
      toolEvent("e4", "tool.result", "completed", "mcp__fs__read", "c2"),
    ],
  ];
  for (const events of streams) {
    const projector = api.createAgentUiProjector();
    for (const event of events) {
      const state = projector.apply(event);
      assertProjectorSharing(state);
      assert.ok(sharing(state).views > 0);
    }
  }
});

test("a batch state's artifact and evidence views hold their event's own metadata; a projector's, copies", () => {
  const metadataEvent = (id, eventClass, kind, field, ref, metadata) => ({
    id,
    kind,
    eventClass,
    status: "completed",
    title: id,
    createdAt: T,
    [field]: [ref],
    payload: { metadata },
  });
  const events = [
    metadataEvent("e1", "artifact.changed", "draft", "artifactRefs", "a1", { complete: true, size: 3 }),
    // A later event listing the same artifact: the view is the first event's.
    metadataEvent("e2", "artifact.changed", "draft", "artifactRefs", "a1", { complete: false }),
    metadataEvent("e3", "evidence.changed", "evidence", "evidenceRefs", "v1", { source: "log" }),
  ];
  for (const state of [
    api.projectAgentUiState({ executionEvents: events }),
    api.projectAgentUiStateFromSessionSnapshot({ executionEvents: events }),
  ]) {
    assert.equal(state.artifacts[0].metadata, events[0].payload.metadata);
    assert.equal(state.evidence[0].metadata, events[2].payload.metadata);
  }
  const projector = api.createAgentUiProjector();
  let state;
  for (const event of events) state = projector.apply(event);
  assert.deepStrictEqual(state.artifacts[0].metadata, events[0].payload.metadata);
  assert.notEqual(state.artifacts[0].metadata, events[0].payload.metadata);
  // A state delta that edits the metadata leaves the view's its own.
  const edited = api.projectAgentUiState({
    executionEvents: [...events, deltaEvent("d1", [{ op: "replace", path: "/artifacts/0/metadata/size", value: 4 }])],
  });
  assert.equal(edited.artifacts[0].metadata.size, 4);
  assert.equal(events[0].payload.metadata.size, 3);
  // With a delta the views keep copies (it may have copied or re-sourced one).
  assert.deepStrictEqual(edited.evidence[0].metadata, events[2].payload.metadata);
  // A delta that rewrites the read model's events leaves the tool surface the events made.
  const readModel = { ...api.projectAgentUiState({ executionEvents: [events[0]] }).readModel, events: [], visibleEvents: [] };
  const rewritten = api.projectAgentUiState({
    executionEvents: [events[0], deltaEvent("d2", [{ op: "replace", path: "/readModel", value: JSON.parse(JSON.stringify(readModel)) }])],
  });
  assert.deepStrictEqual(rewritten.readModel.events, []);
  assert.notEqual(rewritten.toolCalls, api.projectAgentUiToolSurface([]));
});

test("a session snapshot's message parts hold each message's own refs", () => {
  const messages = [
    { id: "m1", role: "user", content: "hi", createdAt: T, refs: ["a1"] },
    { id: "m2", role: "assistant", content: "hello", createdAt: T, refs: { not: "a list" } },
    { id: "m3", role: "assistant", content: "bye", createdAt: T },
  ];
  const state = api.projectAgentUiStateFromSessionSnapshot({ executionEvents: [], messages });
  assert.equal(state.messages.length, 3);
  assert.equal(state.messages[0].refs, messages[0].refs);
  assert.equal(state.messages[1].refs, messages[1].refs);
  assert.ok(Object.hasOwn(state.messages[2], "refs"));
  assert.equal(state.messages[2].refs, undefined);
  // A hole in the list stays a hole (the reference maps the list); a null message throws reading its id.
  const holed = api.projectAgentUiStateFromSessionSnapshot({ executionEvents: [], messages: [, messages[0]] });
  assert.equal(holed.messages.length, 2);
  assert.ok(!(0 in holed.messages));
  assert.equal(holed.messages[1].refs, messages[0].refs);
  assert.throws(() => api.projectAgentUiStateFromSessionSnapshot({ executionEvents: [], messages: [null] }), {
    name: "TypeError",
    message: "Cannot read properties of null (reading 'id')",
  });
  // The caller's value itself, also where JSON could not carry it whole.
  const lossy = [{ id: "m4", role: "user", content: "x", createdAt: T, refs: { a: undefined } }];
  assert.equal(api.projectAgentUiStateFromSessionSnapshot({ executionEvents: [], messages: lossy }).messages[0].refs, lossy[0].refs);
  // Each part holds the message's own values, read as the reference reads them: an id as a
  // template literal writes it (its own toString), the content or text object itself, and a role
  // that is no string throws calling its trim.
  const id = { toString: () => "own" };
  const content = { rich: ["text"] };
  const [part] = api.projectAgentUiStateFromSessionSnapshot({ executionEvents: [], messages: [{ id, role: " ", content }] }).messages;
  assert.deepStrictEqual(Object.keys(part), ["type", "partId", "messageId", "role", "text", "state", "sourceEventId", "createdAt", "refs"]);
  assert.equal(part.partId, "message:own");
  assert.equal(part.sourceEventId, "message:own");
  assert.equal(part.messageId, id);
  assert.equal(part.role, "assistant");
  assert.equal(part.text, content);
  assert.equal(api.projectAgentUiStateFromSessionSnapshot({ executionEvents: [], messages: [{ text: null }] }).messages[0].text, "");
  assert.throws(() => api.projectAgentUiStateFromSessionSnapshot({ executionEvents: [], messages: [{ id: "m", role: 5 }] }), {
    name: "TypeError",
    message: "role.trim is not a function",
  });
});

test("empty tool and MCP surfaces are one shared object, in every result and state", () => {
  const tools = [toolEvent("e1", "tool.started", "running", "search"), toolEvent("e2", "tool.result", "completed", "search")];
  const mcpEvents = [toolEvent("e1", "tool.started", "running", "mcp__github__search")];
  const emptyTools = api.projectAgentUiToolSurface([]);
  const emptyMcp = api.projectAgentUiMcpSurface(emptyTools);
  assert.equal(api.projectAgentUiToolSurface([]), emptyTools);
  assert.deepStrictEqual(emptyMcp, { hasMcp: false, servers: [], tools: [], activeToolIds: [], failedToolIds: [], completedToolIds: [] });
  // Two batch projections without MCP calls hold the same mcp object (a memoized view keeps it).
  const a = api.projectAgentUiState({ executionEvents: tools });
  const b = api.projectAgentUiState({ executionEvents: tools });
  assert.notEqual(a.toolCalls, b.toolCalls);
  assert.equal(a.mcp, emptyMcp);
  assert.equal(b.mcp, emptyMcp);
  assert.equal(api.projectAgentUiMcpSurface(a.toolCalls), emptyMcp);
  // A state of no events holds the empty tool surface too; one with tool calls, its own.
  const none = api.projectAgentUiState({ executionEvents: [] });
  assert.equal(none.toolCalls, emptyTools);
  assert.equal(api.projectAgentUiStateFromSessionSnapshot({ executionEvents: tools }).mcp, emptyMcp);
  // The projector's states as well, until an MCP call comes.
  const projector = api.createAgentUiProjector();
  assert.equal(projector.getState().toolCalls, emptyTools);
  // An event that is no tool call leaves the surface's value as it was, not the shared object.
  const text = projector.apply({ id: "m1", kind: "model", eventClass: "model.delta", status: "running", createdAt: T, payload: { text: "hi" } });
  assert.deepStrictEqual(text.toolCalls, emptyTools);
  assert.notEqual(text.toolCalls, emptyTools);
  assert.equal(text.mcp, emptyMcp);
  for (const event of tools) {
    const state = projector.apply(event);
    assert.equal(state.mcp, emptyMcp);
    assert.notEqual(state.toolCalls, emptyTools);
  }
  const withMcp = projector.apply({ ...mcpEvents[0], id: "e3", payload: { toolCallId: "c3", toolName: "mcp__github__search" } });
  assert.notEqual(withMcp.mcp, emptyMcp);
  assert.equal(withMcp.mcp.hasMcp, true);
  assert.deepStrictEqual(emptyMcp.tools, []);
  assert.notEqual(api.projectAgentUiState({ executionEvents: mcpEvents }).mcp, emptyMcp);
});

test("projection inputs are read as the reference reads them: input?.executionEvents ?? []", () => {
  const events = api.agentUiConformanceFixtures.find((f) => f.id === "tool-success").events;
  const state = (input) => api.projectAgentUiState(input);
  const readModel = (input) => api.projectAgentRuntimeReadModel(input);
  const projector = (input) => api.createAgentUiProjector(input).getState();
  const coding = (input) => api.projectCodingWorkbenchViewFromEvents(input);
  const snapshot = (input) => api.projectAgentUiStateFromSessionSnapshot(input);
  // An input that is not an object has no executionEvents: the projection of no events.
  for (const fn of [state, readModel, projector, coding, snapshot]) {
    const empty = fn({});
    for (const odd of [events, [], 5, "events", true, () => events]) {
      assert.deepStrictEqual(fn(odd), empty, `${fn.name}(${typeof odd})`);
    }
  }
  // Read models and projectors walk the events with for...of: any iterable list is one.
  assert.deepStrictEqual(readModel({ executionEvents: new Set(events) }), readModel({ executionEvents: events }));
  assert.deepStrictEqual(projector({ executionEvents: new Set(events) }), projector({ executionEvents: events }));
  const hydrated = api.createAgentUiProjector();
  hydrated.hydrate({ executionEvents: (function* () { yield* events; })() });
  assert.deepStrictEqual(hydrated.getState(), state({ executionEvents: events }));
  assert.deepStrictEqual(projector({ executionEvents: "" }), projector({}));
  // Of a function or an array, the members are read as of an object.
  for (const fn of [snapshot, coding]) {
    const viaObject = fn({ executionEvents: events });
    assert.deepStrictEqual(fn(Object.assign(() => {}, { executionEvents: events })), viaObject, fn.name);
    assert.deepStrictEqual(fn(Object.assign([], { executionEvents: events })), viaObject, fn.name);
  }
  const members = { styleLevel: "L3", surface: "chat" };
  const collaboration = api.buildAgentUiCollaborationPayloadMetadata(members);
  assert.deepStrictEqual(api.buildAgentUiCollaborationPayloadMetadata(Object.assign(() => {}, members)), collaboration);
  // The coding view takes the thread items when executionEvents has no length, whatever it holds.
  for (const odd of [{}, 5, "", 10n]) assert.deepStrictEqual(coding({ executionEvents: odd }), coding({}));
  // A source count is kept as given, whatever its type (`?? 0`).
  for (const sourceCount of ["3", { n: 3 }, [1], true, 2.5]) {
    const input = { executionEvents: events, sourceCount };
    assert.deepStrictEqual(state(input).readModel.sourceCount, sourceCount);
    assert.deepStrictEqual(readModel(input).sourceCount, sourceCount);
    assert.deepStrictEqual(projector(input).readModel.sourceCount, sourceCount);
    assert.deepStrictEqual(projector({ sourceCount }).readModel.sourceCount, sourceCount);
    const rehydrated = api.createAgentUiProjector();
    rehydrated.hydrate(input);
    assert.deepStrictEqual(rehydrated.getState().readModel.sourceCount, sourceCount);
    assert.deepStrictEqual(snapshot(input).readModel.sourceCount, sourceCount);
    assert.deepStrictEqual(snapshot({ readModel: { events: [], sourceCount } }).readModel.sourceCount, sourceCount);
    assert.deepStrictEqual(api.replayAppServerFacts({ events: [], sourceCount }).state.readModel.sourceCount, sourceCount);
  }
  // A null snapshot input throws V8's own TypeError reading it.
  assert.throws(() => snapshot(null), { name: "TypeError", message: "Cannot read properties of null (reading 'executionEvents')" });
  // Without execution events, a snapshot's read model is read as the reference reads it: its
  // projections' sources in order, its source count where the input has none; a read model
  // without an events list throws reading its `map`, a projection that is no object reading its
  // `source`.
  const projections = readModel({ executionEvents: events }).events;
  assert.deepStrictEqual(
    snapshot({ readModel: { events: projections, sourceCount: 4 } }),
    state({ executionEvents: events, sourceCount: 4 }),
  );
  assert.equal(snapshot({ sourceCount: 2, readModel: { events: [], sourceCount: 4 } }).readModel.sourceCount, 2);
  assert.throws(() => snapshot({ readModel: {} }), { name: "TypeError", message: "Cannot read properties of undefined (reading 'map')" });
  assert.throws(() => snapshot({ readModel: "x" }), { name: "TypeError", message: "Cannot read properties of undefined (reading 'map')" });
  assert.throws(() => snapshot({ readModel: { events: "ab" } }), {
    name: "TypeError",
    message: "readModel?.events.map is not a function",
  });
  // Execution events win when not nullish (an empty list too); each member is read once.
  assert.deepStrictEqual(snapshot({ executionEvents: [], readModel: { events: projections } }), state({}));
  let reads = 0;
  const counted = { executionEvents: events, get messages() { reads++; return [{ id: "m", text: "t", refs: [reads] }]; } };
  assert.deepStrictEqual(snapshot(counted).messages[0].refs, [1]);
  assert.equal(reads, 1);
  for (const messages of ["text", { id: "m" }, 5]) {
    assert.throws(() => snapshot({ executionEvents: [], messages }), {
      name: "TypeError",
      message: "input.messages?.map is not a function",
    });
  }
  assert.throws(() => snapshot({ readModel: { events: [null] } }), {
    name: "TypeError",
    message: "Cannot read properties of null (reading 'source')",
  });
});

test("arguments of the wrong type behave as in the reference: its result, or its own TypeError", () => {
  const typeError = (message) => ({ name: "TypeError", message });
  // A value without a length is no events (the reference reads `length` and indexes).
  for (const odd of [5, {}, true]) {
    assert.deepStrictEqual(api.runtimeStatusForEvents(odd), api.runtimeStatusForEvents([]));
    assert.equal(api.projectAgentUiToolSurface(odd), api.projectAgentUiToolSurface([]));
  }
  assert.throws(() => api.runtimeStatusForEvents(undefined), typeError("Cannot read properties of undefined (reading 'length')"));
  assert.throws(() => api.projectAgentUiToolSurface(null), typeError("Cannot read properties of null (reading 'length')"));
  // The collaboration metadata of a value that is not an object reads none of its members.
  const none = api.buildAgentUiCollaborationPayloadMetadata({});
  for (const odd of [5, "x", true]) assert.deepStrictEqual(api.buildAgentUiCollaborationPayloadMetadata(odd), none);
  assert.throws(() => api.buildAgentUiCollaborationPayloadMetadata(null), typeError("Cannot read properties of null (reading 'payload')"));
  // Lists the reference maps or filters: V8's TypeError where the value has no such method.
  for (const fn of [api.truncateStringList, api.normalizeProjectionIdList]) {
    assert.throws(() => fn("ids"), typeError("(values ?? []).map is not a function"));
    assert.throws(() => fn(new Set(["a"])), typeError("(values ?? []).map is not a function"));
  }
  assert.equal(api.truncateStringList(undefined), undefined);
  assert.deepStrictEqual(api.normalizeProjectionIdList(null), []);
  for (const odd of [5, {}, true]) {
    assert.throws(() => api.summarizeAgentUiProjectionEvents(odd), typeError("events.slice is not a function"));
    for (const fn of [api.summarizeAgentUiSubagentsProjectionEvents, api.summarizeAgentUiSubagentsSurfaceLanes, api.summarizeAgentUiSubagentsSurfaces]) {
      assert.throws(() => fn(odd), typeError("events.filter is not a function"));
    }
  }
  assert.throws(() => api.summarizeAgentUiProjectionEvents("ab"), typeError("events.slice(...).reverse is not a function"));
  // The sequence verifier reads each event's id first, and takes any iterable list.
  const events = api.agentUiConformanceFixtures[0].events;
  assert.throws(() => api.verifyRuntimeEventSequence([events[0], null]), typeError("Cannot read properties of null (reading 'id')"));
  assert.throws(() => api.verifyRuntimeEventSequence([, events[0]]), typeError("Cannot read properties of undefined (reading 'id')"));
  assert.throws(() => api.createRuntimeSequenceVerifier().push(null), typeError("Cannot read properties of null (reading 'id')"));
  assert.deepStrictEqual(api.verifyRuntimeEventSequence(new Set(events)), api.verifyRuntimeEventSequence(events));
  assert.throws(() => api.verifyRuntimeEventSequence(5), typeError("events is not iterable"));
  // A fixture whose events are not iterable.
  for (const events of [undefined, null, 5, {}]) {
    assert.throws(() => api.replayAgentUiFixture({ id: "f", events }), typeError("events is not iterable"));
  }
});

test("runtimeStatusForEvents throws where the reference's scan reaches a status or class it cannot lower-case", () => {
  const at = (i, extra) => ({ id: `e${i}`, kind: "turn", eventClass: "turn.started", status: "running", createdAt: T, ...extra });
  // The scan reaches the last event first: a numeric status there throws.
  // The error names the event by its position and id.
  assert.throws(() => api.runtimeStatusForEvents([at(0), at(1, { status: 5 })]), (error) =>
    error instanceof TypeError && error.message.includes('events[1] (id "e1")') && error.message.includes("status (a number)"));
  assert.throws(() => api.runtimeStatusForEvents([at(0), at(1, { eventClass: ["turn.failed"] })]), (error) =>
    error instanceof TypeError && error.message.includes('events[1] (id "e1")') && error.message.includes("eventClass (an array)"));
  // An event the scan never reaches (a later one decides) does not.
  assert.equal(api.runtimeStatusForEvents([at(0, { status: 5 }), at(1, { eventClass: "turn.completed", status: "completed" })]).status, "completed");
  // Nor one that only resolves an action (read before any string method).
  const resolved = at(1, { eventClass: "action.resolved", actionId: "a1", status: 5 });
  assert.equal(api.runtimeStatusForEvents([at(0), resolved]).status, "running");
});

test("the runtime status accumulator throws where the reference lower-cases a status or class it cannot", () => {
  const acc = api.createRuntimeStatusAccumulator();
  const event = (extra) => ({ id: "e1", kind: "turn", eventClass: "turn.started", status: "running", ...extra });
  const statusError = { name: "TypeError", message: '(value ?? "").trim is not a function' };
  for (const status of [5, true, ["running"], { s: 1 }]) assert.throws(() => acc.apply(event({ status })), statusError);
  assert.throws(() => acc.apply(event({ eventClass: 5, status: 7 })), statusError);
  for (const eventClass of [5, ["turn.failed"]]) {
    assert.throws(() => acc.apply(event({ eventClass })), { name: "TypeError", message: "eventClass?.trim is not a function" });
  }
  // An event that resolves an action is read before any string method; a thrown event changed
  // nothing.
  assert.equal(acc.apply(event({ eventClass: "action.resolved", actionId: "a1", status: 5 })).status, "idle");
  assert.equal(acc.apply(event({ status: null, eventClass: undefined })).status, "idle");
  assert.equal(acc.apply(event()).status, "running");
});

test("a coding view keeps the diagnostics of its coding events whatever their ids", () => {
  // The reference matches a diagnostic to a coding event with `===`: ids that are no strings
  // (a list, a number, none) keep their diagnostics too.
  const blocked = { kind: "sandbox", status: "blocked", eventClass: "sandbox.blocked", title: "Sandbox blocked", turnId: "t", createdAt: T };
  const ids = [[1, 2], 7, undefined, "s", { a: 1 }];
  const events = ids.map((id, i) => ({ ...blocked, id, sequence: i + 1 }));
  const fromEvents = api.projectCodingWorkbenchViewFromEvents({ executionEvents: events });
  assert.deepStrictEqual(fromEvents.diagnostics.map((d) => d.sourceEventId), ids);
  const fromState = api.projectCodingWorkbenchView(api.projectAgentUiState({ executionEvents: events }));
  assert.deepStrictEqual(fromState.diagnostics.map((d) => d.sourceEventId), ids);
});

test("a state delta's re-sync of ref views matches an id that is no string to its own view", () => {
  // The reference keys its views by id in a Map: the view of a record id and the read model's
  // entry are the same event's value, so no second view is made for it.
  const artifact = { id: "a", kind: "draft", status: "completed", eventClass: "artifact.changed", title: "Saved", artifactRefs: [{}], sequence: 1, createdAt: T };
  const delta = {
    id: "d",
    kind: "state",
    status: "completed",
    eventClass: "state.delta",
    sequence: 2,
    createdAt: T,
    payload: { target: "projection.artifacts", patch: [{ op: "add", path: "/0/preview", value: "p" }] },
  };
  const state = api.projectAgentUiState({ executionEvents: [artifact, delta] });
  assert.deepStrictEqual(state.artifacts.map((view) => [view.id, view.preview]), [[{}, "p"]]);
  const before = api.projectAgentUiState({ executionEvents: [artifact] });
  const after = api.applyAgentRuntimeStateDeltaToProjectionState(before, delta);
  assert.deepStrictEqual(after.state.artifacts.map((view) => [view.id, view.preview]), [[{}, "p"]]);
});

const fixtureCases = hasReference ? listReference("parity", "fixtures") : [];
const streamCases = hasReference ? listReference("parity", "streams") : [];

test("reference parity cases are present", { skip: !hasReference }, () => {
  assert.equal(fixtureCases.length, 13);
  assert.ok(streamCases.length >= 6);
});

for (const file of fixtureCases) {
  const data = readReference("parity", "fixtures", file);
  const input = decodeUndefined(data.input);
  const events = input.events;
  const batch = decodeUndefined(data.batchState);

  test(`fixture ${data.id}: projectAgentUiState == batchState`, () => {
    assert.deepStrictEqual(api.projectAgentUiState({ executionEvents: events }), batch);
  });

  test(`fixture ${data.id}: projector apply one by one == batchState`, () => {
    const projector = api.createAgentUiProjector();
    let state;
    for (const event of events) state = projector.apply(event);
    assert.deepStrictEqual(state, batch);
    assert.equal(projector.getState(), state);
  });

  test(`fixture ${data.id}: applyMany == batchState`, () => {
    const projector = api.createAgentUiProjector();
    assert.deepStrictEqual(projector.applyMany(events), batch);
  });

  test(`fixture ${data.id}: replayAgentUiFixture == replay`, () => {
    assert.deepStrictEqual(api.replayAgentUiFixture(input), decodeUndefined(data.replay));
  });

  test(`fixture ${data.id}: a replay validates read-model sources that are the events, copies or not`, () => {
    const expected = decodeUndefined(data.replay);
    // Each projection's source as: the event object itself, a copy, a copy JSON writes
    // differently (an invalid title; keys in another order; a member JSON drops), one that is
    // no plain object, one with a toJSON of its own.
    const variants = {
      identical: (source) => events.find((e) => e.id === source.id) ?? source,
      copied: (source) => structuredClone(source),
      retitled: (source) => ({ ...source, title: 5 }),
      reordered: (source) => Object.fromEntries(Object.entries(source).reverse()),
      dropped: (source) => ({ ...source, payload: undefined }),
      classed: (source) => Object.assign(new (class Event {})(), source),
      ownToJson: (source) => ({ ...source, toJSON: () => ({ id: source.id }) }),
    };
    let shared = 0;
    for (const [name, of] of Object.entries(variants)) {
      const fixture = { ...input };
      for (const key of ["initialReadModel", "finalReadModel"]) {
        const model = input[key];
        if (model === undefined) continue;
        fixture[key] = { ...model };
        for (const list of ["events", "visibleEvents", "pendingActions"]) {
          fixture[key][list] = model[list].map((p) => ({ ...p, source: of(p.source) }));
          shared += model[list].length;
        }
      }
      const replay = api.replayAgentUiFixture(fixture);
      assert.deepStrictEqual(
        replay.validationIssues,
        api.collectAgentUiFixtureValidationIssues(fixture),
        `${name}: validation issues`,
      );
      if (name === "identical" || name === "copied" || name === "reordered") {
        assert.deepStrictEqual({ ...replay, validationIssues: [] }, { ...expected, validationIssues: [] }, name);
      }
    }
    assert.ok(shared > 0, "the fixture has read-model projections");
  });

  test(`fixture ${data.id}: objects shared within a state as the reference shares them`, () => {
    assertBatchSharing(api.projectAgentUiState({ executionEvents: events }));
    assertBatchSharing(api.projectAgentUiStateFromSessionSnapshot({ executionEvents: events }));
    assertBatchSharing(api.replayAgentUiFixture(input).state);
    const projector = api.createAgentUiProjector();
    for (const event of events) assertProjectorSharing(projector.apply(event));
  });

  test(`fixture ${data.id}: event objects are the caller's own`, () => {
    const state = api.projectAgentUiState({ executionEvents: events });
    state.readModel.events.forEach((p, i) => assert.equal(p.source, events[i]));
  });
}

test("the parity streams have tools, actions and MCP views to share", { skip: !hasReference }, () => {
  const total = { buckets: 0, views: 0 };
  for (const file of streamCases) {
    const s = sharing(api.projectAgentUiState(readReference("parity", "streams", file).input));
    total.buckets += s.buckets;
    total.views += s.views;
  }
  assert.ok(total.buckets > 0 && total.views > 0, JSON.stringify(total));
});

for (const file of streamCases) {
  const data = readReference("parity", "streams", file);
  const { executionEvents, sourceCount } = data.input;
  const batch = decodeUndefined(data.batchState);

  test(`stream ${data.name}: projectAgentUiState == batchState`, () => {
    assert.deepStrictEqual(api.projectAgentUiState(data.input), batch);
  });

  test(`stream ${data.name}: projector apply one by one == batchState`, () => {
    const projector = api.createAgentUiProjector({ sourceCount });
    let state;
    for (const event of executionEvents) state = projector.apply(event);
    assert.deepStrictEqual(state, batch);
  });

  test(`stream ${data.name}: hydrate == batchState`, () => {
    const projector = api.createAgentUiProjector();
    assert.deepStrictEqual(projector.hydrate(data.input), batch);
  });

  test(`stream ${data.name}: objects shared within a state as the reference shares them`, () => {
    const state = api.projectAgentUiState(data.input);
    assertBatchSharing(state);
    const projector = api.createAgentUiProjector({ sourceCount });
    for (const event of executionEvents) assertProjectorSharing(projector.apply(event));
    assertProjectorSharing(api.createAgentUiProjector().hydrate(data.input));
    assertProjectorSharing(api.createAgentUiProjector(data.input).getState());
  });

  test(`stream ${data.name}: generateRuntimeEvents reproduces the stream`, () => {
    const { n, seed, options } = data.generator;
    assert.deepStrictEqual(api.generateRuntimeEvents(n, seed, options), executionEvents);
  });
}

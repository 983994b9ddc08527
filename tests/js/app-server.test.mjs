// The App Server facts exports (appServerFacts) through the built package: what only the JS side
// can show. The caller's own objects come back inside the events (as the reference copies them),
// the replay's state refers to the returned events, malformed facts throw the TypeErrors the
// reference's property reads throw, and members the facts are not read from never cross.
// Run: node --test tests/js/  (after scripts/build-pkg.sh)
import assert from "node:assert/strict";
import { test } from "node:test";
import { pkgEntry } from "./reference.mjs";

const api = await import(pkgEntry);

function fact(eventId, type, payload, extra = {}) {
  return { eventId, sequence: 1, sessionId: "s", threadId: "t", turnId: "u", type, timestamp: "T", payload, ...extra };
}

test("events embed the caller's own payload objects", () => {
  const metadata = { soul_lifecycle: { surface: "tool_lifecycle" }, tool_process_facts: { toolFamily: "search" } };
  const args = { q: ["a", "b"] };
  const [event] = api.projectAppServerEventsToExecutionEvents([fact("e", "tool.started", { toolCallId: "c", metadata, args })]);
  assert.equal(event.payload.metadata, metadata);
  assert.equal(event.payload.args, args);
  assert.equal(event.payload.soulLifecycle, metadata.soul_lifecycle);
  assert.equal(event.payload.toolProcessFacts, metadata.tool_process_facts);
  assert.equal(event.payload.soulSurface, "tool_lifecycle");
  assert.equal(event.toolCallId, "c");
});

test("export events embed the artifact metadata and the evidence pack's lists", () => {
  const metadata = { m: 1 };
  const evidencePack = { packRelativeRoot: " root ", knownGaps: ["g"], artifacts: [{ kind: "k" }] };
  const events = api.projectAppServerEvidenceExportToExecutionEvents({
    session: { sessionId: "s", threadId: "t" },
    artifacts: [{ artifactRef: "r", metadata }],
    evidencePack,
  });
  assert.deepEqual(
    events.map((e) => e.id),
    ["appserver:session:s:snapshot", "appserver:artifact:r", "appserver:evidence:root"],
  );
  assert.equal(events[1].payload.metadata, metadata);
  assert.equal(events[2].payload.knownGaps, evidencePack.knownGaps);
  assert.equal(events[2].payload.artifacts, evidencePack.artifacts);
  assert.equal(events[2].payload.packRelativeRoot, " root ");
});

test("the replay's state refers to the returned events", () => {
  const result = api.replayAppServerFacts({
    readModel: { session: { sessionId: "s", threadId: "t", status: "running" }, turns: [{ turnId: "u", status: "running" }] },
    events: [fact("e1", "tool.started", { toolCallId: "c", toolName: "search" }), fact("e2", "message.delta", { text: "hi" })],
  });
  assert.deepEqual(result.diagnostics, []);
  assert.equal(result.state.readModel.events.length, result.events.length);
  result.state.readModel.events.forEach((projection, i) => assert.equal(projection.source, result.events[i]));
  assert.equal(result.state.tools[0].source, result.events.find((e) => e.id === "appserver:e1"));
  // As the reference's batch state: the tool's projection is the read model's entry itself.
  assert.ok(result.state.readModel.events.includes(result.state.tools[0]));
});

test("an empty replay reports it", () => {
  const result = api.replayAppServerFacts({});
  assert.deepEqual(result.events, []);
  assert.deepEqual(result.diagnostics, ["app_server_facts_empty"]);
  assert.equal(result.state.hydration.eventCount, 0);
});

test("malformed facts throw the TypeErrors of the reference's property reads", () => {
  const throwsType = (fn, message) =>
    assert.throws(fn, (error) => error.constructor === TypeError && error.message === message);
  throwsType(() => api.replayAppServerFacts(), "Cannot read properties of undefined (reading 'readModel')");
  throwsType(() => api.replayAppServerFacts(null), "Cannot read properties of null (reading 'readModel')");
  throwsType(() => api.projectAppServerSessionReadToExecutionEvents({}), "Cannot read properties of undefined (reading 'sessionId')");
  throwsType(() => api.projectAppServerEvidenceExportToExecutionEvents(undefined), "Cannot read properties of undefined (reading 'events')");
  throwsType(() => api.projectAppServerEventsToExecutionEvents({}), "(events ?? []).filter is not a function");
  throwsType(() => api.projectAppServerEventsToExecutionEvents([fact("a", "x"), null]), "Cannot read properties of null (reading 'type')");
  throwsType(() => api.projectAppServerEventsToExecutionEvents([fact("a", 5)]), "eventClass?.trim is not a function");
  throwsType(
    () => api.projectAppServerSessionReadToExecutionEvents({ session: { sessionId: "s", updatedAt: 5 } }),
    "value?.trim is not a function",
  );
  assert.deepEqual(api.projectAppServerEventsToExecutionEvents(undefined), []);
  assert.deepEqual(api.projectAppServerEventsToExecutionEvents(null), []);
});

test("members the facts are not read from stay behind", () => {
  const detail = { big: 10n };
  detail.self = detail;
  const readModel = { session: { sessionId: "s" }, detail };
  assert.equal(api.projectAppServerSessionReadToExecutionEvents(readModel).length, 1);
  assert.equal(api.replayAppServerFacts({ readModel }).events.length, 1);
  const cyclic = { session: { sessionId: "s" } };
  cyclic.session.self = cyclic;
  assert.throws(() => api.projectAppServerSessionReadToExecutionEvents(cyclic), TypeError);
});

test("odd payload keys and strings round-trip", () => {
  const payload = JSON.parse('{"__proto__": {"x": 1}, "0": "zero", "nul": "\\u0000text"}');
  const [event] = api.projectAppServerEventsToExecutionEvents([fact("e", "x.custom", payload)]);
  assert.ok(Object.hasOwn(event.payload, "__proto__"));
  assert.equal(event.payload.__proto__, payload.__proto__);
  assert.equal(event.payload.nul, "\u0000text");
  assert.deepEqual(Object.keys(event.payload), ["0", "__proto__", "nul", "sourceType", "sessionId", "text", "controls"]);
  assert.equal(Object.getPrototypeOf(event.payload), Object.prototype);
});

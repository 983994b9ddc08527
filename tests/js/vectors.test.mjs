// The contracts' 288 recorded validator/helper vectors, through the JS API of pkg/.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hasReference, pkgEntry, readReference } from "./reference.mjs";

const api = await import(pkgEntry);

function expand(value) {
  if (value === "__undefined__") return undefined;
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === "object") {
    if ("$repeat" in value && "count" in value) return String(value.$repeat).repeat(value.count);
    if ("$fixture" in value) return api.getAgentUiFixture(value.$fixture);
    if ("$fixtureEvents" in value) return api.getAgentUiFixture(value.$fixtureEvents).events;
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = expand(v);
    return out;
  }
  return value;
}

/** What the recording kept: JSON form (undefined members dropped), `undefined` as "__undefined__". */
function recorded(value) {
  return value === undefined ? "__undefined__" : JSON.parse(JSON.stringify(value));
}

function runScripted(vector) {
  const base = {
    schemaVersion: "lime-runtime-event/v0.1",
    runtimeId: "runtime",
    threadId: "thread",
    turnId: "turn",
    sequence: 1,
    kind: "tool",
    status: "running",
    title: "T",
    createdAt: "2026-06-10T00:00:00.000Z",
  };
  const a = { id: "a", ...base, eventClass: "tool.result", toolCallId: "t" };
  const b = { id: "b", ...base, eventClass: "tool.started", toolCallId: "u" };
  const c = { id: "c", ...base, eventClass: "turn.completed" };
  const v = api.createRuntimeSequenceVerifier();
  const p1 = v.push(a);
  const p2 = v.push(b);
  const getViolations = v.getViolations();
  const p3 = v.push(c);
  const finalize1 = v.finalize();
  const finalize2 = v.finalize();
  return { p1, p2, getViolations, p3, finalize1, finalize2 };
}

const vectors = hasReference ? readReference("vectors.json") : [];

test("vector file holds 288 cases", { skip: !hasReference }, () => {
  assert.equal(vectors.length, 288);
});

for (const [i, vector] of vectors.entries()) {
  test(`vector ${i} ${vector.fn}: ${vector.name}`, () => {
    const fn = api[vector.fn];
    assert.equal(typeof fn, "function", `${vector.fn} is exported`);
    if (vector.fn === "createRuntimeSequenceVerifier") {
      assert.deepEqual(recorded(runScripted(vector)), vector.result);
      return;
    }
    const args = expand(vector.args);
    if (vector.throws) {
      let thrown;
      assert.throws(() => fn(...args), (error) => ((thrown = error), true));
      assert.equal(thrown.name, vector.throws.name);
      assert.equal(thrown.message, vector.throws.message);
      if (vector.throws.issues) {
        assert.ok(thrown instanceof api.AgentUiContractValidationError);
        assert.deepEqual(recorded(thrown.issues), vector.throws.issues);
      } else {
        assert.equal(Object.getPrototypeOf(thrown), Error.prototype);
      }
      return;
    }
    const result = fn(...args);
    if (vector.fn.startsWith("validate")) assert.equal(result, args[0], "validators return their input");
    if (vector.fn === "getAgentUiFixture") assert.equal(result, api.agentUiConformanceFixtures.find((f) => f.id === args[0]));
    assert.deepEqual(recorded(result), vector.result);
  });
}

// collectRuntimeEventsValidationIssues (one call for a whole array) against the per-event
// validator: the runtime-event inputs of the vectors, and generated streams with broken events.
function perEvent(events, path = "$") {
  return events.flatMap((e, i) => api.collectRuntimeEventValidationIssues(e, `${path}[${i}]`));
}

test("collectRuntimeEventsValidationIssues equals the per-event validator on the vectors' events", { skip: !hasReference }, () => {
  const inputs = vectors
    .filter((v) => v.fn === "collectRuntimeEventValidationIssues" || v.fn === "validateRuntimeEvent")
    .map((v) => expand(v.args)[0]);
  assert.ok(inputs.length >= 60);
  const stream = api.collectRuntimeEventsValidationIssues(inputs);
  assert.ok(stream.length > 0);
  assert.deepEqual(stream, perEvent(inputs));
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(inputs, "events"), perEvent(inputs, "events"));
  // The same events as JSON text: an array, and NDJSON.
  const text = JSON.stringify(inputs);
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(text), stream);
  const ndjson = inputs.map((e) => JSON.stringify(e) ?? "null").join("\n");
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(ndjson, "events"), perEvent(inputs, "events"));
});

test("collectRuntimeEventsValidationIssues equals the per-event validator on generated streams", () => {
  const events = api.generateRuntimeEvents(2000, 11, { toolFailureRate: 0.4, actionRate: 0.5, subagentRate: 0.5 });
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(events), []);
  const broken = events.map((e, i) => {
    switch (i % 7) {
      case 0: return { ...e, id: "" };
      case 1: return { ...e, payload: { ...e.payload, accessToken: "x" } };
      case 2: return { ...e, eventClass: "tool.result", toolCallId: undefined };
      case 3: return { ...e, sequence: 0.5 };
      case 4: return { ...e, payload: { big: "z".repeat(32_001) } };
      case 5: return { ...e, payload: { ...e.payload, "ключ": "\u0001é😀\"\\", "\u0000to\u006ben": 1 } };
      default: return e;
    }
  });
  const stream = api.collectRuntimeEventsValidationIssues(broken);
  assert.ok(stream.length > 1000);
  assert.deepEqual(stream, perEvent(broken));
  assert.throws(() => api.collectRuntimeEventsValidationIssues({}), TypeError);

  // JSON text gives the same issues as the objects: compact and pretty-printed arrays, NDJSON
  // with CRLF line ends and blank lines.
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(JSON.stringify(events)), []);
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(JSON.stringify(broken)), stream);
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(` \n${JSON.stringify(broken, null, 2)}\n`), stream);
  const lines = broken.map((e) => JSON.stringify(e));
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(lines.join("\n")), stream);
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(`\r\n${lines.join("\r\n\r\n")}\n`, "s"), perEvent(broken, "s"));
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(""), []);
  assert.deepEqual(api.collectRuntimeEventsValidationIssues("[]"), []);
});

test("collectRuntimeEventsValidationIssues rejects text that is not JSON", () => {
  const [event] = api.generateRuntimeEvents(1, 5);
  const line = JSON.stringify(event);
  const fails = (input, pattern) =>
    assert.throws(() => api.collectRuntimeEventsValidationIssues(input), (e) => e instanceof TypeError && pattern.test(e.message));
  fails(`[${line},`, /Invalid JSON input/);
  fails(`[${line}]]`, /Invalid JSON input/);
  fails(`${line}\n{"id":`, /events\[1\]: Invalid JSON input/);
  fails(`${line}${line}`, /events\[1\]: Invalid JSON input/);
  fails(42, /must be an array or JSON text/);
  // A JSON value that is not an event is an issue, not an error.
  assert.deepEqual(api.collectRuntimeEventsValidationIssues(`${line}\n7`), [
    { code: "schema_mismatch", path: "$[1]", message: "Runtime event must be an object." },
  ]);
});

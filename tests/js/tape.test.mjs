// Outputs that cross as a tape (contract::tape; pkg-template/wire.js, `readTape`): text that
// looks like the wire text's escapes comes back as itself, text of every length and script comes
// back whole, and an output with more member names than the module's table keeps
// (contract::tape::NAME_LIMIT) comes back with every name. The expected values are the events'
// own text and names, and the same stream applied one event at a time (whose patches cross as
// wire text). Objects with many members keep V8's fast properties.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { pkgEntry } from "./reference.mjs";

const api = await import(pkgEntry);

const base = {
  schemaVersion: "lime-runtime-event/v0.1",
  runtimeId: "tape-runtime",
  threadId: "tape-thread",
  turnId: "tape-turn",
  createdAt: "2026-07-01T09:00:00.000Z",
};

/** A turn streaming `deltas` as one assistant message. */
function streamed(deltas) {
  const events = [{ ...base, id: "t-start", eventClass: "turn.started", kind: "state", status: "running", sequence: 1, title: "Turn" }];
  deltas.forEach((delta, i) =>
    events.push({ ...base, id: `t-d${i}`, eventClass: "model.delta", kind: "model", status: "running", sequence: i + 2, title: "Streaming", payload: { delta } }),
  );
  return events;
}

const odd = [
  "\u0000e0",
  "\u0000u",
  "\u0000t0:0:0:0:0",
  "\u0000f0:title",
  "\u0000",
  "é".repeat(700),
  "a".repeat(1500),
  "b".repeat(1000),
  "𝄞 clef \ud834\udd1e",
  "",
];

function checkOddText() {
  for (const text of odd) {
    const name = JSON.stringify(text.slice(0, 20));
    for (const deltas of [[text], [text, "tail"]]) {
      const events = streamed(deltas);
      const state = api.projectAgentUiState({ executionEvents: events });
      const projector = api.createAgentUiProjector();
      let live;
      for (const event of events) live = projector.apply(event);
      assert.deepStrictEqual(state, live, name);
    }
    if (text === "") continue;
    const state = api.projectAgentUiState({ executionEvents: streamed([text]) });
    assert.equal(state.messages.find((m) => m.type === "text").text, text, name);
  }
}

test("text that looks like an escape comes back as itself, text of any length whole", () => {
  checkOddText();
});

test("outputs with more member names than the table keeps have them all", () => {
  // Batches short enough to cross as tapes, each with member names of its own (its tool
  // families): the table fills over the first ones, and the rest cross as text.
  const batches = 5;
  const perBatch = 1200;
  for (let b = 0; b < batches; b++) {
    const events = [];
    for (let i = 0; i < perBatch; i++) {
      events.push({
        ...base,
        id: `m-${b}-${i}`,
        eventClass: "tool.started",
        kind: "tool",
        status: "running",
        sequence: i + 1,
        toolCallId: `c-${b}-${i}`,
        payload: { toolFamily: `f-${b}-${i}` },
      });
    }
    const state = api.projectAgentUiState({ executionEvents: events });
    assert.deepStrictEqual(Object.keys(state.toolCalls.byFamily), events.map((e) => e.payload.toolFamily));
  }
  // The next outputs are still whole.
  checkOddText();
});

test("a caller's getter that calls into the package while a tape is read leaves the result whole", () => {
  const title = "A title long enough to cross as a reference to the event's own string";
  const plain = streamed(["one", "two"]).map((e) => ({ ...e, title }));
  const expected = api.projectAgentUiState({ executionEvents: plain });
  const other = streamed(["other"]);
  let reads = 0;
  const events = plain.map((e) => {
    const copy = { ...e };
    delete copy.title;
    // Read once by JSON.stringify on the way in; later reads come from reading the tape.
    Object.defineProperty(copy, "title", {
      enumerable: true,
      get() {
        if (++reads > plain.length) api.projectAgentUiState({ executionEvents: other });
        return title;
      },
    });
    return copy;
  });
  const state = api.projectAgentUiState({ executionEvents: events });
  assert.ok(reads > plain.length, "the tape's reader read the events' titles");
  assert.deepStrictEqual(JSON.parse(JSON.stringify(state)), JSON.parse(JSON.stringify(expected)));
});

// Objects with many members (a tool call has 24) keep fast properties, as the reference's
// literals have: V8 makes a dictionary of an object given more than about 19 members one by one
// under computed names, slower to read. Checked in a child process with V8's own test hook.
test("objects read from a tape keep fast properties, however many members they have", () => {
  const script = `
    const api = await import(${JSON.stringify(pkgEntry)});
    const events = api.agentUiConformanceFixtures.flatMap((f) => f.events);
    const state = api.projectAgentUiState({ executionEvents: events });
    const wide = {};
    for (let i = 0; i < 40; i++) wide["member" + i] = i;
    const echoed = api.projectAgentUiState({ executionEvents: [{ ...events[0], id: "wide", payload: wide }] });
    const slow = [];
    const walk = (v, path) => {
      if (v === null || typeof v !== "object") return;
      if (!Array.isArray(v) && !%HasFastProperties(v)) slow.push(path);
      for (const k of Object.keys(v)) if (k !== "source") walk(v[k], path + "." + k);
    };
    walk(state, "state");
    walk(echoed, "echoed");
    const calls = state.toolCalls.calls;
    console.log(JSON.stringify({ slow, members: calls.length ? Object.keys(calls[0]).length : 0 }));
  `;
  const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", script], { encoding: "utf8" });
  const { slow, members } = JSON.parse(out);
  assert.ok(members > 19, `a tool call has ${members} members`);
  assert.deepEqual(slow, []);
});

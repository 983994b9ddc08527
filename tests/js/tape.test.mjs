// Outputs that cross as a tape (contract::tape; pkg-template/wire.js, `readTape`): text that
// looks like the wire text's escapes comes back as itself, text of every length and script comes
// back whole, and an output with more member names than the module's table keeps
// (contract::tape::NAME_LIMIT) comes back with every name. The expected values are the events'
// own text and names, and the same stream applied one event at a time (whose patches cross as
// wire text).
import assert from "node:assert/strict";
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

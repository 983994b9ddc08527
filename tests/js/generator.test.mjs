// The event generator's own WebAssembly module (generator.js, crates/generator-wasm): a large
// stream leaves the projection's module untouched, every call starts afresh (the same stream
// again), refused counts and options are TypeErrors naming `generateRuntimeEvents`, a trap of the
// generator's module is an Error naming it, and the package keeps working after each.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pkgEntry } from "./reference.mjs";

const api = await import(pkgEntry);
const { core } = await import(new URL("core.js", `file://${pkgEntry}`).href);

const memory = () => core.exports.memory.buffer.byteLength;
const fixture = api.getAgentUiFixture("tool-success").events;

/** The package still projects, and generates, as before. */
function stillWorks(expectedState) {
  assert.deepStrictEqual(api.projectAgentUiState({ executionEvents: fixture }), expectedState);
  const events = api.generateRuntimeEvents(50, 3);
  assert.equal(events.length, 50);
  assert.deepStrictEqual(events.map((e) => e.sequence), Array.from({ length: 50 }, (_, i) => i + 1));
}

/** `fn()`, recording the instances made meanwhile. */
function recordingInstances(fn) {
  const RealInstance = WebAssembly.Instance;
  const made = [];
  WebAssembly.Instance = function Recording(module, imports) {
    const instance = new RealInstance(module, imports);
    made.push(instance);
    return instance;
  };
  try {
    return { result: fn(), made };
  } finally {
    WebAssembly.Instance = RealInstance;
  }
}

test("a large stream leaves the projection's memory as it was; a second call gives the same stream", () => {
  const state = api.projectAgentUiState({ executionEvents: fixture });
  const before = memory();
  const { result: first, made } = recordingInstances(() => api.generateRuntimeEvents(20_000, 9, { subagentRate: 0.3 }));
  assert.equal(memory(), before, "the projection's module did not grow");
  // The stream's memory was the generator instance's, which the package does not keep.
  assert.equal(made.length, 1);
  assert.ok(made[0].exports.memory.buffer.byteLength > 10 * 2 ** 20, "the generator's instance held the stream");
  const { result: second, made: again } = recordingInstances(() => api.generateRuntimeEvents(20_000, 9, { subagentRate: 0.3 }));
  assert.equal(memory(), before);
  assert.equal(again.length, 1);
  assert.notEqual(again[0], made[0], "a fresh instance per call");
  assert.equal(first.length, 20_000);
  assert.notEqual(first, second, "a new array");
  assert.equal(JSON.stringify(second), JSON.stringify(first), "the identical stream");
  // A prefix of a longer stream is the shorter stream, whatever ran before.
  assert.equal(JSON.stringify(api.generateRuntimeEvents(300, 9, { subagentRate: 0.3 })), JSON.stringify(first.slice(0, 300)));
  stillWorks(state);
});

test("a count above the limit is a TypeError naming generateRuntimeEvents; the package keeps working", () => {
  const state = api.projectAgentUiState({ executionEvents: fixture });
  const overLimit = (count) => (error) =>
    error instanceof TypeError &&
    error.message.startsWith("generateRuntimeEvents: ") &&
    error.message.endsWith(`count ${count} is above the limit of 5000000 events`);
  assert.throws(() => api.generateRuntimeEvents(5_000_001, 1), overLimit(5_000_001));
  // Beyond 32 bits too (not wrapped around to a small count).
  assert.throws(() => api.generateRuntimeEvents(2 ** 32 + 2, 1), overLimit(2 ** 32 + 2));
  assert.throws(() => api.generateRuntimeEvents(2 ** 53, 1), overLimit(2 ** 53));
  assert.throws(() => api.generateRuntimeEvents(3, 1, { nope: 1 }), {
    name: "TypeError",
    message: /^generateRuntimeEvents: unknown generator option "nope"; known options: /,
  });
  assert.throws(() => api.generateRuntimeEvents(3, 1, []), {
    name: "TypeError",
    message: "generateRuntimeEvents: generator options must be an object, got []",
  });
  assert.throws(() => api.generateRuntimeEvents(-1), {
    name: "TypeError",
    message: "generateRuntimeEvents: n must be a non-negative integer.",
  });
  assert.deepStrictEqual(api.generateRuntimeEvents(0), []);
  stillWorks(state);
});

test("non-ASCII options reach the generator as UTF-8", () => {
  const [event] = api.generateRuntimeEvents(1, 4, { runtimeId: "運行-é-😀", model: "m\u00e9" });
  assert.equal(JSON.stringify(event).includes("運行-é-😀"), true);
});

test("a trap of the generator's module is an Error naming generateRuntimeEvents; nothing else is affected", () => {
  const state = api.projectAgentUiState({ executionEvents: fixture });
  const generation = core.generation;
  // The generator makes a fresh instance per call: this one traps in `generate`, as a module
  // that runs out of memory does.
  const RealInstance = WebAssembly.Instance;
  function TrappingInstance(module, imports) {
    const real = new RealInstance(module, imports);
    const generate = () => {
      throw new WebAssembly.RuntimeError("unreachable");
    };
    return { exports: { ...real.exports, generate } };
  }
  WebAssembly.Instance = TrappingInstance;
  try {
    assert.throws(() => api.generateRuntimeEvents(10, 1), (error) => {
      assert.equal(error.constructor, Error);
      assert.equal(
        error.message,
        "generateRuntimeEvents: the event generator's WebAssembly module failed (unreachable); nothing else is affected",
      );
      return true;
    });
  } finally {
    WebAssembly.Instance = RealInstance;
  }
  assert.equal(core.generation, generation, "the projection's module was not restarted");
  stillWorks(state);
});

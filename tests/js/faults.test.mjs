// Faults: a real trap inside the WebAssembly module (the test-only `test_trap` export of a release
// build made with `scripts/build-pkg.sh --test-faults`) surfaces as an AgentRuntimeProjectionFault
// naming the call; the package then works for every kind of export, and objects made before the
// fault throw that fault instead of answering from lost state.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./reference.mjs";

const dir = join(repoRoot, "target", "pkg-test-faults");
if (!existsSync(join(dir, "index.node.js"))) {
  throw new Error(`${dir} is missing: build it with \`bash scripts/build-pkg.sh --test-faults\``);
}
const api = await import(join(dir, "index.node.js"));
const { trapForTesting } = await import(join(dir, "testing.js"));

const fixture = api.getAgentUiFixture("tool-success");
const events = fixture.events;

/** Every kind of export, used once; returns what they gave. */
function useEverything() {
  const state = api.projectAgentUiState({ executionEvents: events });
  const projector = api.createAgentUiProjector();
  for (const event of events) projector.apply(event);
  assert.deepStrictEqual(projector.getState(), state);
  const lean = api.createProjector();
  assert.equal(lean.applyMany(events).accepted, events.length);
  const verifier = api.createRuntimeSequenceVerifier();
  for (const event of events) verifier.push(event);
  return {
    state,
    issues: api.collectRuntimeEventsValidationIssues(events),
    validated: api.validateRuntimeEvent(events[0]),
    violations: verifier.finalize(),
    sequence: api.verifyRuntimeEventSequence(events),
    readModel: api.projectAgentRuntimeReadModel({ executionEvents: events }),
    replay: api.replayAgentUiFixture(fixture).passed,
    terminal: api.runtimeTurnTerminalKindFromStatus("completed"),
    base: api.buildAgentUiProjectionBase({ sourceType: "text_delta" }, { sessionId: " s " }),
    generated: api.generateRuntimeEvents(20, 3).length,
    accumulated: accumulate(),
    runtime: api.runtimeStatusForEvents(events),
    toolSurface: api.projectAgentUiToolSurface(state.readModel.events),
    deltas: api.applyAgentRuntimeStateDeltasToProjectionState(state, events) === state,
    store: storeOf(),
  };
}

/** The accumulators, fed the fixture. */
function accumulate() {
  const readModel = api.createAgentRuntimeReadModelAccumulator();
  const runtime = api.createRuntimeStatusAccumulator();
  const subagents = api.createAgentUiSubagentsModelAccumulator();
  for (const event of events) {
    readModel.apply(event);
    runtime.apply(event);
    subagents.apply(event);
  }
  return { readModel: readModel.getReadModel(), runtime: runtime.getStatus(), subagents: subagents.getModel() };
}

/** The projection-event store (plain JS: untouched by faults). */
function storeOf() {
  const store = api.createAgentUiProjectionEventStore();
  store.append(api.buildAgentUiRunStartedEvent({ runId: "r" }, { sessionId: "s" }));
  return store.getState().events.length;
}

function expectFault(fn, call) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof api.AgentRuntimeProjectionFault, `expected a fault, got ${error}`);
    assert.ok(error instanceof Error);
    assert.ok(!(error instanceof TypeError));
    assert.equal(error.name, "AgentRuntimeProjectionFault");
    assert.equal(error.call, call);
    assert.match(error.message, new RegExp(`^${call.replace(/[.]/g, "\\.")}: internal fault`));
    return true;
  });
}

test("a trap is a fault, and every export works after it; objects made before it throw the fault", () => {
  const before = useEverything();
  const oldProjector = api.createAgentUiProjector();
  oldProjector.apply(events[0]);
  const oldLean = api.createProjector();
  const oldVerifier = api.createRuntimeSequenceVerifier();
  const oldAccumulator = api.createAgentRuntimeReadModelAccumulator();
  oldAccumulator.apply(events[0]);

  for (const kind of [0, 1]) {
    expectFault(() => trapForTesting(kind), "trapForTesting");
    assert.deepStrictEqual(useEverything(), before, `after trap kind ${kind}`);
  }

  let fault;
  try {
    oldProjector.apply(events[1]);
  } catch (error) {
    fault = error;
  }
  assert.ok(fault instanceof api.AgentRuntimeProjectionFault);
  assert.throws(() => oldProjector.getState(), (error) => error === fault);
  assert.throws(() => oldLean.apply(events[0]), api.AgentRuntimeProjectionFault);
  assert.throws(() => oldVerifier.push(events[0]), api.AgentRuntimeProjectionFault);
  assert.throws(() => oldAccumulator.apply(events[1]), api.AgentRuntimeProjectionFault);
  assert.throws(() => oldAccumulator.getReadModel(), api.AgentRuntimeProjectionFault);
  // Freeing an object of a faulted instance is harmless (its instance is gone; nothing is freed).
  oldProjector.free();
  oldLean.free();
});

test("a restarted module's first JS value, made during a batch, does not take memory the batch gives back", () => {
  // A name beyond ASCII is lower-cased by JS's own toLowerCase, called from inside the batch:
  // on a fresh instance that call makes the module's first JS values (wasm-bindgen's table of
  // them starts then), which must outlive the batch's arena.
  const named = events.map((e) => ({ ...e, title: "S\u212aILL", payload: { ...e.payload, toolName: "S\u212aILL" } }));
  const expected = api.projectAgentUiState({ executionEvents: named });
  assert.equal(expected.toolCalls.calls[0].family, "skill");
  const before = useEverything();
  expectFault(() => trapForTesting(0), "trapForTesting");
  for (let round = 0; round < 20; round++) {
    assert.deepStrictEqual(api.projectAgentUiState({ executionEvents: named }), expected, `round ${round}`);
    // Errors the module makes are JS values too.
    assert.throws(() => api.projectAgentUiState({ executionEvents: [7] }, { strict: true }), TypeError);
    assert.deepStrictEqual(useEverything(), before, `round ${round}`);
  }
});

test("a projector freed after a fault in another call keeps working until then", () => {
  const projector = api.createProjector();
  projector.apply(events[0]);
  expectFault(() => trapForTesting(0), "trapForTesting");
  assert.throws(() => projector.getState(), api.AgentRuntimeProjectionFault);
  const fresh = api.createProjector();
  fresh.applyMany(events);
  assert.deepStrictEqual(fresh.getState(), api.projectAgentUiState({ executionEvents: events }));
  fresh.free();
  assert.throws(() => fresh.getState(), /freed/);
});

test("objects of a faulted instance, collected later, free nothing in its successor", () => {
  // In a child process with a callable GC: objects made on the first instance are dropped after
  // a fault without being freed, and collected once the second instance runs. Freeing their
  // (stale) addresses into the second instance traps there (out of bounds) or corrupts it: the
  // child then dies, or its new objects answer wrongly.
  const script = `
    const api = await import(${JSON.stringify(pathToFileURL(join(dir, "index.node.js")).href)});
    const { trapForTesting } = await import(${JSON.stringify(pathToFileURL(join(dir, "testing.js")).href)});
    const events = api.getAgentUiFixture("tool-success").events;
    let collected = 0;
    const watch = new FinalizationRegistry(() => collected++);
    const kinds = [
      () => api.createProjector(),
      () => api.createAgentUiProjector(),
      () => api.createRuntimeSequenceVerifier(),
      () => api.createAgentRuntimeReadModelAccumulator(),
      () => api.createRuntimeStatusAccumulator(),
      () => api.createAgentUiSubagentsModelAccumulator(),
    ];
    const watched = 300;
    (() => {
      for (let i = 0; i < watched; i++) watch.register(kinds[i % kinds.length](), 0);
    })();
    let faulted = false;
    try {
      trapForTesting(0);
    } catch (error) {
      faulted = error instanceof api.AgentRuntimeProjectionFault;
    }
    // Every round, not only until they are collected: the glue's finalizers run in tasks of
    // their own, after the collection.
    for (let round = 0; round < 30; round++) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const expected = JSON.stringify(api.projectAgentUiState({ executionEvents: events }));
    let wrong = 0;
    for (let i = 0; i < 200; i++) {
      const projector = api.createAgentUiProjector();
      for (const event of events) projector.apply(event);
      if (JSON.stringify(projector.getState()) !== expected) wrong++;
    }
    console.log(JSON.stringify({ faulted, collected, watched, wrong }));
  `;
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
  const { faulted, collected, watched, wrong } = JSON.parse(out);
  assert.ok(faulted);
  // (An engine may keep a few alive a while longer.)
  assert.ok(collected >= watched * 0.9, `${collected} of the old instance's ${watched} objects were collected`);
  assert.equal(wrong, 0);
});

// Parity with the recorded reference outputs (shared/reference/parity): batch projection,
// the incremental projector (decided semantics: incremental == batch), fixture replay, and the
// generator (same streams as shared/bench/gen.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeUndefined, hasReference, listReference, pkgEntry, readReference } from "./reference.mjs";

const api = await import(pkgEntry);

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

  test(`fixture ${data.id}: event objects are the caller's own`, () => {
    const state = api.projectAgentUiState({ executionEvents: events });
    state.readModel.events.forEach((p, i) => assert.equal(p.source, events[i]));
  });
}

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

  test(`stream ${data.name}: generateRuntimeEvents reproduces the stream`, () => {
    const { n, seed, options } = data.generator;
    assert.deepStrictEqual(api.generateRuntimeEvents(n, seed, options), executionEvents);
  });
}

// Differential check of odd events against the TypeScript reference, beyond the recorded streams:
// standard fixtures and generated streams with random fields of random events set to values of
// the wrong type (numbers, booleans, null, objects, arrays, strings where lists are expected),
// deleted, or ids made missing, empty or numeric. For each stream, the package's
// `projectAgentUiState` must equal the reference's (key order included), or both must throw
// (ours a TypeError naming an event); the lean projector fed one event at a time must end in the
// same state.
//
//   LIME_REFERENCE_DIR=/work/ref/lime node scripts/odd-diff.mjs [streams=2000] [seed=1]
//
// Nothing of the reference is kept: it is imported from its built `dist/` at run time.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadSides } from "./sides.mjs";
import { xorshift } from "./xorshift.mjs";

const { ref, ours } = await loadSides();

const count = Number(process.argv[2] ?? 2000);
const { rnd, pick } = xorshift(Number(process.argv[3] ?? 1));

const FIELDS = [
  "id", "kind", "status", "eventClass", "owner", "schemaVersion", "sequence", "runtimeId", "threadId",
  "turnId", "taskId", "subagentId", "runId", "stepId", "toolCallId", "actionId", "workerId", "channelId",
  "handoffId", "reviewId", "traceId", "spanId", "attemptId", "artifactId", "evidenceId", "phase", "title",
  "detail", "refIds", "artifactRefs", "evidenceRefs", "payload", "model", "createdAt", "completedAt",
];
const VALUES = [
  () => 7, () => 0, () => -1.5, () => true, () => false, () => null, () => "", () => "  ", () => "x",
  () => ({}), () => ({ a: 1 }), () => ({ length: 2 }), () => ({ 0: "z" }), () => [], () => ["a"],
  () => ["a", 3, null], () => [1, 2], () => "text", () => [[]], () => "mcp__srv__read_file",
  () => "<proposed_plan>x</proposed_plan>", () => "7abc", () => ["x", {}], () => 1e21,
  () => "  padded  ", () => ({ toolName: 5, text: 7, plan: [1, { step: 2 }], messageId: 3 }),
  () => ({ stateDelta: { target: 7, patch: [] } }), () => ["<proposed_plan", ">x</proposed_plan>"],
];
const DELETE = Symbol("delete");

const fixtures = JSON.parse(readFileSync(new URL("../../shared/reference/fixtures.json", import.meta.url)));
const sources = [
  ...(Array.isArray(fixtures) ? fixtures : Object.values(fixtures)).map((f) => f.events),
  ...[40, 60, 120].flatMap((n) => [1, 2, 3, 4].map((s) => ours.generateRuntimeEvents(n, s, { actionRate: 0.4, subagentRate: 0.4, stateDeltaRate: 0.2 }))),
];

function mutate(events) {
  const out = events.map((e) => ({ ...e }));
  const edits = [];
  const n = 1 + Math.floor(rnd() * 3);
  for (let k = 0; k < n; k++) {
    const i = Math.floor(rnd() * out.length);
    const field = rnd() < 0.15 ? "id" : pick(FIELDS);
    const value = rnd() < 0.08 ? DELETE : pick(VALUES)();
    if (value === DELETE) delete out[i][field];
    else out[i][field] = value;
    edits.push(`${i}.${field}=${value === DELETE ? "<deleted>" : JSON.stringify(value)}`);
  }
  return { events: out, edits };
}

function run(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

/** Whether two events share a non-empty string id (the package keeps the first, as decided). */
function duplicates(events) {
  const seen = new Set();
  for (const e of events) {
    if (typeof e.id !== "string" || e.id === "") continue;
    if (seen.has(e.id)) return true;
    seen.add(e.id);
  }
  return false;
}

const failures = new Map();
let agreeThrow = 0;
let agreeState = 0;
let skipped = 0;
/** Every object of `actual` lists its own keys in the order of the reference's. */
function assertKeyOrder(actual, expected, at = "state") {
  if (actual === null || expected === null || typeof actual !== "object" || typeof expected !== "object") return;
  const keys = Reflect.ownKeys(expected);
  assert.deepStrictEqual(Reflect.ownKeys(actual), keys, `key order at ${at}`);
  for (const key of keys) assertKeyOrder(actual[key], expected[key], `${at}.${String(key)}`);
}

for (let c = 0; c < count; c++) {
  const { events, edits } = mutate(pick(sources));
  if (duplicates(events)) {
    skipped++;
    continue;
  }
  const a = run(() => ref.projectAgentUiState({ executionEvents: events }));
  const b = run(() => ours.projectAgentUiState({ executionEvents: events }));
  let problem;
  if (a.error && b.error) {
    if (!(b.error instanceof TypeError) || !/events\[\d+\]/.test(b.error.message)) {
      problem = `ours threw without naming the event: ${b.error}`;
    } else agreeThrow++;
  } else if (a.error) {
    problem = `reference threw ${a.error.message}, ours did not`;
  } else if (b.error) {
    problem = `ours threw: ${b.error.message}`;
  } else {
    try {
      assert.deepStrictEqual(b.value, a.value);
      assertKeyOrder(b.value, a.value);
      const lean = ours.createProjector();
      for (const e of events) lean.apply(e);
      assert.deepStrictEqual(lean.getState(), a.value);
      assertKeyOrder(lean.getState(), a.value);
      agreeState++;
    } catch (error) {
      problem = `state differs: ${String(error.message).split("\n").slice(0, 12).join(" | ").slice(0, 500)}`;
    }
  }
  if (problem) {
    const key = edits.map((e) => e.replace(/^\d+\./, "").replace(/=.*/, "")).join(",");
    if (!failures.has(key)) failures.set(key, { problem, edits, n: 0 });
    failures.get(key).n++;
  }
}
console.log(
  `${count} streams: ${agreeState} equal states, ${agreeThrow} both throw, ` +
    `${[...failures.values()].reduce((s, f) => s + f.n, 0)} differ, ${skipped} skipped (a duplicate string id)`,
);
for (const [key, f] of [...failures.entries()].slice(0, 40)) {
  console.log(`- [${f.n}] ${f.edits.join(" ")}: ${f.problem}`);
}
process.exitCode = failures.size ? 1 : 0;

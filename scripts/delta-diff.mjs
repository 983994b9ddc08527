// Differential check of the state-delta functions against the TypeScript reference: random JSON
// Patch operations (add, remove, replace, test, move, copy; paths into every patchable root,
// array indexes in and out of range, `-`, unknown keys and roots) over states projected from the
// standard fixtures and from generated streams, applied one delta at a time
// (`applyAgentRuntimeStateDeltaToProjectionState`) and as a list with the stream's last events
// (`applyAgentRuntimeStateDeltasToProjectionState`), now and then over a state holding the
// diagnostic of an earlier failure of the same delta. The results must be deep-equal (thrown
// messages compared without our function-name prefix), and every object the reference's result
// takes over from the given state (a root, an item of a root list) must be the given state's own
// object in ours too. The same deltas after the stream's events, projected in a batch
// (`projectAgentUiState`) and by a projector fed the events then each delta
// (`createAgentUiProjector`), must give the reference's batch state, its JSON text included (the
// order of keys: a delta that replaces a key puts it last); so must the results above.
//
//   LIME_REFERENCE_DIR=/work/ref/lime node scripts/delta-diff.mjs [cases=500] [seed=1]
//
// Nothing of the reference is kept: it is imported from its built `dist/` at run time.
import { isDeepStrictEqual } from "node:util";
import { loadSides } from "./sides.mjs";
import { xorshift } from "./xorshift.mjs";

const { ref, ours } = await loadSides();

const count = Number(process.argv[2] ?? 500);
const { rnd, pick } = xorshift(Number(process.argv[3] ?? 1));

const stream = ours.generateRuntimeEvents(60, 3, { actionRate: 0.3, subagentRate: 0.3 });
const bases = [stream, ours.agentUiConformanceFixtures.flatMap((f) => f.events), stream.slice(0, 10)];
const ROOTS = [
  "messages", "timeline", "artifacts", "evidence", "subagents", "readModel", "actions", "diagnostics",
  "tools", "graph", "runtime", "hydration", "ephemeralUi", "toolCalls", "unknownRoot",
];
const VALUES = ["v", 1, null, { id: "new-id", status: "completed", threadId: "t9" }, [1, 2], { a: { b: 1 } }, "completed"];
const escape = (token) => token.replace(/~/g, "~0").replace(/\//g, "~1");
const unescape = (token) => token.replace(/~1/g, "/").replace(/~0/g, "~");

/** A path into `state`, mostly along what is there. */
function randomPath(state) {
  let value = state;
  const tokens = [];
  const depth = 1 + Math.floor(rnd() * 4);
  while (tokens.length < depth) {
    if (tokens.length === 0) tokens.push(pick(ROOTS));
    else if (Array.isArray(value)) {
      const r = rnd();
      tokens.push(r < 0.1 ? "-" : r < 0.2 ? String(value.length + 1) : r < 0.25 ? "01" : String(Math.floor(rnd() * Math.max(1, value.length))));
    } else if (value !== null && typeof value === "object") {
      const keys = Object.keys(value);
      tokens.push(keys.length && rnd() < 0.85 ? pick(keys) : pick(["zz", "id", "0", "a~b", "x/y"]));
    } else break;
    value = value?.[tokens.at(-1)];
  }
  return `/${tokens.map(escape).join("/")}`;
}

function valueAt(state, path) {
  let value = state;
  for (const token of path.split("/").slice(1)) value = value?.[unescape(token)];
  return value;
}

function randomOp(state) {
  const op = pick(["add", "remove", "replace", "test", "move", "copy", "replace", "add"]);
  const path = randomPath(state);
  if (op === "test") return { op, path, value: rnd() < 0.7 ? structuredClone(valueAt(state, path)) ?? null : "x" };
  if (op === "move" || op === "copy") return { op, path, from: randomPath(state) };
  return op === "remove" ? { op, path } : { op, path, value: pick(VALUES) };
}

const delta = (id, sequence, patch) => ({
  id,
  schemaVersion: "lime-runtime-event/v0.1",
  kind: "state",
  status: "completed",
  eventClass: "state.delta",
  runtimeId: "r",
  threadId: "t",
  sequence,
  title: "d",
  payload: { target: "projection", patch },
  createdAt: "2026-01-01T00:00:00.000Z",
});

// Our errors name the function and, for a projection, the event (docs/limits.md): compared
// without those prefixes.
const PREFIX = /^(\w+)(: [\w.]+)?: ((events\[\d+\]|accepted event \d+|event \d+)( \(id "(?:[^"\\]|\\.)*"\))?: )?/;
function run(fn) {
  try {
    return fn();
  } catch (error) {
    return { threw: String(error).replace(PREFIX, "$1: ") };
  }
}

let differ = 0;
let applied = 0;
const report = (what, detail) => {
  differ++;
  if (differ <= 10) console.log(`${what}: ${detail}`);
};

/** The reference's result takes `given` objects over: ours must hold the same ones. */
function sameObjects(result, reference, given, givenRef, ops) {
  if (result?.state === undefined || reference?.state === undefined) return;
  for (const key of Object.keys(givenRef)) {
    if (reference.state[key] === givenRef[key] && result.state[key] !== given[key]) report("a root not the caller's", `${key} after ${ops}`);
    const list = reference.state[key];
    if (!Array.isArray(list) || !Array.isArray(givenRef[key])) continue;
    list.forEach((item, i) => {
      const j = givenRef[key].indexOf(item);
      if (j >= 0 && item !== null && typeof item === "object" && result.state[key]?.[i] !== given[key][j]) {
        report("an item not the caller's", `${key}[${i}] after ${ops}`);
      }
    });
  }
}

for (let n = 0; n < count; n++) {
  const base = pick(bases);
  let given = ours.projectAgentUiState({ executionEvents: base });
  let givenRef = ref.projectAgentUiState({ executionEvents: base });
  // Now and then the first delta failed before: its diagnostic is in the state.
  const again = rnd() < 0.3;
  if (again) {
    const earlier = { id: `state-delta:d${n}-0`, sourceEventId: `d${n}-0`, title: "state.delta apply failed", detail: "earlier", status: "failed" };
    given = { ...given, diagnostics: [...given.diagnostics, earlier] };
    givenRef = { ...givenRef, diagnostics: [...givenRef.diagnostics, structuredClone(earlier)] };
  }
  const deltas = Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, j) =>
    delta(`d${n}-${j}`, 1000 + j, Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => randomOp(givenRef))),
  );
  const ops = JSON.stringify(deltas[0].payload.patch);
  const one = run(() => ours.applyAgentRuntimeStateDeltaToProjectionState(given, deltas[0]));
  const oneRef = run(() => ref.applyAgentRuntimeStateDeltaToProjectionState(givenRef, deltas[0]));
  if (one.applied) applied++;
  const sameText = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  if (!isDeepStrictEqual(one, oneRef) || !sameText(one, oneRef)) report("one delta", ops);
  else sameObjects(one, oneRef, given, givenRef, ops);
  const list = [...base.slice(-3), ...deltas];
  const all = run(() => ({ state: ours.applyAgentRuntimeStateDeltasToProjectionState(given, list) }));
  const allRef = run(() => ({ state: ref.applyAgentRuntimeStateDeltasToProjectionState(givenRef, list) }));
  const patches = JSON.stringify(deltas.map((d) => d.payload.patch));
  if (!isDeepStrictEqual(all, allRef) || !sameText(all, allRef)) report("a list of deltas", patches);
  // The deltas as events of the stream: the batch and a projector against the reference's batch.
  const events = [...base, ...deltas];
  const batchRef = run(() => ref.projectAgentUiState({ executionEvents: events }));
  const batch = run(() => ours.projectAgentUiState({ executionEvents: events }));
  if (!isDeepStrictEqual(batch, batchRef) || !sameText(batch, batchRef)) report("the batch", patches);
  const live = run(() => {
    const projector = ours.createAgentUiProjector();
    projector.applyMany(base);
    let state;
    for (const d of deltas) state = projector.apply(d);
    return state;
  });
  if (!isDeepStrictEqual(live, batchRef) || !sameText(live, batchRef)) report("a projector", patches);
}
console.log(`${count} states, ${applied} single deltas applied: ${differ} differences`);
process.exit(differ === 0 ? 0 : 1);

// Differential check of the contracts and the part-1 surface against the TypeScript reference,
// beyond the recorded calls: each recorded call of ../shared/reference/calls (the contracts' modules
// but fixtures, the projection modules of part 1) is replayed with its arguments mutated (members
// set to values of other types, deleted, nested records mutated in turn), on the package and on
// the reference. Each must give the same result (deep, with the same own-key order), the same
// error, or both a TypeError. Differences are grouped by function and kind; the first of each is
// printed with its arguments.
//
//   LIME_REFERENCE_DIR=/work/ref/lime node scripts/calls-diff.mjs [rounds=25] [seed=1] [module]
//
// Mutations the README lists as deliberate differences are not made: what JSON cannot carry
// (NaN, Infinity, -0, a member holding `undefined`; a member is deleted instead). Three
// documented kinds are counted apart, not listed: an event list holding a value that is not an
// object (refused here, projected by the reference), a member of the wrong type inside a state,
// fixture or read model given to a view (read as missing here where the reference throws reading
// it), and a projector's `sourceCount: null` (0 here, `null` in the reference's projector).
//
// Nothing of the reference is kept: it is imported from its built `dist/` at run time.
import { readFileSync, readdirSync } from "node:fs";
import { inspect, isDeepStrictEqual } from "node:util";
import { decodeCall } from "../tests/js/reference.mjs";
import { loadSides } from "./sides.mjs";
import { xorshift } from "./xorshift.mjs";

const { ref, ours } = await loadSides();

const rounds = Number(process.argv[2] ?? 25);
const { rnd, pick } = xorshift(Number(process.argv[3] ?? 1));
const onlyModule = process.argv[4];

const VALUES = [
  null, 0, 1, -1, 2.5, "", " ", "x", "  Running  ", "completed", "failed", "pending", true,
  false, [], ["a", " b "], {}, { a: 1 }, [1, 2], "mcp__srv__tool", "2026-01-01T00:00:00.000Z",
];
const DELETE = Symbol("delete");

/** A copy of `value` with one or two members replaced, deleted or mutated in turn. */
function mutate(value, depth = 0) {
  if (value === null || typeof value !== "object" || depth > 4) return value;
  const copy = Array.isArray(value) ? value.slice() : { ...value };
  const n = 1 + Math.floor(rnd() * 2);
  for (let i = 0; i < n; i++) {
    const keys = Object.keys(copy);
    if (keys.length === 0) break;
    const key = pick(keys);
    const r = rnd();
    const next = r < 0.35 ? pick(VALUES) : r < 0.45 && !Array.isArray(copy) ? DELETE : mutate(copy[key], depth + 1);
    if (next === DELETE) delete copy[key];
    else copy[key] = next;
  }
  return copy;
}

function outcome(fn) {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The first path where `a` and `b` differ in value or in own-key order, or null. */
function firstDifference(a, b, path = "", depth = 0) {
  if (depth > 60) return null;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    return isDeepStrictEqual(a, b) ? null : `${path}: ${show(a)} / ${show(b)}`;
  }
  if (typeof a === "function" || typeof b === "function") return null;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) {
    return `${path}: keys [${ka.map(String)}] / [${kb.map(String)}]`;
  }
  for (const k of ka) {
    const d = firstDifference(a[k], b[k], `${path}.${String(k)}`, depth + 1);
    if (d) return d;
  }
  return null;
}

function show(v, length = 100) {
  return inspect(v, { depth: 8, breakLength: Infinity }).slice(0, length);
}

const NOT_AN_OBJECT = /events?\[\d+\][^:]*: (Runtime|a runtime) event must be an object/i;
const VIEW_ARGUMENTS = new Set(["projectCodingWorkbenchView", "projectCodingWorkbenchViewFromEvents", "replayAgentUiFixture", "projectAgentUiStateFromSessionSnapshot"]);

const surface = JSON.parse(readFileSync(new URL("../../shared/reference/surface.json", import.meta.url)));
const problems = new Map();
let runs = 0;
let same = 0;
let documented = 0;
/** `[module, its recorded calls]` of the contracts (but fixtures) and of part 1. */
function recordedModules() {
  const out = [];
  for (const pkg of ["contracts", "projection"]) {
    const dir = new URL(`../../shared/reference/calls/${pkg}/`, import.meta.url);
    for (const file of readdirSync(dir).sort()) {
      const module = file.replace(/\.json$/, "");
      const covered = pkg === "contracts" ? module !== "fixtures" : surface.modules[module]?.part === 1;
      if (covered && (!onlyModule || module === onlyModule)) out.push([module, JSON.parse(readFileSync(new URL(file, dir))).calls]);
    }
  }
  return out;
}

for (const [module, calls] of recordedModules()) {
  for (const call of calls) {
    if (call.kind === "value" || call.kind === "construct") continue;
    if (typeof ref[call.name] !== "function" || typeof ours[call.name] !== "function") continue;
    for (let r = 0; r < rounds; r++) {
      const args = (decodeCall(call.args ?? []) ?? []).map((a) => (rnd() < 0.7 ? mutate(a) : a));
      const steps = (call.steps ?? []).map((s) => ({ method: s.method, args: decodeCall(s.args ?? []) }));
      // The same arguments for both (a call may keep or change what it is given).
      const runOn = (api) => () => {
        const made = api[call.name](...structuredClone(args));
        if (steps.length === 0) return made;
        return steps.map((s) => {
          const step = outcome(() => made[s.method](...structuredClone(s.args)));
          return step.ok ? step.value : `throws ${step.error?.constructor?.name}`;
        });
      };
      let theirs;
      try {
        theirs = outcome(runOn(ref));
        structuredClone(args);
      } catch {
        continue;
      }
      const mine = outcome(runOn(ours));
      runs++;
      let problem;
      if (theirs.ok && mine.ok) {
        const d = firstDifference(theirs.value, mine.value);
        // The reference's projector keeps `sourceCount: null`; here it is 0 (README).
        if (d && /\.readModel\.sourceCount: null \/ 0$/.test(d)) {
          documented++;
          continue;
        }
        if (d) problem = `result differs at ${d}`;
      } else if (!theirs.ok && !mine.ok) {
        // The same error, or TypeErrors both (the package's may name the call and the event).
        const sameError = theirs.error?.name === mine.error?.name && theirs.error?.message === mine.error?.message;
        const typeErrors = theirs.error instanceof TypeError && mine.error instanceof TypeError;
        if (!sameError && !typeErrors) problem = `throws differ: ${theirs.error} / ${mine.error}`;
      } else if (!mine.ok) {
        if (NOT_AN_OBJECT.test(String(mine.error?.message))) {
          documented++;
          continue;
        }
        problem = `ours throws: ${mine.error}`;
      } else if (VIEW_ARGUMENTS.has(call.name)) {
        documented++;
        continue;
      } else {
        problem = `the reference throws: ${theirs.error}`;
      }
      if (!problem) {
        same++;
        continue;
      }
      const key = `${module}.${call.name}: ${problem.slice(0, 90)}`;
      if (!problems.has(key)) problems.set(key, { problem, args: show(args, 600), n: 0 });
      problems.get(key).n++;
    }
  }
}
console.log(`${runs} mutated calls: ${same} the same, ${documented} documented differences, ${runs - same - documented} other differences`);
for (const [key, { problem, args, n }] of problems) {
  console.log(`\n${key.split(":")[0]} (x${n})\n  ${problem.slice(0, 300)}\n  arguments ${args}`);
}

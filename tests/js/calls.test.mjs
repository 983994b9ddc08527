// Every call the reference's own test suites make (../shared/reference/calls/), replayed against the
// package: same arguments, a deepStrictEqual result with the same key order, or the same thrown
// error (class, name, message and own properties). Factories replay their recorded method calls in
// order on the object they returned. Covered: the contracts' modules (but fixtures.json: the
// package ships its own conformance fixtures under the same ids) and every module of part 1 in
// surface.json.
//
// CALLS_MODULES=lifecycle,summary node --test tests/js/calls.test.mjs   replays only those modules.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RecordedError, decodeCall, hasReference, listReference, pkgEntry, readReference } from "./reference.mjs";

const api = await import(pkgEntry);

const only = process.env.CALLS_MODULES ? new Set(process.env.CALLS_MODULES.split(",")) : undefined;

/** `[package, module]` pairs whose recorded calls must replay exactly. */
function coveredModules() {
  if (!hasReference) return [];
  const surface = readReference("surface.json");
  const modules = [];
  for (const file of listReference("calls", "contracts")) {
    const module = file.replace(/\.json$/, "");
    if (module !== "fixtures") modules.push(["contracts", module]);
  }
  for (const [module, info] of Object.entries(surface.modules)) {
    if (info.part === 1 && info.recordedCalls > 0) modules.push(["projection", module]);
  }
  return modules.filter(([, module]) => !only || only.has(module));
}

/** Compare an actual value with a decoded recorded one (functions: by kind only). */
function assertSame(actual, expected, where) {
  if (expected instanceof RecordedError) {
    assertError(actual, expected, where);
    return;
  }
  if (typeof expected === "function") {
    assert.equal(typeof actual, "function", `${where}: expected a function`);
    return;
  }
  if (isPlainRecord(expected) && Object.values(expected).some((v) => typeof v === "function")) {
    // An object of methods (a factory's result): same keys, functions where functions were.
    assert.ok(actual !== null && typeof actual === "object", `${where}: expected an object`);
    for (const [key, value] of Object.entries(expected)) {
      assertSame(actual[key], value, `${where}.${key}`);
    }
    return;
  }
  assert.deepStrictEqual(actual, expected, where);
  assertKeyOrder(actual, expected, where);
}

/**
 * Every object of `actual` lists its own keys in the order of the recorded one (deepStrictEqual
 * does not look at order; `JSON.stringify`, `Object.keys` and a UI that iterates an object do).
 */
function assertKeyOrder(actual, expected, where) {
  const stack = [[actual, expected, where]];
  while (stack.length > 0) {
    const [a, e, at] = stack.pop();
    if (a === null || e === null || typeof a !== "object" || typeof e !== "object") continue;
    const keys = Reflect.ownKeys(e);
    assert.deepStrictEqual(Reflect.ownKeys(a), keys, `${at}: key order`);
    for (const key of keys) stack.push([a[key], e[key], `${at}.${String(key)}`]);
  }
}

function isPlainRecord(value) {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

function assertError(actual, expected, where) {
  assert.ok(actual instanceof Error, `${where}: expected an Error, got ${String(actual)}`);
  assert.equal(actual.constructor.name, expected.className, `${where}: error class`);
  assert.equal(actual.name, expected.name, `${where}: error name`);
  assert.equal(actual.message, expected.message, `${where}: error message`);
  for (const [key, value] of Object.entries(expected.props)) {
    assert.deepStrictEqual(actual[key], value, `${where}: error property ${key}`);
  }
}

/** Run `fn`; compare its result or its thrown error with the record. */
function replay(record, fn, where) {
  if (record.thrown !== undefined) {
    let threw = false;
    try {
      fn();
    } catch (error) {
      threw = true;
      assertError(error, new RecordedError(record.thrown), where);
    }
    assert.ok(threw, `${where}: expected a thrown ${record.thrown.class}`);
    return undefined;
  }
  const result = fn();
  assertSame(result, decodeCall(record.result), where);
  return result;
}

const modules = coveredModules();

test("recorded calls: every covered module has calls", { skip: !hasReference }, () => {
  assert.ok(modules.length > 0);
});

for (const [pkg, module] of modules) {
  const { calls } = readReference("calls", pkg, `${module}.json`);
  calls.forEach((call, index) => {
    const where = `${pkg}/${module} #${index} ${call.name}`;
    test(`${where} (${call.source})`, () => {
      assert.ok(Object.hasOwn(api, call.name), `${call.name} is not exported`);
      const exported = api[call.name];
      if (call.kind === "value") {
        assertSame(exported, decodeCall(call.result), where);
        return;
      }
      const args = decodeCall(call.args ?? []);
      if (call.kind === "construct") {
        replay(call, () => new exported(...args), where);
        return;
      }
      const made = replay(call, () => exported(...args), where);
      for (const [i, step] of (call.steps ?? []).entries()) {
        const stepArgs = decodeCall(step.args ?? []);
        replay(step, () => made[step.method](...stepArgs), `${where} step ${i} ${step.method}`);
      }
    });
  });
}

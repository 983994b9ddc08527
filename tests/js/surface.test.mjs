// The package's public surface against the reference's (../shared/reference/surface.json): every
// value of the contracts package and of every part-1 module is exported, and every type name of
// those modules is exported by the package's .d.ts (checked by compiling an import of each with
// tsc --strict).
import assert from "node:assert/strict";
import { test } from "node:test";
import { hasReference, pkgEntry, readReference } from "./reference.mjs";
import { typeCheck } from "./tsc.mjs";

const api = await import(pkgEntry);
const surface = hasReference ? readReference("surface.json") : { modules: {}, contracts: { values: [] } };
const part1 = Object.entries(surface.modules).filter(([, info]) => info.part === 1);

test("surface: the contracts package's values are exported", { skip: !hasReference }, () => {
  const missing = surface.contracts.values.filter((name) => !Object.hasOwn(api, name));
  assert.deepStrictEqual(missing, []);
});

for (const [module, info] of part1) {
  test(`surface: ${module} exports its values`, () => {
    const missing = info.values.filter((name) => !Object.hasOwn(api, name));
    assert.deepStrictEqual(missing, []);
  });
}

test("surface: part 1 counts", { skip: !hasReference }, () => {
  assert.equal(part1.length, 32);
  assert.equal(part1.reduce((n, [, info]) => n + info.values.length, 0), 139);
  assert.equal(part1.reduce((n, [, info]) => n + info.types.length, 0), 112);
});

test("surface: every part-1 type name is exported by the .d.ts", { skip: !hasReference }, () => {
  const names = [...new Set(part1.flatMap(([, info]) => info.types))].sort();
  const lines = names.map((name, i) => `import type { ${name} as T${i} } from "@limecloud/agent-runtime-projection-wasm";`);
  typeCheck(`${lines.join("\n")}\n`);
});

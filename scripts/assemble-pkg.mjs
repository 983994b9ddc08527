// Assemble pkg/ (after wasm-bindgen wrote pkg/glue/ and scripts/build-pkg.sh the generator's
// module, glue/generator.wasm): the JS wrapper and loaders from pkg-template/, the inlined module
// bytes for browsers and bundlers, the conformance fixtures, package.json, README, type
// declarations, the core's tables (from the native program crates/package-tables) and the five
// JSON Schema files.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const template = join(root, "pkg-template");
// The package directory: pkg/ (or $PKG_OUT, relative to the repository root).
const pkg = join(root, process.env.PKG_OUT ?? "pkg");
const crate = "agent_runtime_projection";

for (const name of readdirSync(template)) {
  if (name === "package.json") continue;
  cpSync(join(template, name), join(pkg, name), { recursive: true });
}

// Package manifest: version from Cargo.toml.
const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1];
if (!version) throw new Error("assemble-pkg: no version in Cargo.toml");
const manifest = JSON.parse(readFileSync(join(template, "package.json"), "utf8"));
manifest.version = version;
writeFileSync(join(pkg, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

// The glue wasm-bindgen wrote, adapted to the package's loaders (core.js):
// - its default loading path (fetching `<name>_bg.wasm` next to it) is never used: the loaders
//   hand it a compiled module. Without that path, bundlers no longer copy a second, unused
//   `.wasm` asset into every build;
// - `__replaceInstance(module)` / `__replaceInstanceAsync(module)` drop the instance and every
//   view of its memory the glue caches, then instantiate the module afresh (after a trap);
// - an object's finalizer frees it only into the instance that made it: each instance the glue
//   runs has a number (`__instanceId`: a new one after every replacement, and one for each
//   detached instance while `__withInstance` runs it), registered with the object's address.
//   Without that, an object of an instance dropped after a trap, collected later, would free
//   its address into the next instance (tests/js/faults.test.mjs).
const gluePath = join(pkg, "glue", `${crate}.js`);
let glueText = readFileSync(gluePath, "utf8");
// (Idempotent: what an earlier run added is replaced.)
const MARK = "\n// Added by scripts/assemble-pkg.mjs";
if (glueText.includes(MARK)) glueText = glueText.slice(0, glueText.indexOf(MARK));
const adapted = glueText.includes("the module is instantiated by the package");
const defaultUrl = `module_or_path = new URL('${crate}_bg.wasm', import.meta.url);`;
if (!adapted && !glueText.includes(defaultUrl)) throw new Error("assemble-pkg: the glue's default module URL was not found");
glueText = glueText.replace(
  defaultUrl,
  'throw new Error("agent-runtime-projection: the module is instantiated by the package\'s loader");',
);
// Each class's finalizer and each registration of an object with it.
const FINALIZER = /new FinalizationRegistry\(ptr => wasm\.(__wbg_\w+_free)\(ptr(?: >>> 0)?, 1\)\)/g;
const REGISTER = /(\w+Finalization)\.register\(this, this\.__wbg_ptr, this\);/g;
const finalizers = [...glueText.matchAll(FINALIZER)].length;
const registers = [...glueText.matchAll(REGISTER)].length;
const anyRegisters = (glueText.match(/Finalization\.register\(/g) ?? []).length;
if (!adapted && (finalizers === 0 || registers !== finalizers || anyRegisters !== registers)) {
  throw new Error(
    `assemble-pkg: ${finalizers} finalizers and ${registers} of ${anyRegisters} registrations found in the glue (wasm-bindgen version changed?)`,
  );
}
glueText = glueText
  .replace(FINALIZER, 'new FinalizationRegistry((held) => __finalize(held, "$1"))')
  .replace(REGISTER, "$1.register(this, __held(this.__wbg_ptr), this);");
const caches = [...glueText.matchAll(/^let (cached\w*Memory0) = null;$/gm)].map(([, name]) => name);
if (caches.length === 0 || !/^let wasmModule, wasmInstance, wasm;$/m.test(glueText)) {
  throw new Error("assemble-pkg: the glue's instance state was not found (wasm-bindgen version changed?)");
}
glueText += `${MARK}: instance replacement for pkg/core.js (after a trap).
// The number of the instance the glue runs now, and the last one given.
let __instanceId = 0;
let __instanceIds = 0;
// What an object's finalizer holds: its address and its instance's number.
function __held(ptr) {
    return ptr + __instanceId * 4294967296;
}
// Free an object whose wrapper was collected, if its instance is still the one the glue runs.
function __finalize(held, free) {
    const id = Math.floor(held / 4294967296);
    if (id === __instanceId && wasm !== undefined) wasm[free](held - id * 4294967296, 1);
}
function __dropInstance() {
    __instanceId = ++__instanceIds;
    wasm = undefined;
    wasmInstance = undefined;
    wasmModule = undefined;
    __wbg_init_promise = undefined;
${caches.map((name) => `    ${name} = null;`).join("\n")}
}
export function __replaceInstance(module) {
    __dropInstance();
    return initSync({ module });
}
export function __replaceInstanceAsync(module) {
    __dropInstance();
    return __wbg_init({ module_or_path: module });
}
// A second, detached instance of \`module\` (started, not installed) for \`__withInstance\`.
export function __newInstance(module) {
    const instance = new WebAssembly.Instance(module, __wbg_get_imports());
    return __withInstance(instance, () => {
        wasm.__wbindgen_start();
        return instance;
    });
}
// Run \`fn\` with \`instance\` as the glue's instance, then put the installed one back.
export function __withInstance(instance, fn) {
    const saved = [wasm, wasmInstance, __instanceId];
    wasm = instance.exports;
    wasmInstance = instance;
    __instanceId = ++__instanceIds;
${caches.map((name) => `    ${name} = null;`).join("\n")}
    try {
        return fn();
    } finally {
        [wasm, wasmInstance, __instanceId] = saved;
${caches.map((name) => `        ${name} = null;`).join("\n")}
    }
}
`;
writeFileSync(gluePath, glueText);

// Inlined module bytes (browsers and bundlers compile them synchronously at import; the
// generator's module on the first call of `generateRuntimeEvents`, see generator.js).
function writeInline(wasmFile, jsFile, name, what) {
  const bytes = readFileSync(join(pkg, "glue", wasmFile));
  writeFileSync(
    join(pkg, "glue", `${jsFile}.js`),
    `// Generated by scripts/assemble-pkg.mjs: ${what}, base64.\nexport const ${name} = "${bytes.toString("base64")}";\n`,
  );
  writeFileSync(join(pkg, "glue", `${jsFile}.d.ts`), `export declare const ${name}: string;\n`);
}
writeInline(`${crate}_bg.wasm`, "wasm-inline", "wasmBase64", "the module bytes");
writeInline("generator.wasm", "generator-inline", "generatorBase64", "the event generator's module bytes");

// The conformance fixtures, as one JSON array text (api.js parses it once at import). The wasm
// module does not embed them: this keeps ~190 KB of data out of it. The ids and their order are
// the ones of `FIXTURE_FILES` in src/contract/fixtures.rs (the native API), read from there so
// that both builds list the same fixtures.
const fixturesRs = readFileSync(join(root, "src", "contract", "fixtures.rs"), "utf8");
const declared = Number(/FIXTURE_FILES:\s*\[\(&str, &str\);\s*(\d+)\]/.exec(fixturesRs)?.[1]);
const fixtureIds = [
  ...fixturesRs.matchAll(/\(\s*"([a-z0-9-]+)",\s*include_str!\("\.\.\/\.\.\/fixtures\/([a-z0-9-]+)\.json"\)/g),
].map(([, id, file]) => {
  if (id !== file) throw new Error(`assemble-pkg: fixture id ${id} is embedded from ${file}.json`);
  return id;
});
if (!declared || fixtureIds.length !== declared) {
  throw new Error(`assemble-pkg: read ${fixtureIds.length} fixture ids from fixtures.rs, expected ${declared}`);
}
const fixtures = fixtureIds.map((id) => {
  const fixture = JSON.parse(readFileSync(join(root, "fixtures", `${id}.json`), "utf8"));
  if (fixture.id !== id) throw new Error(`assemble-pkg: fixtures/${id}.json has id ${fixture.id}`);
  return fixture;
});
writeFileSync(
  join(pkg, "glue", "fixtures.js"),
  `// Generated by scripts/assemble-pkg.mjs from fixtures/*.json: the conformance fixtures, JSON text.\nexport const fixturesJson = ${JSON.stringify(JSON.stringify(fixtures))};\n`,
);
writeFileSync(join(pkg, "glue", "fixtures.d.ts"), "export declare const fixturesJson: string;\n");

// wasm-bindgen's own package files are not needed (pkg/package.json is ours).
for (const extra of [".gitignore", "package.json", "README.md"]) rmSync(join(pkg, "glue", extra), { force: true });

// The core's tables, each as JSON text, printed by the native program crates/package-tables
// (built on demand; build-pkg.sh names the target directory it is built in).
const tables = JSON.parse(
  execFileSync("cargo", ["run", "-q", "-p", "agent-runtime-projection-tables"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env.TABLES_TARGET_DIR ? { ...process.env, CARGO_TARGET_DIR: process.env.TABLES_TARGET_DIR } : process.env,
  }),
);
// JSON Schemas: the constants name them (short name -> file, in export order); the documents
// come from schemas/ (the files the native crate embeds; the runtime event's is generated from
// the event model) and ship as JSON text in glue/schemas.js and as files in pkg/schemas/.
const constants = JSON.parse(tables.constants);
// The constants, as JSON text the wrapper parses at import (no call into the module at import).
writeFileSync(
  join(pkg, "glue", "constants.js"),
  `// Generated by scripts/assemble-pkg.mjs from the core's constants_json().\nexport const constantsJson = ${JSON.stringify(tables.constants)};\n`,
);
writeFileSync(join(pkg, "glue", "constants.d.ts"), "export declare const constantsJson: string;\n");
// The projection's rule tables (views.js evaluates them in JS), likewise.
writeFileSync(
  join(pkg, "glue", "view-rules.js"),
  `// Generated by scripts/assemble-pkg.mjs from the core's view_rules::rules_json().\nexport const viewRulesJson = ${JSON.stringify(tables.viewRules)};\n`,
);
writeFileSync(join(pkg, "glue", "view-rules.d.ts"), "export declare const viewRulesJson: string;\n");
// The objects the wrapper makes from an event itself (projection::templates): one JS function
// per template, written from the core's table, so each is an object literal reading the
// event's own fields (the wire sends only which template, which event and a few codes).
{
  const templates = JSON.parse(tables.templates);
  const lists = [];
  const listOf = (items) => {
    const text = JSON.stringify(items);
    let i = lists.indexOf(text);
    if (i < 0) i = lists.push(text) - 1;
    return `L${i}`;
  };
  const prop = (name) => `[${JSON.stringify(name)}]`;
  // The wrapper's functions a maker calls (pkg-template/actions.js), by source kind.
  const helpers = { action: "projectAgentRuntimeAction", actions: "projectActions" };
  const imported = new Set();
  const valueOf = (source) => {
    const [kind, a, b] = source;
    switch (kind) {
      case "field":
        return `e${prop(a)}`;
      case "event":
        return "e";
      case "code":
        return `${listOf(b)}[c${a}]`;
      case "flag":
        return `c${a} !== 0`;
      case "refs":
        return `[${a.map((f) => `...(e${prop(f)} ?? [])`).join(", ")}]`;
      case "payloadString":
        return `(typeof e.payload?.${prop(a)} === "string" ? e.payload${prop(a)} : "")`;
      case "undefined":
        return "undefined";
      case "action":
      case "actions":
        imported.add(helpers[kind]);
        return `${helpers[kind]}(e)`;
      default:
        throw new Error(`assemble-pkg: unknown template source ${kind}`);
    }
  };
  // A compact template leaves out the keys whose value is undefined, in the table's key order.
  const compactBody = (t) => {
    if (t.keys.some(([key]) => key === "__proto__")) throw new Error(`assemble-pkg: ${t.name} names __proto__`);
    return `    const o = {};
    let v;
${t.keys
      .map(([key, ...source]) => `    if ((v = ${valueOf(source)}) !== undefined) o${prop(key)} = v;`)
      .join("\n")}
    return o;`;
  };
  const literalBody = (t) => `    return {
${t.keys.map(([key, ...source]) => `      ${JSON.stringify(key)}: ${valueOf(source)},`).join("\n")}
    };`;
  const makers = templates.map(
    (t) => `  function ${t.name}(e, c0, c1, c2) {
${t.compact ? compactBody(t) : literalBody(t)}
  },`,
  );
  // The runtime status view (`status` and the fields `runtimeViewFields` of view_rules names,
  // read from the event in the table's order), likewise an object literal.
  const viewFields = JSON.parse(tables.viewRules).runtimeViewFields;
  // The fields of an event that decide whether it supersedes a state delta (view_rules'
  // supersessionFields, state_delta::SUPERSESSION_FIELDS), each read once in the table's order,
  // into an object of those it has: named reads and stores, where a loop over the names would
  // read and write by computed key.
  const supersession = JSON.parse(tables.viewRules).supersessionFields;
  if (supersession.includes("__proto__")) throw new Error("assemble-pkg: supersessionFields names __proto__");
  const supersessionBody = supersession
    .map((field) => `  if ((v = e${prop(field)}) !== undefined) o${prop(field)} = v;`)
    .join("\n");
  const runtimeView = (from) =>
    `{ status, ${viewFields.map(([key, field]) => `${JSON.stringify(key)}: ${from(field)}`).join(", ")} }`;
  writeFileSync(
    join(pkg, "glue", "templates.js"),
    "// Generated by scripts/assemble-pkg.mjs from the core's templates_json(): the objects the\n" +
      "// wrapper makes from one event (projection::templates), by template number; and the runtime\n" +
      "// status view of an event (view_rules' runtimeViewFields); the fields of an event that decide\n" +
      "// whether it supersedes a state delta (view_rules' supersessionFields).\n" +
      (imported.size > 0 ? `import { ${[...imported].sort().join(", ")} } from "../actions.js";\n` : "") +
      lists.map((text, i) => `const L${i} = ${text};\n`).join("") +
      `export const makers = [\n${makers.join("\n")}\n];\n` +
      `export function runtimeView(status, e) {\n` +
      `  if (e === undefined) return ${runtimeView(() => "undefined")};\n` +
      `  return ${runtimeView((field) => `e${prop(field)}`)};\n}\n` +
      `export function supersessionFields(e) {\n  const o = {};\n  let v;\n${supersessionBody}\n  return o;\n}\n`,
  );
  writeFileSync(
    join(pkg, "glue", "templates.d.ts"),
    "export declare const makers: ((event: any, c0: number, c1: number, c2: number) => object)[];\n" +
      "export declare function runtimeView(status: string, event: any): object;\n" +
      "export declare function supersessionFields(event: any): object;\n",
  );
}
// The tool lifecycle metadata rule's table (the projection-event builders read it).
writeFileSync(
  join(pkg, "glue", "tool-lifecycle-rules.js"),
  `// Generated by scripts/assemble-pkg.mjs from the core's tool_lifecycle::rules_json().\nexport const toolLifecycleRulesJson = ${JSON.stringify(tables.toolLifecycleRules)};\n`,
);
writeFileSync(join(pkg, "glue", "tool-lifecycle-rules.d.ts"), "export declare const toolLifecycleRulesJson: string;\n");
// The codes of the tape results cross as (contract::tape; wire.js reads them), one constant each.
{
  const codes = Object.entries(JSON.parse(tables.tapeCodes));
  writeFileSync(
    join(pkg, "glue", "tape-codes.js"),
    "// Generated by scripts/assemble-pkg.mjs from the core's contract::tape::codes_json().\n" +
      codes.map(([name, code]) => `export const TAPE_${name} = ${code};\n`).join(""),
  );
  writeFileSync(
    join(pkg, "glue", "tape-codes.d.ts"),
    codes.map(([name]) => `export declare const TAPE_${name}: number;\n`).join(""),
  );
}
const schemas = {};
mkdirSync(join(pkg, "schemas"), { recursive: true });
for (const [short, file] of Object.entries(constants.schemaFiles)) {
  // The runtime event's schema is generated from the event model's field table (build.rs); the
  // others are files.
  const text = short === "runtimeEvent" ? tables.eventSchema : readFileSync(join(root, "schemas", file), "utf8");
  schemas[short] = JSON.parse(text);
  writeFileSync(join(pkg, "schemas", file), `${JSON.stringify(schemas[short], null, 2)}\n`);
}
writeFileSync(
  join(pkg, "glue", "schemas.js"),
  `// Generated by scripts/assemble-pkg.mjs from schemas/*.json: the JSON Schemas by short name, JSON text.\nexport const schemasJson = ${JSON.stringify(JSON.stringify(schemas))};\n`,
);
writeFileSync(join(pkg, "glue", "schemas.d.ts"), "export declare const schemasJson: string;\n");
// The closed Agent UI event class union, from the core's own list.
writeFileSync(
  join(pkg, "glue", "event-classes.d.ts"),
  `// Generated by scripts/assemble-pkg.mjs from AGENT_UI_EVENT_CLASSES.\nexport type AgentUiEventClass =\n${constants.eventClasses
    .map((c) => `  | ${JSON.stringify(c)}`)
    .join("\n")};\n`,
);
// The TypeScript rooms of the wrapper (the UI projection-event layer): compiled in place inside
// pkg/ (their declarations import the generated glue types), then their sources removed.
const tsRooms = ["projection-events"].filter((room) => existsSync(join(pkg, room)));
if (tsRooms.length > 0) {
  const config = join(pkg, "tsconfig.build.json");
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: "es2020",
        module: "esnext",
        moduleResolution: "bundler",
        lib: ["es2020"],
        types: [],
        strict: true,
        declaration: true,
        skipLibCheck: true,
        newLine: "lf",
      },
      include: tsRooms.map((room) => `${room}/**/*.ts`),
    }),
  );
  try {
    execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", config], { stdio: "inherit" });
  } finally {
    rmSync(config, { force: true });
  }
  for (const room of tsRooms) {
    for (const file of readdirSync(join(pkg, room), { recursive: true })) {
      if (file.endsWith(".ts") && !file.endsWith(".d.ts")) rmSync(join(pkg, room, file));
    }
  }
}

// A package built with the test-only `test_trap` export (scripts/build-pkg.sh --test-faults) gets
// testing.js, which traps inside a guarded call (tests/js/faults.test.mjs); the normal package has
// neither the export nor the file.
const glue = await import(pathToFileURL(gluePath).href);
if (typeof glue.test_trap === "function") {
  writeFileSync(
    join(pkg, "testing.js"),
    `// Generated by scripts/assemble-pkg.mjs for test-faults builds only: make the module trap inside a
// guarded call. \`kind\` 0: \`unreachable\`; 1: a Rust panic.
import { test_trap } from "./glue/${crate}.js";
import { guard } from "./core.js";

export function trapForTesting(kind = 0) {
  return guard("trapForTesting", () => test_trap(kind));
}
`,
  );
}
console.log(`assemble-pkg: pkg/ ${manifest.name}@${version}`);

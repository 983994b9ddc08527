// Run the reference's own test files against the built package (pkg/).
//
//   LIME_REFERENCE_DIR=/path/to/lime node scripts/reference-tests.mjs [name ...]
//
// LIME_REFERENCE_DIR names a local build of the reference packages (bench/README.md, "Reference
// builds"; nothing of it is kept in this project). Each named test file (`lifecycleEvents` for
// packages/agent-runtime-projection/tests/lifecycleEvents.test.mjs; `ui:ui` for
// packages/agent-runtime-ui/tests/ui.test.mjs) is copied into a temporary tree where the
// reference packages' entry points (`../dist/index.js`, `../../agent-ui-contracts/dist/index.js`)
// re-export this package, then run with `node --test`. Without names, the part-1 files run.
//
// The view package's tests (`ui:*`) run against pkg/react/index.js. They import the contracts and
// projection packages by name; those names re-export this package too, unless
// `--reference-data` is given: then they resolve to the reference's own builds
// (LIME_REFERENCE_DIR/packages/<name>/dist), so that the views are checked on the reference's
// fixtures and states alone (this project's conformance fixtures have their own ids and texts).
// For the projection package's tests, `--reference-data` keeps this package under every name but
// the conformance fixtures (`agentUiConformanceFixtures`, `getAgentUiFixture`), which then come
// from the reference's contracts build: the tests that assert the reference fixtures' texts
// (fixtureReplay) run this package's projection over those fixtures.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reference = process.env.LIME_REFERENCE_DIR;
if (!reference || !existsSync(join(reference, "packages", "agent-runtime-projection", "tests"))) {
  console.error("reference-tests: set LIME_REFERENCE_DIR to a local build of the reference packages (bench/README.md)");
  process.exit(2);
}

const PART1_TEST_FILES = [
  "projection",
  "lifecycleEvents",
  "permissionEvents",
  "routingEvents",
  "hydrationEvents",
  "diagnosticEvents",
  "contextEvents",
  "turnContextEvents",
  "artifactEvents",
  "canonicalThreadItemDetails",
  "clawstreamP0",
  "fixtureReplay",
  "subagents.failed",
  "appServerFacts",
];

const args = process.argv.slice(2);
const referenceData = args.includes("--reference-data");
const names = args.filter((arg) => arg !== "--reference-data");
const selected = names.length > 0 ? names : PART1_TEST_FILES;
const entry = pathToFileURL(join(root, "pkg", "index.node.js")).href;
const tree = mkdtempSync(join(tmpdir(), "reference-tests-"));
const files = [];
try {
  for (const dir of ["agent-runtime-projection", "agent-ui-contracts", "agent-runtime-ui"]) {
    mkdirSync(join(tree, dir, "dist"), { recursive: true });
    mkdirSync(join(tree, dir, "tests"), { recursive: true });
    writeFileSync(join(tree, dir, "dist", "index.js"), `export * from ${JSON.stringify(entry)};\n`);
  }
  if (referenceData) {
    const contracts = pathToFileURL(join(reference, "packages", "agent-ui-contracts", "dist", "index.js")).href;
    writeFileSync(
      join(tree, "agent-ui-contracts", "dist", "index.js"),
      `export * from ${JSON.stringify(entry)};\nexport { agentUiConformanceFixtures, getAgentUiFixture } from ${JSON.stringify(contracts)};\n`,
    );
  }
  const reactEntry = pathToFileURL(join(root, "pkg", "react", "index.js")).href;
  writeFileSync(join(tree, "agent-runtime-ui", "dist", "index.js"), `export * from ${JSON.stringify(reactEntry)};\n`);
  for (const name of selected) {
    const [pkg, base] = name.startsWith("ui:") ? ["agent-runtime-ui", name.slice(3)] : ["agent-runtime-projection", name];
    const from = join(reference, "packages", pkg, "tests", `${base}.test.mjs`);
    if (!existsSync(from)) {
      console.error(`reference-tests: no test file ${from}`);
      process.exit(2);
    }
    const to = join(tree, pkg, "tests", `${base}.test.mjs`);
    cpSync(from, to);
    files.push(to);
  }
  // Bare imports: react and react-dom from this project's node_modules; the reference's package
  // names (the view package's tests import them by name) re-export this package.
  const modules = join(tree, "node_modules");
  mkdirSync(join(modules, "@limecloud"), { recursive: true });
  for (const name of readdirSync(join(root, "node_modules"))) {
    if (name !== "@limecloud") symlinkSync(join(root, "node_modules", name), join(modules, name), "dir");
  }
  for (const name of ["agent-ui-contracts", "agent-runtime-projection"]) {
    const dir = join(modules, "@limecloud", name);
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `@limecloud/${name}`, type: "module", exports: "./index.js" })}\n`);
    const target = referenceData
      ? pathToFileURL(join(reference, "packages", name, "dist", "index.js")).href
      : entry;
    writeFileSync(join(dir, "index.js"), `export * from ${JSON.stringify(target)};\n`);
  }
  const run = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(tree, { recursive: true, force: true });
}

// Run the reference's own test files against the built package (pkg/).
//
//   LIME_REFERENCE_DIR=/path/to/lime node scripts/reference-tests.mjs [name ...]
//
// LIME_REFERENCE_DIR is a local checkout of the public repository jiujuan/lime (nothing of it is
// kept in this project). Each named test file (`lifecycleEvents` for
// packages/agent-runtime-projection/tests/lifecycleEvents.test.mjs; `ui:ui` for
// packages/agent-runtime-ui/tests/ui.test.mjs) is copied into a temporary tree where the
// reference packages' entry points (`../dist/index.js`, `../../agent-ui-contracts/dist/index.js`)
// re-export this package, then run with `node --test`. Without names, the part-1 files run.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reference = process.env.LIME_REFERENCE_DIR;
if (!reference || !existsSync(join(reference, "packages", "agent-runtime-projection", "tests"))) {
  console.error("reference-tests: set LIME_REFERENCE_DIR to a checkout of jiujuan/lime");
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

const names = process.argv.slice(2);
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
  // Resolve bare imports (react, react-dom) from this project's node_modules.
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"), "dir");
  const run = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(tree, { recursive: true, force: true });
}

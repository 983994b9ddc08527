// Build a local tree of the reference packages with the view package compiled, for the React
// tests and benchmark (tests/js/react.dom.test.mjs, bench/react.mjs), outside this project:
//
//   LIME_REFERENCE_DIR=/path/to/lime node scripts/reference-ui.mjs <out-dir>
//   LIME_REFERENCE_DIR=<out-dir> node --test tests/js/      # then use the tree
//
// LIME_REFERENCE_DIR is a checkout of the public repository jiujuan/lime, possibly read-only, with
// packages/agent-ui-contracts and packages/agent-runtime-projection built (their dist/). In
// <out-dir>/packages, those two are links to the checkout's; agent-runtime-ui gets links to the
// checkout's src/ and tests/, its dist/ compiled here with this project's tsc (emit only: the
// reference's sources type-check against @types/react, which this project does not install),
// and node_modules/react{,-dom} linked to this project's (one React for both view packages).
// Nothing of the reference is copied into this project.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const checkout = process.env.LIME_REFERENCE_DIR;
const out = process.argv[2] && resolve(process.argv[2]);
if (!checkout || !out) {
  console.error("usage: LIME_REFERENCE_DIR=<checkout of jiujuan/lime> node scripts/reference-ui.mjs <out-dir>");
  process.exit(2);
}
const source = (...parts) => join(resolve(checkout), "packages", ...parts);
for (const needed of [
  source("agent-ui-contracts", "dist", "index.js"),
  source("agent-runtime-projection", "dist", "index.js"),
  source("agent-runtime-ui", "src", "index.ts"),
  source("agent-runtime-ui", "tsconfig.json"),
]) {
  if (!existsSync(needed)) {
    console.error(`reference-ui: ${needed} is missing (build the reference's contracts and projection packages first)`);
    process.exit(2);
  }
}

const packages = join(out, "packages");
const ui = join(packages, "agent-runtime-ui");
rmSync(packages, { recursive: true, force: true });
mkdirSync(join(ui, "node_modules"), { recursive: true });
for (const name of ["agent-ui-contracts", "agent-runtime-projection"]) symlinkSync(source(name), join(packages, name), "dir");
for (const name of ["src", "tests"]) symlinkSync(source("agent-runtime-ui", name), join(ui, name), "dir");
for (const name of ["package.json", "tsconfig.json"]) copyFileSync(source("agent-runtime-ui", name), join(ui, name));
for (const name of ["react", "react-dom"]) symlinkSync(join(root, "node_modules", name), join(ui, "node_modules", name), "dir");

execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(ui, "tsconfig.json"), "--noCheck"], { stdio: "inherit" });
if (!existsSync(join(ui, "dist", "index.js"))) {
  console.error("reference-ui: tsc wrote no dist/index.js");
  process.exit(1);
}
console.log(`reference-ui: built ${join(ui, "dist")}; use LIME_REFERENCE_DIR=${out}`);

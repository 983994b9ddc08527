// The two sides of the differential scripts (calls-diff.mjs, odd-diff.mjs, delta-diff.mjs): the
// reference's built packages, named by LIME_REFERENCE_DIR (imported from their `dist/` at run
// time; nothing of them is kept here), and this package's pkg/.
import { join } from "node:path";

/** `{ ref, ours }`: the exports of the reference's two packages together, and ours. */
export async function loadSides() {
  const refDir = process.env.LIME_REFERENCE_DIR;
  if (!refDir) {
    console.error("set LIME_REFERENCE_DIR to a built copy of the reference (packages/*/dist)");
    process.exit(2);
  }
  const ref = {
    ...(await import(join(refDir, "packages/agent-ui-contracts/dist/index.js"))),
    ...(await import(join(refDir, "packages/agent-runtime-projection/dist/index.js"))),
  };
  const ours = await import(new URL("../pkg/index.node.js", import.meta.url).href);
  return { ref, ours };
}

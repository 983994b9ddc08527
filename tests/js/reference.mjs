// Shared helpers: where the recorded reference data is, and how to decode it.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, "..", "..");
export const referenceDir = process.env.AGENT_UI_REFERENCE_DIR ?? join(repoRoot, "..", "shared", "reference");
export const hasReference = existsSync(join(referenceDir, "vectors.json"));
export const pkgEntry = join(repoRoot, "pkg", "index.node.js");

if (!hasReference) {
  console.log(`# SKIP: reference data not found at ${referenceDir}; reference-based tests are skipped.`);
}

export function readReference(...parts) {
  return JSON.parse(readFileSync(join(referenceDir, ...parts), "utf8"));
}

export function listReference(...parts) {
  return readdirSync(join(referenceDir, ...parts)).filter((f) => f.endsWith(".json")).sort();
}

/** Decode `{"$undefined": true}` markers (own property / slot holding undefined). */
export function decodeUndefined(value) {
  if (Array.isArray(value)) return value.map(decodeUndefined);
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$undefined" && value.$undefined === true) return undefined;
    const out = {};
    for (const k of keys) {
      const v = decodeUndefined(value[k]);
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

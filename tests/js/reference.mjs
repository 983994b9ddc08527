// Shared helpers: where the recorded reference data is, and how to decode it.
//
// The data lives in ../shared/reference (or $AGENT_UI_REFERENCE_DIR). A suite that needs it fails
// when it is absent, unless ALLOW_MISSING_REFERENCE=1 (then the reference-based tests skip and
// say so).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, "..", "..");
export const referenceDir = process.env.AGENT_UI_REFERENCE_DIR ?? join(repoRoot, "..", "shared", "reference");
export const hasReference = existsSync(join(referenceDir, "vectors.json"));
export const pkgEntry = join(repoRoot, "pkg", "index.node.js");

if (!hasReference) {
  if (process.env.ALLOW_MISSING_REFERENCE !== "1") {
    throw new Error(
      `reference data not found at ${referenceDir}: these tests compare against it. ` +
        "Set ALLOW_MISSING_REFERENCE=1 to skip them instead.",
    );
  }
  console.log(`# SKIP: reference data not found at ${referenceDir}; reference-based tests are skipped (ALLOW_MISSING_REFERENCE=1).`);
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

/** A placeholder for a recorded `{"$function": name}` argument. */
function recordedFunction(name) {
  const fn = () => undefined;
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

/**
 * Decode the marker objects of `calls/` (see ../shared/reference/README.md): `$undefined`,
 * `$hole`, `$number`, `$bigint`, `$function`, `$date`, `$regexp`, `$map`, `$set`, `$error`
 * (an Error-like `{class, name, message, props}`, decoded as a `RecordedError`) and `$object`.
 */
export function decodeCall(value) {
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (isMarker(item, "$hole")) continue;
      out[i] = decodeCall(item);
    }
    return out;
  }
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0].startsWith("$")) {
    const [key] = keys;
    const body = value[key];
    switch (key) {
      case "$undefined":
        return undefined;
      case "$number":
        return body === "-0" ? -0 : Number(body);
      case "$bigint":
        return BigInt(body);
      case "$function":
        return recordedFunction(body);
      case "$date":
        return new Date(body);
      case "$regexp":
        return new RegExp(body[0], body[1]);
      case "$map":
        return new Map(body.map(([k, v]) => [decodeCall(k), decodeCall(v)]));
      case "$set":
        return new Set(body.map(decodeCall));
      case "$error":
        return new RecordedError(body);
      case "$object":
        return decodeObject(body);
      default:
        break;
    }
  }
  return decodeObject(value);
}

function decodeObject(value) {
  const out = {};
  for (const k of Object.keys(value)) {
    Object.defineProperty(out, k, { value: decodeCall(value[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isMarker(value, key) {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    Object.keys(value).length === 1 && Object.hasOwn(value, key);
}

/** A recorded thrown or constructed error: its class name, `name`, `message` and own props. */
export class RecordedError {
  constructor({ class: className, name, message, props }) {
    this.className = className;
    this.name = name;
    this.message = message;
    this.props = props === undefined ? {} : decodeCall(props);
  }
}

// `normalizeRuntimeEvent`: the product's canonical RuntimeEvent envelope as an execution event
// (docs/normalize.md). The package's own addition (the reference has no such mapping). It builds
// one small object from another, which costs less in JS than one call into the module.
import { jsonText } from "./boundary.js";
import { constantsJson } from "./glue/constants.js";

/** The scope ids (and the phase) the envelope carries under the same name (the event model's). */
const SCOPE_FIELDS = JSON.parse(constantsJson).envelopeScopeFields;

/** `schemaVersion` of an envelope without a non-empty one. */
const EVENT_SCHEMA_VERSION = "lime-runtime-event/v0.1";

/** `kind` by the class's family (before its first `.`); any other family is a `note`. */
const KIND_BY_FAMILY = new Map(
  [
    [["tool", "command", "test"], "tool"],
    [["model", "text"], "model"],
    [["reasoning", "plan"], "note"],
    [["action"], "action"],
    [["artifact", "file", "patch"], "draft"],
    [["evidence", "review"], "evidence"],
    [["permission"], "permission"],
    [["sandbox"], "sandbox"],
    [["context"], "context"],
    [["turn", "run", "session", "snapshot", "state", "messages", "queue"], "state"],
    [["subagent", "task", "handoff", "channel", "agent", "worker"], "handoff"],
  ].flatMap(([families, kind]) => families.map((family) => [family, kind])),
);

/** `status` by the class's ending, the first match winning; otherwise `running`. */
const STATUS_BY_SUFFIX = [
  [[".failed", ".error"], "failed"],
  [[".canceled", ".cancelled"], "canceled"],
  [[".blocked", ".violation"], "blocked"],
  [
    [".completed", ".result", ".resolved", ".changed", ".applied", ".exited", ".finished", ".final", ".updated", ".ready", ".read"],
    "completed",
  ],
];

function kindForClass(eventClass) {
  return KIND_BY_FAMILY.get(eventClass.split(".", 1)[0]) ?? "note";
}

function statusForClass(eventClass) {
  if (eventClass === "action.required") return "pending";
  if (eventClass === "runtime.error") return "failed";
  for (const [suffixes, status] of STATUS_BY_SUFFIX) {
    if (suffixes.some((suffix) => eventClass.endsWith(suffix))) return status;
  }
  return "running";
}

const isRecord = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const nonEmptyString = (v) => (typeof v === "string" && v !== "" ? v : undefined);

/** The string entries of `list` (when it is an array), appended to `out`. */
function stringsOf(list, out) {
  if (Array.isArray(list)) for (const item of list) if (typeof item === "string") out.push(item);
}

/**
 * An envelope (a record with `eventId` and no `id`) mapped to an execution event; anything else
 * as it is. Either way the result is a copy read as JSON reads the argument (what JSON cannot
 * hold is left out), as every other input of the package is.
 */
export function normalizeRuntimeEvent(event) {
  const value = JSON.parse(jsonText(event, "normalizeRuntimeEvent: event"));
  if (!isRecord(value) || hasOwn(value, "id") || !hasOwn(value, "eventId")) return value;
  const eventClass = typeof value.type === "string" ? value.type : undefined;
  const payload = isRecord(value.payload) ? value.payload : undefined;
  const out = { schemaVersion: nonEmptyString(value.schemaVersion) ?? EVENT_SCHEMA_VERSION };
  const copy = (from, to = from) => {
    if (hasOwn(value, from)) out[to] = value[from];
  };
  copy("runtimeId");
  copy("sessionId");
  copy("eventId", "id");
  copy("type", "eventClass");
  if (eventClass !== undefined) {
    out.kind = kindForClass(eventClass);
    out.status = statusForClass(eventClass);
  }
  copy("sequence");
  for (const field of SCOPE_FIELDS) copy(field);
  const title =
    nonEmptyString(payload?.title) ?? nonEmptyString(payload?.toolName) ?? nonEmptyString(eventClass);
  if (title !== undefined) out.title = title;
  const refIds = [];
  const artifactRefs = [];
  const evidenceRefs = [];
  const refs = value.refs;
  if (isRecord(refs)) {
    stringsOf(refs.artifactIds, artifactRefs);
    stringsOf(refs.artifactRefs, artifactRefs);
    stringsOf(refs.evidenceIds, evidenceRefs);
    stringsOf(refs.evidenceRefs, evidenceRefs);
    stringsOf(refs.outputRefs, refIds);
    stringsOf(refs.rawRefs, refIds);
    stringsOf(refs.refIds, refIds);
  } else {
    stringsOf(refs, refIds);
  }
  if (refIds.length) out.refIds = refIds;
  if (artifactRefs.length) out.artifactRefs = artifactRefs;
  if (evidenceRefs.length) out.evidenceRefs = evidenceRefs;
  copy("payload");
  copy("timestamp", "createdAt");
  return out;
}

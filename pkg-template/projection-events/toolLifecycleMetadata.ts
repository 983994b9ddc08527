// The soul-lifecycle and tool-process facts a tool's metadata may carry, lifted into a tool event's
// payload. The package exports only the type; the reader serves the thread-item and tool builders.
// The rule (which keys, which fallbacks) is the Rust core's table (`projection::tool_lifecycle`,
// which the App Server facts use too), written into the package at build time; this reader
// interprets it.
import { toolLifecycleRulesJson } from "../glue/tool-lifecycle-rules.js";
import { readRecord, readStringField } from "./normalization.js";

type Loose = Record<string, unknown>;

export interface AgentUiToolLifecyclePayloadMetadata {
  soulLifecycle?: Record<string, unknown>;
  toolProcessFacts?: Record<string, unknown>;
  toolProcessSummary?: Record<string, unknown>;
  soulSurface?: string;
  soulPhase?: string;
  styleLevel?: string;
  riskLevel?: string;
  toneVariant?: string;
  profileId?: string;
  packId?: string;
}

interface LifecycleRules {
  /** `[name, keys]`: the first record held by one of the keys, layer by layer. */
  records: [string, string[]][];
  /**
   * `[name, keys, fallbacks]`: the first non-blank string of the keys, layer by layer; else each
   * fallback `[record index, keys]` read from that found record.
   */
  strings: [string, string[], [number, string[]][]][];
}

const RULES: LifecycleRules = JSON.parse(toolLifecycleRulesJson);

/** Each source's record, its `metadata` record and its `result.metadata` record, in that order. */
function metadataLayers(sources: unknown[]): Loose[] {
  const layers: Loose[] = [];
  for (const source of sources) {
    const record = readRecord(source);
    if (!record) continue;
    layers.push(record);
    const nested = readRecord(record.metadata);
    if (nested) layers.push(nested);
    const resultMetadata = readRecord(readRecord(record.result)?.metadata);
    if (resultMetadata) layers.push(resultMetadata);
  }
  return layers;
}

/** The first record held by one of `keys`, layer by layer. */
function firstRecordOf(layers: Loose[], keys: string[]): Loose | undefined {
  for (const layer of layers) {
    for (const key of keys) {
      const found = readRecord(layer[key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** The first non-blank string (trimmed) held by one of `keys`, layer by layer. */
function firstStringOf(layers: Loose[], keys: string[]): string | undefined {
  for (const layer of layers) {
    const found = readStringField(layer, keys);
    if (found) return found;
  }
  return undefined;
}

/**
 * The lifecycle facts of the given metadata sources (records; their `metadata` and
 * `result.metadata` are read too): the rule's records, then its strings, each string from the
 * layers first and else from the records found. Absent facts are left out.
 */
export function extractAgentUiToolLifecyclePayloadMetadata(...sources: unknown[]): AgentUiToolLifecyclePayloadMetadata {
  const layers = metadataLayers(sources);
  const out: Loose = {};
  const found: (Loose | undefined)[] = [];
  for (const [name, keys] of RULES.records) {
    const record = firstRecordOf(layers, keys);
    found.push(record);
    if (record !== undefined) out[name] = record;
  }
  for (const [name, keys, fallbacks] of RULES.strings) {
    let value = firstStringOf(layers, keys);
    for (let i = 0; value === undefined && i < fallbacks.length; i += 1) {
      const [at, fallbackKeys] = fallbacks[i];
      value = readStringField(found[at], fallbackKeys);
    }
    if (value !== undefined) out[name] = value;
  }
  return out as AgentUiToolLifecyclePayloadMetadata;
}

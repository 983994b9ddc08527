// The soul-lifecycle and tool-process facts a tool's metadata may carry, lifted into a tool event's
// payload. The package exports only the type; the reader serves the thread-item and tool builders.
import { compactProjectionFields, readRecord, readStringField } from "./normalization.js";

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

const SOUL_LIFECYCLE_KEYS = ["soulLifecycle", "soul_lifecycle"];
const PROCESS_FACTS_KEYS = ["toolProcessFacts", "tool_process_facts"];
const PROCESS_SUMMARY_KEYS = ["toolProcessSummary", "tool_process_summary", "processSummary", "process_summary"];
const SOUL_SURFACE_KEYS = ["soulSurface", "soul_surface"];
const SOUL_PHASE_KEYS = ["soulPhase", "soul_phase"];
const STYLE_LEVEL_KEYS = ["styleLevel", "style_level"];
const RISK_LEVEL_KEYS = ["riskLevel", "risk_level"];
const TONE_VARIANT_KEYS = ["toneVariant", "tone_variant"];
const PROFILE_ID_KEYS = ["profileId", "profile_id"];
const PACK_ID_KEYS = ["packId", "pack_id"];
const SURFACE_KEY = ["surface"];
const PHASE_KEY = ["phase"];

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
 * `result.metadata` are read too): the first lifecycle, process-facts and process-summary records,
 * and the soul and style strings, a top-level string winning over the lifecycle record's own.
 * Absent facts are left out.
 */
export function extractAgentUiToolLifecyclePayloadMetadata(...sources: unknown[]): AgentUiToolLifecyclePayloadMetadata {
  const layers = metadataLayers(sources);
  const soulLifecycle = firstRecordOf(layers, SOUL_LIFECYCLE_KEYS);
  const toolProcessFacts = firstRecordOf(layers, PROCESS_FACTS_KEYS);
  const toolProcessSummary = firstRecordOf(layers, PROCESS_SUMMARY_KEYS);
  return compactProjectionFields<AgentUiToolLifecyclePayloadMetadata>({
    soulLifecycle,
    toolProcessFacts,
    toolProcessSummary,
    soulSurface: firstStringOf(layers, SOUL_SURFACE_KEYS) ?? readStringField(soulLifecycle, SURFACE_KEY),
    soulPhase: firstStringOf(layers, SOUL_PHASE_KEYS) ?? readStringField(soulLifecycle, PHASE_KEY),
    styleLevel:
      firstStringOf(layers, STYLE_LEVEL_KEYS) ??
      readStringField(soulLifecycle, STYLE_LEVEL_KEYS) ??
      readStringField(toolProcessFacts, STYLE_LEVEL_KEYS),
    riskLevel:
      firstStringOf(layers, RISK_LEVEL_KEYS) ??
      readStringField(soulLifecycle, RISK_LEVEL_KEYS) ??
      readStringField(toolProcessFacts, RISK_LEVEL_KEYS),
    toneVariant: firstStringOf(layers, TONE_VARIANT_KEYS) ?? readStringField(soulLifecycle, TONE_VARIANT_KEYS),
    profileId: firstStringOf(layers, PROFILE_ID_KEYS) ?? readStringField(soulLifecycle, PROFILE_ID_KEYS),
    packId: firstStringOf(layers, PACK_ID_KEYS) ?? readStringField(soulLifecycle, PACK_ID_KEYS),
  });
}

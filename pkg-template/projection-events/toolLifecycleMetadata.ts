// The tool lifecycle facts a provider's metadata may carry (the "soul" lifecycle record, the tool
// process facts and summary, and their style / risk / tone labels), gathered into the payload
// fields tool projection events share.
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
const SURFACE_KEYS = ["surface"];
const PHASE_KEYS = ["phase"];

/**
 * The tool lifecycle fields found in `sources`. Each source that is a record is searched, then its
 * `metadata` record, then its `result.metadata` record; the first hit of a field wins. A label
 * missing at those levels is taken from the lifecycle record (and, for the style and risk levels,
 * from the process facts). Fields with nothing found are left out.
 */
export function extractAgentUiToolLifecyclePayloadMetadata(...sources: unknown[]): AgentUiToolLifecyclePayloadMetadata {
  const records: Loose[] = [];
  for (const source of sources) pushMetadataRecords(source, records);
  const found: AgentUiToolLifecyclePayloadMetadata = {};
  if (records.length === 0) return found;

  const soulLifecycle = firstRecord(records, SOUL_LIFECYCLE_KEYS);
  const toolProcessFacts = firstRecord(records, PROCESS_FACTS_KEYS);
  const toolProcessSummary = firstRecord(records, PROCESS_SUMMARY_KEYS);
  if (soulLifecycle) found.soulLifecycle = soulLifecycle;
  if (toolProcessFacts) found.toolProcessFacts = toolProcessFacts;
  if (toolProcessSummary) found.toolProcessSummary = toolProcessSummary;

  const soulSurface = firstString(records, SOUL_SURFACE_KEYS) ?? readStringField(soulLifecycle, SURFACE_KEYS);
  if (soulSurface !== undefined) found.soulSurface = soulSurface;
  const soulPhase = firstString(records, SOUL_PHASE_KEYS) ?? readStringField(soulLifecycle, PHASE_KEYS);
  if (soulPhase !== undefined) found.soulPhase = soulPhase;
  const styleLevel =
    firstString(records, STYLE_LEVEL_KEYS) ??
    readStringField(soulLifecycle, STYLE_LEVEL_KEYS) ??
    readStringField(toolProcessFacts, STYLE_LEVEL_KEYS);
  if (styleLevel !== undefined) found.styleLevel = styleLevel;
  const riskLevel =
    firstString(records, RISK_LEVEL_KEYS) ??
    readStringField(soulLifecycle, RISK_LEVEL_KEYS) ??
    readStringField(toolProcessFacts, RISK_LEVEL_KEYS);
  if (riskLevel !== undefined) found.riskLevel = riskLevel;
  const toneVariant = firstString(records, TONE_VARIANT_KEYS) ?? readStringField(soulLifecycle, TONE_VARIANT_KEYS);
  if (toneVariant !== undefined) found.toneVariant = toneVariant;
  const profileId = firstString(records, PROFILE_ID_KEYS) ?? readStringField(soulLifecycle, PROFILE_ID_KEYS);
  if (profileId !== undefined) found.profileId = profileId;
  const packId = firstString(records, PACK_ID_KEYS) ?? readStringField(soulLifecycle, PACK_ID_KEYS);
  if (packId !== undefined) found.packId = packId;
  return found;
}

/** Appends `source` (when a record), its `metadata` record and its `result.metadata` record. */
function pushMetadataRecords(source: unknown, into: Loose[]): void {
  const record = readRecord(source);
  if (!record) return;
  into.push(record);
  const metadata = readRecord(record.metadata);
  if (metadata) into.push(metadata);
  const resultMetadata = readRecord(readRecord(record.result)?.metadata);
  if (resultMetadata) into.push(resultMetadata);
}

function firstRecord(records: Loose[], keys: string[]): Loose | undefined {
  for (const record of records) {
    for (const key of keys) {
      const value = readRecord(record[key]);
      if (value) return value;
    }
  }
  return undefined;
}

function firstString(records: Loose[], keys: string[]): string | undefined {
  for (const record of records) {
    const value = readStringField(record, keys);
    if (value) return value;
  }
  return undefined;
}

// Artifact references carried by a provider's metadata.
import type { AgentUiProjectionRefs } from "./contracts.js";
import { readRecord, readStringArray } from "./normalization.js";

const ARTIFACT_ID_KEYS = ["artifact_id", "artifactId", "artifact_ids", "artifactIds"];
const ARTIFACT_PATH_KEYS = ["artifact_path", "artifactPath", "artifact_paths", "artifactPaths", "file_path", "filePath"];

function collect(record: Record<string, unknown>, keys: string[]): string[] {
  const kept = new Set<string>();
  for (const key of keys) for (const value of readStringArray(record[key])) kept.add(value);
  return [...kept];
}

/** The artifact ids and paths of `metadata` (every id and path key, first occurrences kept); `{}` when there are none. */
export function extractArtifactRefs(metadata: unknown): AgentUiProjectionRefs {
  const record = readRecord(metadata);
  const refs: AgentUiProjectionRefs = {};
  if (!record) return refs;
  const artifactIds = collect(record, ARTIFACT_ID_KEYS);
  const artifactPaths = collect(record, ARTIFACT_PATH_KEYS);
  if (artifactIds.length > 0) refs.artifactIds = artifactIds;
  if (artifactPaths.length > 0) refs.artifactPaths = artifactPaths;
  return refs;
}

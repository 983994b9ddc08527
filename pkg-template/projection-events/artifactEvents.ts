// Artifact events: a snapshot of an artifact's content, complete (preview ready) or still being written.
import type {
  AgentUiProjectionContext,
  AgentUiProjectionEvent,
  AgentUiProjectionRefs,
  AgentUiProjectionSourceType,
} from "./contracts.js";
import { buildAgentUiProjectionBase } from "./envelope.js";
import { completeProjectionEvent } from "./eventFields.js";
import { definedString, metadataKeys } from "./normalization.js";

export interface AgentUiArtifactSnapshotProjectionInput {
  sourceType?: AgentUiProjectionSourceType | string;
  artifactId: string;
  filePath?: string | null;
  content?: string | null;
  metadata?: Record<string, unknown> | null;
}

/**
 * The event of an artifact snapshot: `artifact.preview.ready` unless `metadata.complete` is
 * `false` (then `artifact.updated`, still producing), with the content's length, the metadata's
 * keys and the artifact's id and path as refs.
 */
export function buildAgentUiArtifactSnapshotEvent(
  input: AgentUiArtifactSnapshotProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent {
  // Any value but `false` (an absent one included) means complete.
  const complete = input.metadata?.complete !== false;
  const artifactId = definedString(input.artifactId);
  const artifactPath = definedString(input.filePath ?? undefined);
  const base = buildAgentUiProjectionBase({ sourceType: input.sourceType ?? "artifact_snapshot" }, context);
  const refs: AgentUiProjectionRefs = {};
  if (artifactId) refs.artifactIds = [artifactId];
  if (artifactPath) refs.artifactPaths = [artifactPath];
  return completeProjectionEvent(base, {
    type: complete ? "artifact.preview.ready" : "artifact.updated",
    artifactId,
    owner: "artifact",
    scope: "artifact",
    phase: complete ? "completed" : "producing",
    surface: "artifact_workspace",
    persistence: "artifact_store",
    payload: {
      filePath: artifactPath,
      contentLength: input.content?.length ?? 0,
      complete,
      metadataKeys: metadataKeys(input.metadata),
    },
    refs,
  });
}

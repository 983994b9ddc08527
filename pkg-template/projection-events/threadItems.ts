// Thread items (a thread's persisted items: messages, plans, reasoning, tool calls, commands, web
// searches, file artifacts, compactions, summaries, warnings, requests for the user, subagent
// activity) as projection events, and the task-board owner changes a task-update tool reports.
import type {
  AgentUiControl,
  AgentUiEventClass,
  AgentUiPhase,
  AgentUiProjectionContext,
  AgentUiProjectionEvent,
  AgentUiProjectionSourceType,
  AgentUiRuntimeStatus,
} from "./contracts.js";
import { type AgentUiProjectionBase, buildAgentUiProjectionBase } from "./envelope.js";
import { completeProjectionEvent } from "./eventFields.js";
import {
  compactProjectionFields,
  metadataKeys,
  readRecord,
  readStringArrayField,
  readStringField,
  truncateText,
} from "./normalization.js";
import { extractArtifactRefs } from "./refs.js";
import { extractAgentUiToolLifecyclePayloadMetadata } from "./toolLifecycleMetadata.js";

type Loose = Record<string, unknown>;

export interface AgentUiThreadItemProjectionInput {
  id: string;
  thread_id: string;
  turn_id: string;
  type: string;
  status: "in_progress" | "completed" | "failed" | string;
  text?: string;
  summary?: string | readonly string[];
  tool_name?: string;
  status_label?: string;
  title?: string;
  role?: string;
  model?: string;
  session_id?: string;
  output?: string;
  success?: boolean;
  error?: string;
  metadata?: unknown;
  command?: string;
  cwd?: string;
  aggregated_output?: string;
  exit_code?: number;
  query?: string;
  action?: string;
  action_data?: unknown;
  results?: readonly unknown[] | null;
  request_id?: string;
  action_type?: string;
  prompt?: string;
  questions?: readonly unknown[] | null;
  response?: unknown;
  path?: string;
  source?: string;
  content?: string | readonly string[];
  stage?: string;
  trigger?: string;
  detail?: string;
  message?: string;
  code?: string;
  contentParts?: readonly unknown[] | null;
}

export interface AgentUiTaskOwnerChangeProjectionInput {
  toolName: string;
  status?: string;
  success?: boolean;
  metadata?: unknown;
}

export interface AgentUiTaskOwnerChangeProjection {
  action: "assign" | "reassign";
  taskId: string;
  previousAssigneeId?: string;
  nextAssigneeId: string;
  sourceTaskListId?: string;
  sourceToolName: string;
  reassignmentReason: string;
}

// Field lists read by the helpers below (built once).
const NOT_ALPHANUMERIC = /[^a-z0-9]/gi;
const UPDATED_FIELDS_KEYS = ["updated_fields", "updatedFields"];
const TASK_ID_KEYS = ["task_id", "taskId"];
const TASK_RECORD_ID_KEYS = ["id", "taskId"];
const NEXT_OWNER_KEYS = ["to", "next", "nextOwner"];
const TASK_OWNER_KEYS = ["owner", "ownerName"];
const PREVIOUS_OWNER_KEYS = ["from", "previous", "previousOwner"];
const TASK_LIST_ID_KEYS = ["task_list_id", "taskListId"];
const TYPE_KEY = ["type"];
const KIND_KEY = ["kind"];
const URI_KEY = ["uri"];
const CANONICAL_TYPE_KEY = ["canonical_type"];
const SERVER_KEY = ["server"];
const PLUGIN_ID_KEY = ["plugin_id"];
const NAMESPACE_KEY = ["namespace"];
const SENDER_THREAD_KEY = ["sender_thread_id"];
const RECEIVER_THREADS_KEY = ["receiver_thread_ids"];
const PROMPT_KEY = ["prompt"];
const MODEL_KEY = ["model"];
const REASONING_EFFORT_KEY = ["reasoning_effort"];

/** A tool name reduced to its ASCII letters and digits, lower-cased (`"Task-Update Tool"` -> `"taskupdatetool"`). */
export function normalizeAgentUiProjectionToolName(toolName: string): string {
  if (typeof toolName === "string") return asciiAlphanumerics(toolName).toLowerCase();
  // Not a string: the regex form, so that the value's own `replace` runs, or the JS error is
  // "toolName.replace is not a function".
  return (toolName as string).replace(NOT_ALPHANUMERIC, "").toLowerCase();
}

/**
 * `text` without the characters that are not ASCII letters or digits (what removing
 * `/[^a-z0-9]/gi` leaves: case-insensitive matching without the `u` flag never maps a non-ASCII
 * character onto an ASCII letter), by a scan instead of a regex replace.
 */
function asciiAlphanumerics(text: string): string {
  let kept = "";
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) continue;
    if (i > runStart) kept += text.slice(runStart, i);
    runStart = i + 1;
  }
  return runStart === 0 ? text : kept + text.slice(runStart);
}

/** Whether a tool name is the task board's update tool (`TaskUpdate`, `TaskUpdateTool`, in any spelling). */
export function isAgentUiTaskUpdateToolName(toolName: string): boolean {
  const name = normalizeAgentUiProjectionToolName(toolName);
  return name === "taskupdate" || name === "taskupdatetool";
}

/**
 * The owner change a completed task-update call reports (its updated fields include `owner`):
 * the task, the new owner and the previous one when known (then a reassignment). `null` for any
 * other call, or when the task or the new owner cannot be read.
 */
export function extractAgentUiTaskOwnerChangeProjection(
  input: AgentUiTaskOwnerChangeProjectionInput,
): AgentUiTaskOwnerChangeProjection | null {
  if (input.status !== "completed" || input.success === false || !isAgentUiTaskUpdateToolName(input.toolName)) {
    return null;
  }
  const metadata = readRecord(input.metadata);
  const ownerUpdated = readStringArrayField(metadata, UPDATED_FIELDS_KEYS).some(
    (field) => field.toLowerCase() === "owner",
  );
  if (!ownerUpdated) return null;
  const task = readRecord(metadata?.task);
  const ownerChange = readRecord(metadata?.owner_change ?? metadata?.ownerChange);
  const taskId = readStringField(metadata, TASK_ID_KEYS) ?? readStringField(task, TASK_RECORD_ID_KEYS);
  const nextAssigneeId = readStringField(ownerChange, NEXT_OWNER_KEYS) ?? readStringField(task, TASK_OWNER_KEYS);
  if (!taskId || !nextAssigneeId) return null;
  const previousAssigneeId = readStringField(ownerChange, PREVIOUS_OWNER_KEYS);
  return {
    action: previousAssigneeId ? "reassign" : "assign",
    taskId,
    previousAssigneeId,
    nextAssigneeId,
    sourceTaskListId: readStringField(metadata, TASK_LIST_ID_KEYS),
    sourceToolName: input.toolName,
    reassignmentReason: `${input.toolName} owner change`,
  };
}

/** `failed` or `completed` as the item's status says; `acting` while it runs. */
export function resolveAgentUiThreadItemPhase(item: Pick<AgentUiThreadItemProjectionInput, "status">): AgentUiPhase {
  const status = item.status;
  if (status === "failed") return "failed";
  return status === "completed" ? "completed" : "acting";
}

/** The event class of a tool-like item: failed (a failed item, or a command with a non-zero exit code), result once completed, else progress. */
export function resolveAgentUiThreadItemToolResultType(
  item: Pick<AgentUiThreadItemProjectionInput, "exit_code" | "status" | "type">,
): AgentUiEventClass {
  const status = item.status;
  if (status === "failed") return "tool.failed";
  if (item.type === "command_execution" && typeof item.exit_code === "number" && item.exit_code !== 0) {
    return "tool.failed";
  }
  return status === "completed" ? "tool.result" : "tool.progress";
}

/** The phase of a tool-like item: `failed` when its event class is `tool.failed`, else as its status says. */
export function resolveAgentUiThreadItemToolPhase(
  item: Pick<AgentUiThreadItemProjectionInput, "exit_code" | "status" | "type">,
): AgentUiPhase {
  return resolveAgentUiThreadItemToolResultType(item) === "tool.failed" ? "failed" : resolveAgentUiThreadItemPhase(item);
}

/** A subagent activity's status label, trimmed and lower-cased (it must be a string when present). */
function subagentStatusLabel(item: Pick<AgentUiThreadItemProjectionInput, "status_label">): string | undefined {
  // Written as `item.status_label?.trim()` so that a non-string label fails with the JS error
  // "item.status_label?.trim is not a function".
  return item.status_label?.trim().toLowerCase();
}

/** The runtime status of a subagent activity label: `started` / `interacted` run, `interrupted` is cancelled. */
export function resolveAgentUiThreadItemSubagentRuntimeStatus(
  item: Pick<AgentUiThreadItemProjectionInput, "status_label">,
): AgentUiRuntimeStatus {
  return subagentRuntimeStatusOf(subagentStatusLabel(item));
}

function subagentRuntimeStatusOf(label: string | undefined): AgentUiRuntimeStatus {
  if (label === "started" || label === "interacted") return "running";
  return label === "interrupted" ? "cancelled" : "unknown";
}

function subagentPhaseOf(label: string | undefined): AgentUiPhase {
  if (label === "interrupted") return "interrupted";
  return label === "started" || label === "interacted" ? "acting" : "unknown";
}

/** The envelope of a thread item's event: the context's, with the item's thread, turn and id (as the part). */
export function buildAgentUiThreadItemBase(
  sourceType: AgentUiProjectionSourceType | string,
  item: Pick<AgentUiThreadItemProjectionInput, "id" | "thread_id" | "turn_id">,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionBase {
  const base = buildAgentUiProjectionBase({ sourceType }, context);
  base.threadId = item.thread_id;
  base.turnId = item.turn_id;
  base.partId = item.id;
  return base;
}

/** Adds `value` trimmed to `values` when it is not blank and not there yet. */
function addDistinct(values: string[], value: string | undefined): void {
  const text = value?.trim();
  if (text && !values.includes(text)) values.push(text);
}

/** The content parts of an agent message: their count, the kinds of its media and the media's non-inline reference URIs. */
function summarizeMessageContentParts(parts: readonly unknown[] | null | undefined): {
  contentPartCount: number;
  mediaKinds: string[];
  referenceUris: string[];
} {
  const mediaKinds: string[] = [];
  const referenceUris: string[] = [];
  if (!Array.isArray(parts)) return { contentPartCount: 0, mediaKinds, referenceUris };
  for (const part of parts) {
    const record = readRecord(part);
    if (readStringField(record, TYPE_KEY) !== "media") continue;
    addDistinct(mediaKinds, readStringField(record, KIND_KEY));
    const uri = readStringField(readRecord(record?.reference), URI_KEY);
    // Inline `data:` URIs are content, not references.
    if (uri && !uri.trimStart().toLowerCase().startsWith("data:")) addDistinct(referenceUris, uri);
  }
  return { contentPartCount: parts.length, mediaKinds, referenceUris };
}

/** The canonical tool-call details a tool item's metadata carries (MCP, dynamic and collaboration tool calls). */
function canonicalToolDetails(metadata: unknown): Loose {
  const record = readRecord(metadata);
  const canonicalType = readStringField(record, CANONICAL_TYPE_KEY);
  if (!canonicalType) return {};
  switch (canonicalType) {
    case "mcpToolCall":
      return compactProjectionFields({
        canonicalType,
        mcpServer: readStringField(record, SERVER_KEY),
        mcpAppContext: readRecord(record?.app_context),
        mcpPluginId: readStringField(record, PLUGIN_ID_KEY),
        mcpResultContent: Array.isArray(record?.result_content) ? record.result_content : undefined,
        mcpResultMeta: record?.result_meta,
      });
    case "dynamicToolCall":
      return compactProjectionFields({
        canonicalType,
        namespace: readStringField(record, NAMESPACE_KEY),
        contentItems: Array.isArray(record?.content_items) ? record.content_items : undefined,
      });
    case "collabAgentToolCall":
      return compactProjectionFields({
        canonicalType,
        senderThreadId: readStringField(record, SENDER_THREAD_KEY),
        receiverThreadIds: readStringArrayField(record, RECEIVER_THREADS_KEY),
        prompt: readStringField(record, PROMPT_KEY),
        model: readStringField(record, MODEL_KEY),
        reasoningEffort: readStringField(record, REASONING_EFFORT_KEY),
        agentsStates: readRecord(record?.agents_states),
      });
    default:
      return { canonicalType };
  }
}

/** The `agent.changed` event of a subagent activity item (a subagent turn of a coordinator team); `null` for other items. */
export function buildAgentUiThreadItemSubagentActivityEvent(
  sourceType: AgentUiProjectionSourceType | string,
  item: AgentUiThreadItemProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent | null {
  if (item.type !== "subagent_activity") return null;
  const label = subagentStatusLabel(item);
  const runtimeStatus = subagentRuntimeStatusOf(label);
  const childSessionId = item.session_id;
  return completeProjectionEvent(buildAgentUiThreadItemBase(sourceType, item, context), {
    type: "agent.changed",
    taskId: childSessionId,
    agentId: childSessionId,
    owner: "task",
    scope: "agent",
    phase: subagentPhaseOf(label),
    surface: "task_capsule",
    persistence: "archive",
    runtimeEntity: "subagent_turn",
    runtimeStatus,
    latestTurnStatus: runtimeStatus,
    topology: "coordinator_team",
    payload: {
      runtimeEntity: "subagent_turn",
      statusLabel: item.status_label,
      title: item.title,
      role: item.role,
      model: item.model,
      childSessionId,
    },
  });
}

/** The control a request item asks for: `answer` for a question to the user, `approve` for an approval. */
export function resolveAgentUiThreadItemActionControl(
  item: Pick<AgentUiThreadItemProjectionInput, "type">,
): AgentUiControl | undefined {
  const type = item.type;
  if (type === "request_user_input") return "answer";
  return type === "approval_request" ? "approve" : undefined;
}

/**
 * The event of a request item (approval or question to the user): `action.required` while it
 * has no response, `action.resolved` once it has one. `null` for other items.
 */
export function buildAgentUiThreadItemActionEvent(
  sourceType: AgentUiProjectionSourceType | string,
  item: AgentUiThreadItemProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent | null {
  const type = item.type;
  if (type !== "approval_request" && type !== "request_user_input") return null;
  const base = buildAgentUiThreadItemBase(sourceType, item, context);
  const hasResponse = Boolean(item.response);
  return completeProjectionEvent(base, {
    type: hasResponse ? "action.resolved" : "action.required",
    actionId: item.request_id,
    owner: "action",
    scope: "action_request",
    phase: hasResponse ? "completed" : "waiting",
    surface: "hitl",
    persistence: "archive",
    control: resolveAgentUiThreadItemActionControl(item),
    payload: {
      actionType: item.action_type,
      promptPreview: truncateText(item.prompt),
      questionCount: type === "request_user_input" ? (item.questions?.length ?? 0) : 0,
      hasResponse,
    },
  });
}

/** The length of an item's text (0 without one). */
function textLengthOf(item: AgentUiThreadItemProjectionInput): number {
  return item.text?.length ?? 0;
}

/** The first summary line of a reasoning item (its summary when it is one string). */
function firstSummaryText(summary: string | readonly string[] | undefined): string | undefined {
  return typeof summary === "string" ? summary : summary?.[0];
}

/** The projection event of a thread item, by its type; `null` for a type without one. */
export function buildAgentUiThreadItemEvent(
  sourceType: AgentUiProjectionSourceType | string,
  item: AgentUiThreadItemProjectionInput,
  context: AgentUiProjectionContext = {},
): AgentUiProjectionEvent | null {
  // Built before the type is looked at, so a bad context fails for every item alike.
  const base = buildAgentUiThreadItemBase(sourceType, item, context);
  const status = item.status;
  switch (item.type) {
    case "approval_request":
    case "request_user_input":
      return buildAgentUiThreadItemActionEvent(sourceType, item, context);
    case "subagent_activity":
      return buildAgentUiThreadItemSubagentActivityEvent(sourceType, item, context);
    case "agent_message": {
      const parts = summarizeMessageContentParts(item.contentParts);
      return completeProjectionEvent(base, {
        type: status === "completed" ? "messages.snapshot" : "text.delta",
        owner: "model",
        scope: "part",
        phase: resolveAgentUiThreadItemPhase(item),
        surface: "conversation",
        persistence: "transcript",
        payload: {
          textLength: textLengthOf(item),
          preview: truncateText(item.text),
          contentPartCount: parts.contentPartCount,
          mediaKinds: parts.mediaKinds,
          referenceUris: parts.referenceUris,
        },
      });
    }
    case "plan":
      return completeProjectionEvent(base, {
        type: status === "completed" ? "plan.final" : "plan.delta",
        owner: "model",
        scope: "part",
        phase: status === "completed" ? "completed" : "planning",
        surface: "inline_process",
        persistence: "archive",
        payload: { textLength: textLengthOf(item), preview: truncateText(item.text) },
      });
    case "reasoning":
      return completeProjectionEvent(base, {
        type: status === "completed" ? "reasoning.summary" : "reasoning.delta",
        owner: "model",
        scope: "part",
        phase: status === "completed" ? "completed" : "reasoning",
        surface: "inline_process",
        persistence: "archive",
        payload: {
          textLength: textLengthOf(item),
          summaryCount: Array.isArray(item.summary) ? item.summary.length : 0,
          preview: truncateText(firstSummaryText(item.summary) ?? item.text),
        },
      });
    case "tool_call": {
      const metadata = item.metadata;
      return completeProjectionEvent(base, {
        type:
          status === "failed" || item.success === false
            ? "tool.failed"
            : status === "completed"
              ? "tool.result"
              : "tool.progress",
        toolCallId: item.id,
        owner: "tool",
        scope: "tool_call",
        phase: resolveAgentUiThreadItemPhase(item),
        surface: "tool_ui",
        persistence: "archive",
        payload: {
          toolName: item.tool_name,
          success: item.success,
          outputPreview: truncateText(item.output),
          errorPreview: truncateText(item.error),
          metadataKeys: metadataKeys(metadata),
          ...canonicalToolDetails(metadata),
          ...extractAgentUiToolLifecyclePayloadMetadata(metadata),
        },
        refs: extractArtifactRefs(metadata),
      });
    }
    case "command_execution":
      return completeProjectionEvent(base, {
        type: resolveAgentUiThreadItemToolResultType(item),
        toolCallId: item.id,
        owner: "tool",
        scope: "tool_call",
        phase: resolveAgentUiThreadItemToolPhase(item),
        surface: "tool_ui",
        persistence: "archive",
        payload: {
          toolName: "command_execution",
          commandPreview: truncateText(item.command),
          cwd: item.cwd,
          exitCode: item.exit_code,
          outputPreview: truncateText(item.aggregated_output),
          errorPreview: truncateText(item.error),
        },
      });
    case "web_search": {
      const results = Array.isArray(item.results) ? item.results : undefined;
      return completeProjectionEvent(base, {
        type: resolveAgentUiThreadItemToolResultType(item),
        toolCallId: item.id,
        owner: "tool",
        scope: "tool_call",
        phase: resolveAgentUiThreadItemToolPhase(item),
        surface: "tool_ui",
        persistence: "archive",
        payload: {
          toolName: "web_search",
          queryPreview: truncateText(item.query),
          action: item.action,
          actionData: item.action_data,
          results,
          resultCount: results?.length,
          outputPreview: truncateText(item.output),
        },
      });
    }
    case "file_artifact": {
      const path = item.path;
      return completeProjectionEvent(base, {
        type: status === "completed" ? "artifact.preview.ready" : "artifact.updated",
        artifactId: item.id,
        owner: "artifact",
        scope: "artifact",
        phase: status === "completed" ? "completed" : "producing",
        surface: "artifact_workspace",
        persistence: "artifact_store",
        payload: {
          filePath: path,
          source: item.source,
          contentLength: item.content?.length ?? 0,
          metadataKeys: metadataKeys(item.metadata),
        },
        refs: { artifactIds: [item.id], artifactPaths: path ? [path] : [] },
      });
    }
    case "context_compaction": {
      const stage = item.stage;
      return completeProjectionEvent(base, {
        type: stage === "completed" ? "context.compaction.completed" : "context.compaction.started",
        owner: "context",
        scope: "turn",
        phase: stage === "completed" ? "completed" : "preparing",
        surface: "timeline_evidence",
        persistence: "archive",
        payload: { stage, trigger: item.trigger, detailPreview: truncateText(item.detail) },
      });
    }
    case "turn_summary":
      return completeProjectionEvent(base, {
        type: "state.snapshot",
        owner: "session",
        scope: "turn",
        phase: "archived",
        surface: "timeline_evidence",
        persistence: "archive",
        payload: { textLength: textLengthOf(item), preview: truncateText(item.text) },
      });
    case "warning":
    case "error": {
      const isError = item.type === "error";
      return completeProjectionEvent(base, {
        type: "diagnostic.changed",
        owner: "diagnostics",
        scope: "turn",
        phase: isError ? "failed" : resolveAgentUiThreadItemPhase(item),
        surface: "diagnostics",
        persistence: "diagnostics_log",
        payload: { code: isError ? undefined : item.code, messagePreview: truncateText(item.message) },
      });
    }
    default:
      return null;
  }
}

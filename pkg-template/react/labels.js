// The views' default texts: what each view shows when no label function of its own is given.
// Module-level functions, so a memoized view receiving the default sees the same function on every
// render. Not exported from the subpath (the view package exports none of them either).

const ROLE_INITIALS = new Map([
  ["user", "U"],
  ["assistant", "A"],
  ["system", "S"],
]);

/** One letter for a message role's avatar ("M" for any role it does not know). */
export function roleInitial(role) {
  return ROLE_INITIALS.get(role) ?? "M";
}

/** `AgentTimeline` heading: the role's name; any role but user and assistant reads "System". */
export function messageTitle(message) {
  if (message.role === "user") return "User";
  return message.role === "assistant" ? "Assistant" : "System";
}

function localTime(iso) {
  return new Date(iso).toLocaleString();
}

export function messageMeta(message) {
  return message.createdAt ? localTime(message.createdAt) : null;
}

export function messagePreview(message) {
  return message.content.trim();
}

// A message part's heading: by role first, then by part type.
const PART_TYPE_TITLES = new Map([
  ["reasoning", "Reasoning"],
  ["tool-preview", "Tool"],
  ["artifact-card", "Artifact"],
  ["evidence-citation", "Evidence"],
  ["diagnostic-ref", "Diagnostic"],
]);

export function partTitle(part) {
  if (part.role === "user") return "User";
  if (part.role === "assistant") return "Assistant";
  return PART_TYPE_TITLES.get(part.type) ?? "Message";
}

export function partMeta(part) {
  if (part.createdAt) return localTime(part.createdAt);
  return part.state ?? null;
}

export function partPreview(part) {
  const text = part.text?.trim();
  if (text) return text;
  return part.refs?.length ? part.refs.join(" / ") : part.partId;
}

export function timelineEntryTitle(entry) {
  return entry.title;
}

export function timelineEntryMeta(entry) {
  return entry.phase ? entry.phase : entry.status;
}

export function graphNodeTitle(node) {
  return node.title;
}

export function graphNodeMeta(node) {
  return node.parentId ? `${node.nodeType} / ${node.parentId}` : node.nodeType;
}

// Action buttons: an explicit `buttonLabel` wins; two label keys have their own text; then each
// decision in this order matches by its label key or by the decision itself.
const ACTION_KEY_LABELS = new Map([
  ["agent.action.addInputSource", "Add input source"],
  ["agent.action.configureTextModel", "Open model settings"],
]);
const DECISION_LABELS = [
  ["approve", "Approve"],
  ["reject", "Reject"],
  ["answer", "Answer"],
  ["retry", "Retry"],
  ["stop", "Stop"],
];

export function actionButtonLabel(action) {
  if (action.buttonLabel) return action.buttonLabel;
  const keyed = ACTION_KEY_LABELS.get(action.labelKey);
  if (keyed !== undefined) return keyed;
  for (const [decision, label] of DECISION_LABELS) {
    if (action.labelKey === `agent.action.${decision}` || action.decision === decision) return label;
  }
  return "Resolve";
}

const STATUS_KEY_LABELS = new Map([
  ["agent.status.completed", "Completed"],
  ["agent.status.running", "Running"],
  ["agent.status.blocked", "Blocked"],
  ["agent.status.canceled", "Canceled"],
  ["agent.status.failed", "Failed"],
  ["agent.status.actionRequired", "Action required"],
  ["agent.status.actionResolved", "Resolved"],
]);

export function eventStatusLabel(event) {
  if (event.displayStatus) return event.displayStatus;
  return STATUS_KEY_LABELS.get(event.displayStatusKey) ?? "Pending";
}

const TOOL_FAMILY_LABELS = new Map([
  ["webSearch", "Web search"],
  ["webFetch", "Web fetch"],
  ["mcp", "MCP"],
  ["skill", "Skill"],
  ["command", "Command"],
  ["browser", "Browser"],
  ["file", "File"],
  ["tool", "Tool"],
]);

export function toolFamilyLabel(family) {
  return TOOL_FAMILY_LABELS.get(family) ?? family;
}

const TOOL_STATUS_LABELS = new Map([
  ["completed", "Completed"],
  ["running", "Running"],
  ["blocked", "Blocked"],
  ["failed", "Failed"],
  ["canceled", "Canceled"],
  ["cancelled", "Canceled"],
  ["pending", "Pending"],
]);

export function toolStatusLabel(status) {
  return TOOL_STATUS_LABELS.get(status) ?? status;
}

const MCP_OPERATION_LABELS = new Map([
  ["search", "Search"],
  ["list", "List"],
  ["read", "Read"],
  ["browser", "Browser"],
  ["mutation", "Mutation"],
  ["resource", "Resource"],
  ["prompt", "Prompt"],
  ["auth", "Auth"],
  ["tool", "Tool"],
]);

export function mcpOperationLabel(operation) {
  return MCP_OPERATION_LABELS.get(operation) ?? operation;
}

// Runtime refs (artifacts, evidence).
export function refTitle(ref) {
  return ref.title ?? ref.id;
}

export function refMeta(ref) {
  return ref.path ?? ref.contentRef ?? ref.sourceEventId;
}

export function refPreview(ref) {
  return ref.preview;
}

// Subagents.
export function threadTitle(thread) {
  return thread.nickname ?? thread.role ?? thread.title;
}

export function threadMeta(thread) {
  const place = thread.taskPath ?? thread.threadId;
  return [thread.status, place].filter(Boolean).join(" / ");
}

export function threadSummary(thread) {
  return thread.summary ?? thread.promptPreview;
}

export function delegationTitle(delegation) {
  return `${delegation.action}: ${delegation.title}`;
}

export function activityTitle(activity) {
  return activity.title;
}

export function activityMeta(activity) {
  return `${activity.kind} / ${activity.status}`;
}

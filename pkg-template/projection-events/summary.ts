// Summaries of a list of projection events for status panels: counts per event group, the latest
// notable events, and the subagent (team) view per surface and per lane of surfaces. The event
// groups and surface definitions are exported, mutable like the reference's: the summaries read
// them at each call.
import type { AgentUiEventClass, AgentUiProjectionEvent, AgentUiSurface } from "./contracts.js";
import { definedString } from "./normalization.js";

/** Counts of a list of events per group, with its latest event and latest notable events. */
export interface AgentUiProjectionSummary {
  total: number;
  actionCount: number;
  taskCount: number;
  artifactCount: number;
  evidenceCount: number;
  diagnosticsCount: number;
  latestEvent: AgentUiProjectionEvent | null;
  /** Up to 8, newest first. */
  latestNotableEvents: AgentUiProjectionEvent[];
}

/** Counts of the subagent events of a list per team surface, with the latest ones. */
export interface AgentUiSubagentsProjectionSummary {
  total: number;
  rosterCount: number;
  workBoardCount: number;
  delegationCount: number;
  handoffCount: number;
  workerNotificationCount: number;
  reviewCount: number;
  transcriptCount: number;
  backgroundCount: number;
  remoteCount: number;
  policyCount: number;
  /** Up to 5, newest first. */
  latestEvents: AgentUiProjectionEvent[];
}

/** A lane of the subagents view: a named group of team surfaces. */
export interface AgentUiSubagentsSurfaceLaneDefinition {
  id: string;
  label: string;
  description: string;
  surfaces: AgentUiSurface[];
}

/** A lane with the number of its events and its latest ones (up to 2, newest first). */
export interface AgentUiSubagentsSurfaceLaneSummary extends AgentUiSubagentsSurfaceLaneDefinition {
  total: number;
  latestEvents: AgentUiProjectionEvent[];
}

/** A team surface with its display label and description. */
export interface AgentUiSubagentsSurfaceDefinition {
  surface: AgentUiSurface;
  label: string;
  description: string;
}

/** A team surface with the number of its events and its latest ones, newest first. */
export interface AgentUiSubagentsSurfaceSummary extends AgentUiSubagentsSurfaceDefinition {
  total: number;
  latestEvents: AgentUiProjectionEvent[];
}

/** The summary of no events (what `summarizeAgentUiProjectionEvents([])` returns, this very object). */
export const EMPTY_AGENT_UI_PROJECTION_SUMMARY: AgentUiProjectionSummary = {
  total: 0,
  actionCount: 0,
  taskCount: 0,
  artifactCount: 0,
  evidenceCount: 0,
  diagnosticsCount: 0,
  latestEvent: null,
  latestNotableEvents: [],
};

/** The subagents summary of a list without subagent events (returned as this very object). */
export const EMPTY_AGENT_UI_SUBAGENTS_PROJECTION_SUMMARY: AgentUiSubagentsProjectionSummary = {
  total: 0,
  rosterCount: 0,
  workBoardCount: 0,
  delegationCount: 0,
  handoffCount: 0,
  workerNotificationCount: 0,
  reviewCount: 0,
  transcriptCount: 0,
  backgroundCount: 0,
  remoteCount: 0,
  policyCount: 0,
  latestEvents: [],
};

/** Event types that ask for or settle a user decision (counted as actions). */
export const AGENT_UI_ACTION_EVENT_TYPES = new Set<AgentUiEventClass>([
  "action.required",
  "action.resolved",
  "permission.changed",
]);

/** Event types of queued work, tasks and agents (counted as tasks). */
export const AGENT_UI_TASK_EVENT_TYPES = new Set<AgentUiEventClass>([
  "queue.changed",
  "task.changed",
  "agent.changed",
  "agent.spawned",
  "agent.completed",
  "agent.handoff",
  "worker.notification",
]);

/** Event types of artifacts (counted as artifacts). */
export const AGENT_UI_ARTIFACT_EVENT_TYPES = new Set<AgentUiEventClass>([
  "artifact.created",
  "artifact.updated",
  "artifact.preview.ready",
  "artifact.diff.ready",
  "artifact.failed",
  "artifact.changed",
]);

/** Event types of context, permissions, diagnostics and metrics (counted as diagnostics). */
export const AGENT_UI_DIAGNOSTIC_EVENT_TYPES = new Set<AgentUiEventClass>([
  "context.changed",
  "context.compaction.started",
  "context.compaction.completed",
  "diagnostic.changed",
  "metric.changed",
  "permission.changed",
]);

/** Event types of evidence and reviews (counted as evidence). */
export const AGENT_UI_EVIDENCE_EVENT_TYPES = new Set<AgentUiEventClass>([
  "evidence.changed",
  "review.requested",
  "review.completed",
]);

/** The surfaces of the subagents (team) view. */
export const AGENT_UI_SUBAGENTS_SURFACES = new Set<AgentUiSurface>([
  "team_roster",
  "work_board",
  "delegation_graph",
  "handoff_lane",
  "worker_notifications",
  "review_lane",
  "teammate_transcript",
  "background_teammate",
  "remote_teammate",
  "team_policy",
]);

/** The team surfaces in display order, with their labels and descriptions. */
export const AGENT_UI_SUBAGENTS_SURFACE_DEFINITIONS: AgentUiSubagentsSurfaceDefinition[] = [
  { surface: "team_roster", label: "Roster", description: "成员、角色、来源与当前状态" },
  { surface: "delegation_graph", label: "Delegation", description: "分派关系、父子任务与委派来源" },
  { surface: "work_board", label: "Board", description: "任务项、assignment 与 work item" },
  { surface: "worker_notifications", label: "Worker", description: "worker 完成、失败、停止与归档通知" },
  { surface: "handoff_lane", label: "Handoff", description: "分析交接、上下文边界与恢复目标" },
  { surface: "review_lane", label: "Review", description: "审核请求、审核结论与后续处理" },
  { surface: "teammate_transcript", label: "Transcript", description: "子代理 transcript ref 与局部会话线索" },
  { surface: "background_teammate", label: "Background", description: "后台 automation job 与持续刷新" },
  { surface: "remote_teammate", label: "Remote", description: "远端子代理 / external task 状态" },
  { surface: "team_policy", label: "Policy", description: "并行预算、队列、控制与策略事实" },
];

/** The lanes of the subagents view, in display order. */
export const AGENT_UI_SUBAGENTS_SURFACE_LANES: AgentUiSubagentsSurfaceLaneDefinition[] = [
  {
    id: "team-topology",
    label: "Subagents 拓扑",
    description: "子代理、分派、任务板与策略事实",
    surfaces: ["team_roster", "delegation_graph", "work_board", "team_policy"],
  },
  {
    id: "worker-flow",
    label: "Worker 流",
    description: "执行通知、子代理 transcript 与后台/远端子代理",
    surfaces: ["worker_notifications", "teammate_transcript", "background_teammate", "remote_teammate"],
  },
  {
    id: "review-handoff",
    label: "Review / Handoff",
    description: "交接、评审请求与评审完成",
    surfaces: ["handoff_lane", "review_lane"],
  },
];

/** Event types of subagents, whatever their surface. */
export const AGENT_UI_SUBAGENTS_EVENT_TYPES = new Set<AgentUiEventClass>([
  "agent.changed",
  "agent.spawned",
  "agent.completed",
  "agent.handoff",
  "worker.notification",
  "review.requested",
  "review.completed",
]);

/** Event types worth listing among the latest notable events: every counted group, runs and tools. */
export const AGENT_UI_NOTABLE_EVENT_TYPES = new Set<AgentUiEventClass>([
  ...AGENT_UI_ACTION_EVENT_TYPES,
  ...AGENT_UI_TASK_EVENT_TYPES,
  ...AGENT_UI_ARTIFACT_EVENT_TYPES,
  ...AGENT_UI_DIAGNOSTIC_EVENT_TYPES,
  ...AGENT_UI_EVIDENCE_EVENT_TYPES,
  "run.failed",
  "run.finished",
  "run.started",
  "run.status",
  "tool.failed",
  "tool.output.delta",
  "tool.progress",
  "tool.result",
  "tool.started",
]);

const LATEST_NOTABLE_LIMIT = 8;
const LATEST_SUBAGENT_LIMIT = 5;
const LATEST_PER_LANE_LIMIT = 2;
const DEFAULT_LATEST_PER_SURFACE = 3;

/**
 * Counts of `events` per group (an event may count in several), its last event and its latest
 * notable events (newest first). One pass from the end; array holes are skipped (but counted in
 * `total`). No events: `EMPTY_AGENT_UI_PROJECTION_SUMMARY` itself.
 */
export function summarizeAgentUiProjectionEvents(events: AgentUiProjectionEvent[]): AgentUiProjectionSummary {
  if (events.length === 0) return EMPTY_AGENT_UI_PROJECTION_SUMMARY;
  // The reference's first reads of a list that is not an array, with V8's own TypeErrors (a
  // number has no `slice`, a string no `reverse`).
  if (!Array.isArray(events)) (events as AgentUiProjectionEvent[]).slice().reverse().filter(() => false);
  const summary: AgentUiProjectionSummary = {
    total: events.length,
    actionCount: 0,
    taskCount: 0,
    artifactCount: 0,
    evidenceCount: 0,
    diagnosticsCount: 0,
    latestEvent: events[events.length - 1] ?? null,
    latestNotableEvents: [],
  };
  for (let index = events.length - 1; index >= 0; index -= 1) {
    if (!(index in events)) continue;
    const type = events[index].type;
    if (AGENT_UI_NOTABLE_EVENT_TYPES.has(type) && summary.latestNotableEvents.length < LATEST_NOTABLE_LIMIT) {
      summary.latestNotableEvents.push(events[index]);
    }
    if (AGENT_UI_ACTION_EVENT_TYPES.has(type)) summary.actionCount += 1;
    if (AGENT_UI_TASK_EVENT_TYPES.has(type)) summary.taskCount += 1;
    if (AGENT_UI_ARTIFACT_EVENT_TYPES.has(type)) summary.artifactCount += 1;
    if (AGENT_UI_EVIDENCE_EVENT_TYPES.has(type)) summary.evidenceCount += 1;
    if (AGENT_UI_DIAGNOSTIC_EVENT_TYPES.has(type)) summary.diagnosticsCount += 1;
  }
  return summary;
}

/** Count field of the subagents summary per team surface. */
const SUBAGENT_COUNT_FIELD: ReadonlyMap<unknown, keyof AgentUiSubagentsProjectionSummary> = new Map<
  AgentUiSurface,
  keyof AgentUiSubagentsProjectionSummary
>([
  ["team_roster", "rosterCount"],
  ["work_board", "workBoardCount"],
  ["delegation_graph", "delegationCount"],
  ["handoff_lane", "handoffCount"],
  ["worker_notifications", "workerNotificationCount"],
  ["review_lane", "reviewCount"],
  ["teammate_transcript", "transcriptCount"],
  ["background_teammate", "backgroundCount"],
  ["remote_teammate", "remoteCount"],
  ["team_policy", "policyCount"],
]);

/** `list`'s last `limit` items (or fewer), newest first. */
function newestFirst<T>(list: readonly T[], limit: number): T[] {
  const out: T[] = [];
  for (let index = list.length - 1; index >= 0 && out.length < limit; index -= 1) out.push(list[index]);
  return out;
}

/**
 * The subagent events of `events` (a subagent event type, or a surface of the subagents view)
 * counted per team surface, with the latest 5, newest first. None:
 * `EMPTY_AGENT_UI_SUBAGENTS_PROJECTION_SUMMARY` itself. Array holes are skipped.
 */
export function summarizeAgentUiSubagentsProjectionEvents(events: AgentUiProjectionEvent[]): AgentUiSubagentsProjectionSummary {
  requireFilter(events);
  const subagentEvents: AgentUiProjectionEvent[] = [];
  const counts = new Map<keyof AgentUiSubagentsProjectionSummary, number>();
  for (let index = 0; index < events.length; index += 1) {
    if (!(index in events)) continue;
    const event = events[index];
    const isSubagent = AGENT_UI_SUBAGENTS_EVENT_TYPES.has(event.type) || Boolean(event.surface && AGENT_UI_SUBAGENTS_SURFACES.has(event.surface));
    if (!isSubagent) continue;
    subagentEvents.push(event);
    const field = SUBAGENT_COUNT_FIELD.get(event.surface);
    if (field) counts.set(field, (counts.get(field) ?? 0) + 1);
  }
  if (subagentEvents.length === 0) return EMPTY_AGENT_UI_SUBAGENTS_PROJECTION_SUMMARY;
  const count = (field: keyof AgentUiSubagentsProjectionSummary): number => counts.get(field) ?? 0;
  return {
    total: subagentEvents.length,
    rosterCount: count("rosterCount"),
    workBoardCount: count("workBoardCount"),
    delegationCount: count("delegationCount"),
    handoffCount: count("handoffCount"),
    workerNotificationCount: count("workerNotificationCount"),
    reviewCount: count("reviewCount"),
    transcriptCount: count("transcriptCount"),
    backgroundCount: count("backgroundCount"),
    remoteCount: count("remoteCount"),
    policyCount: count("policyCount"),
    latestEvents: newestFirst(subagentEvents, LATEST_SUBAGENT_LIMIT),
  };
}

/**
 * Throws V8's own TypeError where the reference calls `events.filter` and there is none (a
 * number, a plain object, a string).
 */
function requireFilter(events: AgentUiProjectionEvent[]): void {
  if (typeof events.filter !== "function") throw new TypeError("events.filter is not a function");
}

/** `fn(event)` for each present item of `events`, in order (array holes are skipped). */
function forEachPresent(events: AgentUiProjectionEvent[], fn: (event: AgentUiProjectionEvent) => void): void {
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index];
    // `in` only for what reads as undefined: a hole, or a slot holding undefined.
    if (event === undefined && !(index in events)) continue;
    fn(event);
  }
}

/**
 * `{...base, total, latestEvents}`. Copying with `Object.assign` and adding the two keys gives the
 * same own keys in the same order, at a tenth of the cost of a spread with extra keys on this V8;
 * a base with an own `__proto__` key takes the spread (assignment would set the prototype).
 */
function extended<T extends object>(
  base: T,
  total: number,
  latestEvents: AgentUiProjectionEvent[],
): T & { total: number; latestEvents: AgentUiProjectionEvent[] } {
  if (Object.prototype.hasOwnProperty.call(base, "__proto__")) return { ...base, total, latestEvents };
  const out = Object.assign({}, base) as T & { total: number; latestEvents: AgentUiProjectionEvent[] };
  out.total = total;
  out.latestEvents = latestEvents;
  return out;
}

/**
 * Each lane of `AGENT_UI_SUBAGENTS_SURFACE_LANES` that has events on one of its surfaces: the
 * lane's own fields (its `surfaces` array shared, not copied), its number of events and its latest
 * 2, newest first. Array holes are skipped.
 */
export function summarizeAgentUiSubagentsSurfaceLanes(events: AgentUiProjectionEvent[]): AgentUiSubagentsSurfaceLaneSummary[] {
  const lanes = AGENT_UI_SUBAGENTS_SURFACE_LANES.map((lane) => ({
    lane,
    surfaces: new Set<unknown>(lane.surfaces),
    matches: [] as AgentUiProjectionEvent[],
  }));
  if (lanes.length > 0) {
    requireFilter(events);
    forEachPresent(events, (event) => {
      const surface = event.surface;
      if (!surface) return;
      for (let i = 0; i < lanes.length; i += 1) if (lanes[i].surfaces.has(surface)) lanes[i].matches.push(event);
    });
  }
  const out: AgentUiSubagentsSurfaceLaneSummary[] = [];
  for (const { lane, matches } of lanes) {
    if (matches.length === 0) continue;
    out.push(extended(lane, matches.length, newestFirst(matches, LATEST_PER_LANE_LIMIT)));
  }
  return out;
}

/**
 * Each surface of `AGENT_UI_SUBAGENTS_SURFACE_DEFINITIONS` that has events: the definition's own
 * fields, its number of events and its latest `options.latestLimit` (default 3, at least 1), newest
 * first. Array holes are skipped.
 */
export function summarizeAgentUiSubagentsSurfaces(
  events: AgentUiProjectionEvent[],
  options: { latestLimit?: number } = {},
): AgentUiSubagentsSurfaceSummary[] {
  const latestLimit = Math.max(1, options.latestLimit ?? DEFAULT_LATEST_PER_SURFACE);
  // How many items `slice(0, latestLimit)` keeps: a non-integer limit is truncated, NaN keeps none.
  const keep = Number.isNaN(latestLimit) ? 0 : Math.floor(latestLimit);
  const perSurface = new Map<unknown, AgentUiProjectionEvent[]>();
  for (const definition of AGENT_UI_SUBAGENTS_SURFACE_DEFINITIONS) perSurface.set(definition.surface, []);
  if (perSurface.size > 0) {
    requireFilter(events);
    forEachPresent(events, (event) => perSurface.get(event.surface)?.push(event));
  }
  const out: AgentUiSubagentsSurfaceSummary[] = [];
  for (const definition of AGENT_UI_SUBAGENTS_SURFACE_DEFINITIONS) {
    const matches = perSurface.get(definition.surface) ?? [];
    if (matches.length === 0) continue;
    out.push(extended(definition, matches.length, newestFirst(matches, keep)));
  }
  return out;
}

/**
 * The last event of `events` about an artifact: its `artifactId` is `artifactId` (trimmed), or its
 * `refs.artifactIds` include it. `null` for an empty id or when there is none.
 */
export function findLatestAgentUiProjectionEventForArtifact(
  events: AgentUiProjectionEvent[],
  artifactId?: string | null,
): AgentUiProjectionEvent | null {
  const wanted = definedString(artifactId);
  if (!wanted) return null;
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event.artifactId === wanted || event.refs?.artifactIds?.includes(wanted)) return event;
  }
  return null;
}

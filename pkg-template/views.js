// The projection package's views taken one at a time (@limecloud/agent-runtime-projection): the
// read-model helpers and accumulator, runtime status, subagents, state deltas, the tool and MCP
// surfaces, collaboration metadata and the coding workbench view.
//
// Lists and accumulators run in Rust. The per-event helpers (agentEventSurface,
// projectAgentRuntimeAction, parseAgentUiMcpToolName, ...) cost a fraction of a microsecond in
// the reference, less than one call into WebAssembly: they evaluate here the rule tables the
// Rust projection itself uses (src/projection/view_rules.rs), read from the module once.
import * as wasm from "./glue/agent_runtime_projection.js";
import {
  NO_EVENTS,
  asRecord,
  call,
  describe,
  jsonText,
  putText,
  requireEvent,
  requireEventList,
  tapeOf,
} from "./boundary.js";
import {
  NOT_PLAIN,
  WireRef,
  applyPatch,
  encodeWire,
  keepOwnObjects,
  setOwn,
  shareCodingViewItems,
  wireRef,
  wireText,
  wireValue,
} from "./wire.js";
import { checkGeneration, core } from "./core.js";
import { RULES } from "./rules.js";
import { runtimeView, supersessionFields } from "./glue/templates.js";
import { emptyMcpSurface, emptyToolSurface } from "./empty-surfaces.js";
import {
  FIRST_PREFIX_RULE,
  ReadModelLists,
  SURFACE_OF_RULE,
  applyFacts,
  eventError,
  isAgentInputSourceRecoveryEvent,
  numbering,
  pairCodes,
  pushFacts,
  surfaceRuleOf,
  takesFacts,
} from "./read-model.js";
import {
  actionKindOf,
  projectActions,
  projectAgentRuntimeAction,
  targetModuleOf,
} from "./actions.js";

export { isAgentInputSourceRecoveryEvent, projectAgentRuntimeAction };

/**
 * A wasm-bindgen object made by `make` on the installed instance: `{inner, check}`, where
 * `check()` throws the fault that ended its instance, if one did (see core.js).
 */
function owned(what, make) {
  const inner = call(what, make);
  const generation = core.generation;
  return { inner, check: () => checkGeneration(generation) };
}

// ---------------------------------------------------------------------------------------------
// The rule tables (projection::view_rules::rules_json, written into glue/view-rules.js at build
// time so that importing needs no call into the module), in the shapes the helpers look up.

const RM = RULES.readModel;
// Small tables are scanned (a few string comparisons beat a hash lookup here); values used on
// every call are module constants.
const STATUSES = RM.statusKeys.map(([status]) => status);
const STATUS_KEYS = RM.statusKeys.map(([, key]) => key);
const DEFAULT_STATUS_KEY = RM.defaultStatusKey;
const DISPLAY_CLASSES = RM.classDisplayKeys.map(([eventClass]) => eventClass);
const DISPLAY_KEYS = RM.classDisplayKeys.map(([, key]) => key);
const ACTION_REQUIRED_CLASS = RM.actionRequiredClass;
const ACTION_RESOLVED_KEY = RM.actionResolvedKey;
const ACTION_TERMINAL_CLASSES = RM.actionTerminalClasses;

function indexIn(list, value) {
  for (let i = 0; i < list.length; i++) if (list[i] === value) return i;
  return -1;
}

const RESOLVED_FROM_KEY = RM.resolvedFromKey;
const RUNTIME_STATUSES = RULES.runtimeStatuses;
const STATE_DELTA_CLASS = RULES.stateDeltaClass;
// The fields a later event's supersession of a delta of each area reads (state_delta::AREA_READS).
const AREA_READS = new Map(RULES.areaReads);
const STATE_DELTA_RECORD_KEY = RULES.stateDeltaRecordKey;
const [PATCH_KEY, PATCH_FALLBACK_KEY] = RULES.stateDeltaPatchKeys;
// [op, the member it needs ("" for none), whether that member must be a string (else: an own key)].
const STATE_DELTA_OPS = RULES.stateDeltaOps;
const SUBAGENT_THREAD_FIELDS = RULES.subagents.threadFields;
const SUBAGENT_THREAD_PAYLOAD_KEYS = RULES.subagents.threadPayloadKeys;

const TOOL_PROJECTION = RULES.toolProjection;
const CODING = RULES.coding;
// The classes of the events a coding view may read: coding classes and turn classes.
const CODING_VIEW_PREFIXES = [...CODING.classPrefixes, CODING.turnPrefix];
const [CODING_PROFILE_KEY, CODING_PROFILE] = CODING.profile;

const MCP = RULES.mcp;
const MCP_PREFIX = MCP.prefix;
const MCP_SEPARATOR = MCP.separator;
const MCP_DEFAULT_SERVER = MCP.defaultServer;
const MCP_DEFAULT_TOOL = MCP.defaultTool;
const MCP_DEFAULT_OPERATION = MCP.defaultOperation;
const MCP_BARE_NAMES = MCP.bareNames;
// The word lists become `_`-delimited alternations (the words are plain lower-case letters).
const MCP_OPERATIONS = MCP.operationRules.map((rule) => ({
  kind: rule.kind,
  equals: rule.compactEquals,
  contains: rule.compactContains,
  words: rule.words.length > 0 ? new RegExp(`(?:^|_)(?:${rule.words.join("|")})(?:_|$)`) : undefined,
}));

// ---------------------------------------------------------------------------------------------
// Read model: per-event helpers

export function agentEventStatusKey(status) {
  const i = indexIn(STATUSES, status);
  return i < 0 ? DEFAULT_STATUS_KEY : STATUS_KEYS[i];
}

export function agentEventStatusLabel(status) {
  return agentEventStatusKey(status);
}

export function agentEventDisplayStatusKey(event) {
  const i = indexIn(DISPLAY_CLASSES, event.eventClass);
  return i < 0 ? agentEventStatusKey(event.status) : DISPLAY_KEYS[i];
}

export function agentEventActionKind(event) {
  return actionKindOf(event);
}

export function agentEventTargetModule(event) {
  return targetModuleOf(event);
}

export function agentEventSurface(event) {
  const rule = surfaceRuleOf(event);
  const eventClass = event.eventClass;
  if (rule > FIRST_PREFIX_RULE && eventClass !== undefined && eventClass !== null && typeof eventClass !== "string") {
    // V8's own message for the reference's call.
    throw new TypeError("event.eventClass?.startsWith is not a function");
  }
  return SURFACE_OF_RULE[rule];
}

export function projectAgentRuntimeEvent(
  event,
  context = { resolvedActionIds: new Set(), resolvedEventIds: new Set() },
) {
  const required = event.eventClass === ACTION_REQUIRED_CLASS;
  const resolved =
    required &&
    ((event.actionId ? context.resolvedActionIds.has(event.actionId) : false) ||
      context.resolvedEventIds.has(event.id));
  const open = required && !resolved;
  return {
    id: event.id,
    source: event,
    surface: agentEventSurface(event),
    title: event.title,
    detail: event.detail,
    status: event.status,
    displayStatusKey: resolved ? ACTION_RESOLVED_KEY : agentEventDisplayStatusKey(event),
    action: open ? projectAgentRuntimeAction(event) : undefined,
    actions: open ? projectActions(event) : undefined,
    actionId: event.actionId,
    resolved,
    actionKind: actionKindOf(event),
    targetModule: targetModuleOf(event),
  };
}

// ---------------------------------------------------------------------------------------------
// Tool surface: MCP tool names

export function parseAgentUiMcpToolName(toolName) {
  const name = toolName.trim();
  if (!name.toLowerCase().startsWith(MCP_PREFIX)) return undefined;
  const parts = name.split(MCP_SEPARATOR);
  if (parts.length < 3) return undefined;
  return {
    serverId: parts[1] || MCP_DEFAULT_SERVER,
    toolName: parts.slice(2).join(MCP_SEPARATOR) || MCP_DEFAULT_TOOL,
  };
}

export function classifyAgentUiMcpOperationKind(toolName) {
  const parsed = parseAgentUiMcpToolName(toolName);
  const lower = (parsed ? parsed.toolName : toolName).trim().toLowerCase();
  const compact = lower.replace(/[^a-z0-9]+/g, "");
  if (!parsed && indexIn(MCP_BARE_NAMES, compact) < 0) return undefined;
  for (let i = 0; i < MCP_OPERATIONS.length; i++) {
    const rule = MCP_OPERATIONS[i];
    if (indexIn(rule.equals, compact) >= 0 || (rule.words !== undefined && rule.words.test(lower))) return rule.kind;
    for (let j = 0; j < rule.contains.length; j++) if (compact.includes(rule.contains[j])) return rule.kind;
  }
  return MCP_DEFAULT_OPERATION;
}

// ---------------------------------------------------------------------------------------------
// Accumulators: the Rust side applies each event and answers with what changed; the model is
// rebuilt from the previous one (unchanged subtrees stay the same objects).

/** JSON text of an accumulator's event. */
function eventText(event, what) {
  requireEvent(event, what);
  return jsonText(event, `${what}: event`);
}

export function createAgentRuntimeReadModelAccumulator(sourceCount = 0) {
  const what = "createAgentRuntimeReadModelAccumulator";
  const { inner, check } = owned(what, () => new wasm.WasmReadModel());
  let count = sourceCount;
  let number = numbering();
  let lists = new ReadModelLists(true);
  let model = lists.model(count);
  const facts = [];
  return {
    apply(event) {
      check();
      const where = `${what}.apply`;
      requireEvent(event, where);
      if (!takesFacts(event)) {
        const error = eventError(event, false, `${where}: event`);
        if (error !== undefined) throw new TypeError(`${where}: ${error}`);
      }
      facts.length = 0;
      pushFacts(facts, event, number, where);
      const out = applyFacts(inner, facts, where);
      lists.events.push(event);
      lists.take(out, number);
      model = lists.model(count);
      return model;
    },
    getReadModel() {
      check();
      return model;
    },
    getEventsBySurface(surface) {
      check();
      // Each projection holds its surface (a string of the rule tables).
      const list = [];
      for (const projection of lists.projections) if (projection.surface === surface) list.push(copyProjection(projection));
      return list;
    },
    reset(nextSourceCount = 0) {
      check();
      call(`${what}.reset`, () => inner.reset());
      count = nextSourceCount;
      number = numbering();
      lists = new ReadModelLists(true);
      model = lists.model(count);
      return model;
    },
  };
}

/** A copy of a projection, its action and actions copied too (what the reference hands out). */
function copyProjection(projection) {
  return {
    ...projection,
    action: projection.action ? { ...projection.action } : undefined,
    actions: projection.actions?.map((action) => ({ ...action })),
  };
}

/**
 * The kind of a value the status scan calls a string method on, as the module takes it: 0 for a
 * string or nothing (and what JSON drops: a function, a symbol), 1 a number, 2 a boolean, 3 an
 * object, 4 an array.
 */
function oddKind(value) {
  if (value === undefined || value === null) return 0;
  switch (typeof value) {
    case "number":
      return 1;
    case "boolean":
      return 2;
    case "object":
      return Array.isArray(value) ? 4 : 3;
    default:
      return 0;
  }
}

/** A string field, or undefined (what the Rust side takes for each of the fields it reads). */
function text(value) {
  return typeof value === "string" ? value : undefined;
}

/**
 * The runtime status accumulator's class code of an event's `eventClass` and `status` (each ""
 * when not a string): `runtime_status_class`, asked once per pair.
 */
const statusClassOf = pairCodes(wasm.runtime_status_class);

export function createRuntimeStatusAccumulator() {
  const what = "createRuntimeStatusAccumulator";
  const { inner, check } = owned(what, () => new wasm.WasmRuntimeStatusAccumulator());
  let view = runtimeView(RUNTIME_STATUSES[0], undefined);
  // The module takes each id as a number, event ids, action ids and resolved-from ids alike (the
  // reference keeps them in sets and compares them as they are: `undefined` and "" are two ids).
  let idOf = numbering();
  return {
    apply(event) {
      check();
      requireEvent(event, `${what}.apply`);
      // The reference lower-cases the status, then the class, of every event that does not
      // resolve an action (`actionTerminalClasses`): a value of another type throws there, with
      // V8's own message, and the event changes nothing.
      const eventClass = event.eventClass;
      const given = event.status;
      if (indexIn(ACTION_TERMINAL_CLASSES, eventClass) < 0) {
        if (given !== undefined && given !== null && typeof given !== "string") {
          throw new TypeError('(value ?? "").trim is not a function');
        }
        if (eventClass !== undefined && eventClass !== null && typeof eventClass !== "string") {
          throw new TypeError("eventClass?.trim is not a function");
        }
      }
      const payload = event.payload;
      const from =
        payload !== null && typeof payload === "object" && !Array.isArray(payload)
          ? payload[RESOLVED_FROM_KEY]
          : undefined;
      const code = statusClassOf(
        typeof eventClass === "string" ? eventClass : "",
        typeof given === "string" ? given : "",
        `${what}.apply`,
      );
      // Ids the module reads: the event's when its class may push a candidate, a truthy actionId
      // when the event resolves actions or may push one, a non-empty string resolved-from id.
      const terminal = (code & 1) !== 0;
      const candidate = !terminal && code >> 1 !== 0;
      const actionId = event.actionId;
      const id = candidate ? idOf(event.id) : 0;
      const action = actionId && (terminal || candidate) ? idOf(actionId) : 0;
      const resolvedFrom = terminal && typeof from === "string" && from !== "" ? idOf(from) : 0;
      const status = call(`${what}.apply`, () => inner.apply(code, id, action, resolvedFrom));
      view = runtimeView(RUNTIME_STATUSES[status], event);
      return view;
    },
    getStatus() {
      check();
      return view;
    },
    reset() {
      check();
      call(`${what}.reset`, () => inner.reset());
      idOf = numbering();
      view = runtimeView(RUNTIME_STATUSES[0], undefined);
      return view;
    },
  };
}

/** Whether an event names a subagent thread (the Rust accumulator ignores the others). */
function hasSubagentThread(event) {
  for (let i = 0; i < SUBAGENT_THREAD_FIELDS.length; i++) {
    const value = event[SUBAGENT_THREAD_FIELDS[i]];
    if (value !== undefined && value !== null) return typeof value === "string" && value !== "";
  }
  const payload = event.payload;
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return false;
  for (let i = 0; i < SUBAGENT_THREAD_PAYLOAD_KEYS.length; i++) {
    const value = payload[SUBAGENT_THREAD_PAYLOAD_KEYS[i]];
    if (typeof value === "string" && value.trim()) return true;
  }
  return false;
}

export function createAgentUiSubagentsModelAccumulator() {
  const what = "createAgentUiSubagentsModelAccumulator";
  const { inner, check } = owned(what, () => new wasm.WasmSubagentsAccumulator());
  let model = applyPatch(undefined, call(what, () => tapeOf(inner.take_patch(), NO_EVENTS)));
  return {
    apply(event) {
      check();
      requireEvent(event, `${what}.apply`);
      // An event of no subagent thread leaves the model as it is: no call into WebAssembly.
      if (!hasSubagentThread(event)) return model;
      const text = eventText(event, `${what}.apply`);
      model = applyPatch(model, call(`${what}.apply`, () => tapeOf(inner.apply(putText(text)), NO_EVENTS)));
      return model;
    },
    getModel() {
      check();
      return model;
    },
    reset() {
      check();
      model = applyPatch(undefined, call(`${what}.reset`, () => tapeOf(inner.reset(), NO_EVENTS)));
      return model;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Lists

// One scan object, made again on a new instance after a fault.
let statusScan;
let statusScanGeneration = -1;

/**
 * The status is decided by the stream's last events, read backwards: one at a time, each by the
 * few fields the Rust scan reads, until it has the answer (usually at the last event).
 */
export function runtimeStatusForEvents(events) {
  const what = "runtimeStatusForEvents";
  // Read as the reference reads it: `events.length` (a nullish list throws V8's own TypeError),
  // then the events by index from the last; a value without a length has none.
  const count = events.length;
  if (statusScanGeneration !== core.generation) {
    statusScan = call(what, () => new wasm.WasmRuntimeStatusScan());
    statusScanGeneration = core.generation;
  }
  const scan = statusScan;
  call(what, () => scan.reset());
  let status = -1;
  // The scan takes each truthy actionId as a number.
  const actionOf = numbering();
  // Only the events read are checked (the scan usually stops at the last one).
  for (let i = count - 1; i >= 0 && status < 0; i--) {
    const event = events[i];
    requireEvent(event, `${what}: events[${i}]`);
    const { id, eventClass, status: given, actionId } = event;
    const code = statusClassOf(
      typeof eventClass === "string" ? eventClass : "",
      typeof given === "string" ? given : "",
      what,
    );
    const statusKind = oddKind(given);
    const classKind = oddKind(eventClass);
    // The id only names the event in the scan's error, when it throws.
    const named = statusKind !== 0 || classKind !== 0 ? text(id) : undefined;
    status = call(what, () => scan.step(code, actionId ? actionOf(actionId) : 0, i, statusKind, classKind, named));
  }
  return runtimeView(RUNTIME_STATUSES[status < 0 ? 0 : status], count ? events[count - 1] : undefined);
}

/** Whether a read-model projection is on the tool surface (TOOL_PROJECTION). */
function isToolProjection(projection) {
  // Read in the reference's order (a malformed projection fails with its TypeError).
  if (indexIn(TOOL_PROJECTION.surfaces, projection.surface) >= 0) return true;
  const source = projection.source;
  if (indexIn(TOOL_PROJECTION.kinds, source.kind) >= 0) return true;
  const eventClass = source.eventClass;
  if (typeof eventClass === "string") {
    for (const prefix of TOOL_PROJECTION.classPrefixes) if (eventClass.startsWith(prefix)) return true;
  }
  return indexIn(TOOL_PROJECTION.phases, source.phase) >= 0;
}

const TOOL_PROJECTION_FIELDS = TOOL_PROJECTION.fields;
// The first of them names the projection's event (`source`).
const TOOL_SOURCE_FIELD = TOOL_PROJECTION_FIELDS[0];

/** The members of a tool projection the tool surface reads (`TOOL_PROJECTION_FIELDS`). */
function toolFacts(projection) {
  const facts = {};
  for (const key of TOOL_PROJECTION_FIELDS) facts[key] = projection[key];
  return facts;
}

export function projectAgentUiToolSurface(projections) {
  const what = "projectAgentUiToolSurface";
  // As the reference reads it: no length (a number, a record) is no projections; a nullish list
  // throws V8's own TypeError reading its length.
  if (!projections.length) return emptyToolSurface(what);
  if (!Array.isArray(projections)) {
    throw new TypeError(`${what}: projections must be an array, got ${describe(projections)}.`);
  }
  // Only the tool projections cross, each with only the members the surface reads; the others
  // keep their place (a call's fallback id is its projection's index).
  const tools = projections.map((projection) => (isToolProjection(projection) ? toolFacts(projection) : null));
  const text = jsonText(tools, `${what}: projections`);
  // A call's views of its events are made from the projections' own events (`"\u0000t"`
  // templates naming the projection's index).
  const sources = tools.map((facts) => (facts === null ? undefined : facts[TOOL_SOURCE_FIELD]));
  return call(what, () => tapeOf(wasm.tool_surface(putText(text)), sources));
}

export function projectAgentUiMcpSurface(toolSurface) {
  const what = "projectAgentUiMcpSurface";
  // Only the calls' MCP views cross (the reference's own read, with its TypeErrors); the
  // surface's `tools` are these very objects.
  const views = toolSurface.calls.map((call) => call.mcp);
  if (!views.some(Boolean)) return emptyMcpSurface(what);
  const text = jsonText(views, `${what}: toolSurface.calls[*].mcp`);
  return call(what, () => tapeOf(wasm.mcp_surface(putText(text)), views));
}

export function buildAgentUiCollaborationPayloadMetadata(input) {
  const what = "buildAgentUiCollaborationPayloadMetadata";
  // Read as the reference reads it: a nullish input throws V8's own TypeError reading its
  // payload; of any other value its members are read.
  void input.payload;
  const text = jsonText(asRecord(input), `${what}: input`);
  return call(what, () => tapeOf(wasm.collaboration_metadata(putText(text)), NO_EVENTS));
}

// ---------------------------------------------------------------------------------------------
// State deltas

const isRecord = (x) => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Whether `op` is an operation of the delta rules (`stateDeltaOps`). Its members are read as the
 * reference reads them (`op.op` once more per rule tried, in the table's order), so a getter
 * sees the same reads.
 */
function isDeltaOperation(op) {
  if (!isRecord(op)) return false;
  if (typeof op.op !== "string" || typeof op.path !== "string") return false;
  for (const [name, member, string] of STATE_DELTA_OPS) {
    if (op.op !== name) continue;
    if (member === "") return true;
    return string ? typeof op[member] === "string" : Object.prototype.hasOwnProperty.call(op, member);
  }
  return false;
}

/**
 * The delta a `state.delta` event carries, read from the caller's own objects (its `patch` is the
 * event's array) where the rules say (`stateDeltaRecordKey`, `stateDeltaPatchKeys`,
 * `stateDeltaOps`: the tables the core's delta pass reads), each member read as often and in the
 * order the reference reads it.
 */
export function readAgentRuntimeStateDelta(event) {
  // Read as the reference reads it: only a nullish event throws (reading its class).
  if (event.eventClass !== STATE_DELTA_CLASS) return undefined;
  const payload = event.payload;
  if (!isRecord(payload)) return undefined;
  const delta = isRecord(payload[STATE_DELTA_RECORD_KEY]) ? payload[STATE_DELTA_RECORD_KEY] : payload;
  const target = delta.target;
  const ops = delta[PATCH_KEY] ?? delta[PATCH_FALLBACK_KEY];
  const patch = Array.isArray(ops) && ops.every(isDeltaOperation) ? ops : undefined;
  if (typeof target !== "string" || !target.trim() || patch === undefined) return undefined;
  return {
    schemaVersion: typeof delta.schemaVersion === "string" ? delta.schemaVersion : "lime-runtime-state-delta/v0.1",
    runtimeId: typeof delta.runtimeId === "string" ? delta.runtimeId : event.runtimeId ?? "runtime",
    threadId: typeof delta.threadId === "string" ? delta.threadId : event.threadId,
    turnId: typeof delta.turnId === "string" ? delta.turnId : event.turnId,
    sequence:
      typeof delta.sequence === "number" && Number.isFinite(delta.sequence) ? delta.sequence : event.sequence ?? 0,
    baseEventId:
      typeof delta.baseEventId === "string"
        ? delta.baseEventId
        : typeof delta.baseCursor === "string"
          ? delta.baseCursor
          : undefined,
    target,
    patch,
    createdAt: typeof delta.createdAt === "string" ? delta.createdAt : event.createdAt,
  };
}

/**
 * Run a prepared delta pass over `state`. Only what the pass reads or writes crosses into
 * WebAssembly; the other objects go as references and come back as the same objects, as does
 * every subtree the deltas leave unchanged.
 */
function runDeltaPass(pass, state, what) {
  if (state === null || typeof state !== "object" || Array.isArray(state)) {
    throw new TypeError(`${what}: state must be an object, got ${describe(state)}.`);
  }
  // `diagnostics` crosses only when a delta fails (the pass asks for it then).
  let out = deltaPassOver(pass, state, what, false);
  if (out.retry === true) out = deltaPassOver(pass, state, what, true);
  // The second run has them: asking again would be a fault of the package, said as such.
  if (out.retry === true) throw new Error(`${what}: internal error: the delta pass asked twice for the state's diagnostics`);
  return out;
}

/** One run of `pass` over what of `state` it needs; `{state, applied, error}` or `{retry}`. */
function deltaPassOver(pass, state, what, withDiagnostics) {
  const need = needOfText(call(what, () => pass.needed(withDiagnostics)));
  const kept = [];
  const held = [];
  // The part and what its held placeholders hold, kept values written by `ref` (their place in
  // `kept`), the others by `leaf`.
  const part = (ref, leaf) => {
    kept.length = 0;
    held.length = 0;
    const keep = (value) => (keptAsRef(value) ? ref(kept.push(value) - 1) : leaf(value));
    const hold = (value, members) => {
      const i = kept.push(value) - 1;
      held.push(i, heldMembers(value, members, leaf));
      return ref(i);
    };
    return neededPart(state, need, keep, leaf, hold);
  };
  let text;
  try {
    // Made in wire form as it is read (`wireValue` throws NOT_PLAIN where a value needs
    // `encodeWire`'s replacer).
    text = `${wireText(part(wireRef, wireValue))}\n${wireText(held)}`;
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
    text = `${encodeWire(part((i) => new WireRef(i), (value) => value))}\n${encodeWire(held)}`;
  }
  const out = call(what, () => tapeOf(pass.run(putText(text)), kept));
  if (out.retry === true) return out;
  const fresh = [];
  const next = applyPatch(state, out.patch, fresh);
  keepOwnObjects(next, state, out.patch.ops, fresh);
  return { state: next, applied: out.applied, error: out.error };
}

/** The members `members` names of `value` that are its own enumerable ones, each read once. */
function heldMembers(value, members, leaf) {
  const out = {};
  for (const key of members.keys()) {
    if (Object.prototype.propertyIsEnumerable.call(value, key)) setOwn(out, key, leaf(value[key]));
  }
  return out;
}

// A string the pass does not read crosses as a reference from this length on (a reference
// is a few characters).
const REF_STRING_LENGTH = 24;

/** Whether a value the pass does not read crosses as a reference (else as itself). */
const keptAsRef = (value) =>
  typeof value === "string" ? value.length >= REF_STRING_LENGTH : value !== null && typeof value === "object";

/**
 * `needOf` the paths a pass gives as JSON text. The tree is a function of the text alone and is
 * only read, so the trees of the last texts seen are kept: a state's ref views give every pass
 * the same paths, and deltas that write the same places the same text. Only short texts are
 * kept (the cache holds at most `NEEDS_KEPT` of `NEED_TEXT_KEPT` units).
 */
function needOfText(text) {
  let need = needsByText.get(text);
  if (need === undefined) {
    need = needOf(JSON.parse(text));
    if (text.length > NEED_TEXT_KEPT) return need;
    if (needsByText.size >= NEEDS_KEPT) needsByText.clear();
    needsByText.set(text, need);
  }
  return need;
}

const needsByText = new Map();
const NEEDS_KEPT = 64;
const NEED_TEXT_KEPT = 4096;

/**
 * The tree of what a delta pass needs, from its paths (`[flag, token, ...]`,
 * state_delta::WholeStatePass::needed_json): per node, `whole`, the needs of named `members`
 * (each including what `any` member needs) and of `any` other member (`*`), and `held`: the
 * node's members are only values the re-sync reads (flag 2), so an object there may cross as a
 * placeholder with those members beside it (state_delta::Held); the end of a path that reads
 * nothing there is no node (the value stands for itself).
 */
function needOf(paths) {
  const node = () => ({ whole: false, members: new Map(), any: undefined, held: false, mixed: false });
  const root = node();
  for (const path of paths) {
    let at = root;
    let parent;
    let i = 1;
    for (; i < path.length && !at.whole; i++) {
      // A node a path goes through to a member other than its last is no held one.
      if (parent !== undefined) parent.mixed = true;
      parent = at;
      const token = path[i];
      if (token === "*") {
        at = at.any ??= node();
      } else {
        let next = at.members.get(token);
        if (next === undefined) at.members.set(token, (next = node()));
        at = next;
      }
    }
    if (path[0] === 2 && i === path.length && parent !== undefined) parent.held = true;
    else if (parent !== undefined) parent.mixed = true;
    // A path that ends at a node needs it as such.
    at.mixed = true;
    if (path[0] !== 0) at.whole = true;
  }
  return settled(root);
}

/**
 * `need` with `any` added to each named member, and the ends of paths that read nothing there
 * dropped (undefined: `need` is one; its container is still needed, as a node of no members).
 */
function settled(need) {
  if (need.whole) return need;
  if (need.members.size === 0 && need.any === undefined) return undefined;
  const any = need.any === undefined ? undefined : settled(need.any);
  const members = new Map();
  for (const [key, member] of need.members) {
    const some = settled(member);
    const both = some === undefined ? any : any === undefined ? some : bothNeeds(some, any);
    if (both !== undefined) members.set(key, both);
  }
  return { whole: false, members, any, held: need.held && !need.mixed && need.any === undefined };
}

/** What two settled needs ask for together. */
function bothNeeds(a, b) {
  if (a.whole) return a;
  if (b.whole) return b;
  const members = new Map(a.members);
  for (const [key, need] of b.members) members.set(key, members.has(key) ? bothNeeds(members.get(key), need) : need);
  const any = a.any === undefined ? b.any : b.any === undefined ? a.any : bothNeeds(a.any, b.any);
  return { whole: false, members, any, held: a.held && b.held };
}

/**
 * What a delta pass needs of `value` (`needOf`; undefined: nothing), the rest kept by `keep` (a
 * placeholder for an object or a long string, another value as it is), a value needed whole or a
 * primitive one given by `whole`, an object whose needed members the re-sync alone reads by
 * `hold` (a placeholder, its members beside the part). `need` is as deep as the deltas' paths (at
 * most state_delta::NEED_DEPTH).
 */
function neededPart(value, need, keep, whole, hold) {
  if (need === undefined) return keep(value);
  if (need.whole || value === null || typeof value !== "object") return whole(value);
  const { members, any } = need;
  if (Array.isArray(value)) {
    const part = new Array(value.length);
    const named = members.size > 0;
    for (let i = 0; i < value.length; i++) {
      part[i] = neededPart(value[i], named ? members.get(String(i)) ?? any : any, keep, whole, hold);
    }
    return part;
  }
  if (need.held) return hold(value, members);
  const part = {};
  for (const key of Object.keys(value)) setOwn(part, key, neededPart(value[key], members.get(key) ?? any, keep, whole, hold));
  return part;
}

export function applyAgentRuntimeStateDeltaToProjectionState(state, event) {
  const what = "applyAgentRuntimeStateDeltaToProjectionState";
  requireEvent(event, what);
  if (event.eventClass !== STATE_DELTA_CLASS) return { state, applied: false };
  const text = eventText(event, what);
  const pass = call(what, () => new wasm.WasmStateDeltaPass(putText(text), true, 0));
  const generation = core.generation;
  try {
    if (call(what, () => pass.is_empty())) return { state, applied: false };
    const out = runDeltaPass(pass, state, what);
    return out.error === null
      ? { state: out.state, applied: true }
      : { state: out.state, applied: false, error: out.error };
  } finally {
    freePass(pass, generation);
  }
}

export function applyAgentRuntimeStateDeltasToProjectionState(state, events) {
  const what = "applyAgentRuntimeStateDeltasToProjectionState";
  requireEventList(events, what);
  // The events before the first delta are never read: nothing applies before it, and only later
  // events supersede a delta. Every event's class is read (as the reference reads it for each).
  let first = 0;
  while (first < events.length && events[first].eventClass !== STATE_DELTA_CLASS) first++;
  if (first === events.length) return state;
  let last = first;
  for (let i = first + 1; i < events.length; i++) if (events[i].eventClass === STATE_DELTA_CLASS) last = i;
  // The list crosses from the first delta to the last; after it, the later events only
  // supersede deltas: they cross a part at a time (each twice the one before) while one can,
  // each as the fields the areas of the deltas not superseded yet read (`laterFields`; most
  // deltas are superseded by one of the next few events). Errors name events by their index in
  // `events`.
  const head = listText(events, first, last + 1, deltaOrFields, what);
  const pass = call(what, () => new wasm.WasmStateDeltaPass(putText(head), false, first));
  const generation = core.generation;
  try {
    let at = last + 1;
    let fields = at < events.length ? laterFields(call(what, () => pass.later_areas())) : undefined;
    for (let size = LATER_EVENTS_FIRST; fields !== undefined && at < events.length; size *= 2) {
      const from = at;
      at = Math.min(events.length, from + size);
      const text = listText(events, from, at, (event) => fieldsOf(event, fields), what);
      fields = laterFields(call(what, () => pass.more(putText(text), from)));
    }
    return call(what, () => pass.is_empty()) ? state : runDeltaPass(pass, state, what).state;
  } finally {
    freePass(pass, generation);
  }
}

// How many of the events after a list's last delta cross in the first part.
const LATER_EVENTS_FIRST = 32;

/** JSON text of `events[from..to)` as a delta pass reads them: each as `read` gives it. */
function listText(events, from, to, read, what) {
  // Built by `push`: JSON.stringify writes an array made with its length (holes until filled)
  // more slowly.
  const sent = [];
  for (let i = from; i < to; i++) sent.push(read(events[i]));
  return jsonText(sent, `${what}: events`);
}

/** A delta whole, another event as the fields that decide whether it supersedes one. */
const deltaOrFields = (event) => (event.eventClass === STATE_DELTA_CLASS ? event : supersessionFields(event));

/**
 * The fields a later event's supersession of the deltas of `areasText` (a JSON array of area
 * names, WasmStateDeltaPass::later_areas) reads (view rules' `areaReads`); undefined when no
 * event can touch any of them.
 */
function laterFields(areasText) {
  let fields;
  for (const area of JSON.parse(areasText)) {
    const reads = AREA_READS.get(area);
    if (reads === undefined) continue;
    fields ??= new Set();
    for (const field of reads) fields.add(field);
  }
  return fields === undefined ? undefined : [...fields];
}

/** Those of `fields` that `event` (after a list's last delta: no delta) has, each read once. */
function fieldsOf(event, fields) {
  const read = {};
  for (let j = 0; j < fields.length; j++) {
    const value = event[fields[j]];
    if (value !== undefined) read[fields[j]] = value;
  }
  return read;
}

/** Free a delta pass now, unless a fault during the call dropped the instance it was made on. */
function freePass(pass, generation) {
  if (generation === core.generation) pass.free();
}

// ---------------------------------------------------------------------------------------------
// Coding workbench

// The state keys the coding view reads besides `readModel.events[*].source`, which cross as a
// list of their own (projection::coding::project_coding_workbench_view_of); the others cross as
// references and come back as the same objects (`artifacts`, `evidence`). The view's `runtime`
// and (unless a request is merged in) `actions` come back as the state's own objects too
// (coding::StateRefs).
const CODING_STATE_KEYS = ["runtime", "hydration", "actions", "diagnostics"];

/** The event itself if a coding view may read it, else null. */
function codingViewSource(event) {
  if (event === null || typeof event !== "object") return null;
  const eventClass = event.eventClass;
  if (typeof eventClass === "string") {
    for (let i = 0; i < CODING_VIEW_PREFIXES.length; i++) if (eventClass.startsWith(CODING_VIEW_PREFIXES[i])) return event;
    if (indexIn(CODING.classes, eventClass) >= 0) return event;
  }
  const payload = event.payload;
  const profile = payload !== null && typeof payload === "object" ? payload[CODING_PROFILE_KEY] : undefined;
  return profile === CODING_PROFILE ? event : null;
}

export function projectCodingWorkbenchView(state, codingReadModel) {
  const what = "projectCodingWorkbenchView";
  // The reference's own reads (and TypeErrors) of a malformed state.
  const sources = state.readModel.events.map((projection) => projection.source);
  // Each event object crosses once, in `sources`, and by reference wherever the state holds it.
  const index = new Map();
  sources.forEach((source, i) => {
    if (source !== null && typeof source === "object" && !index.has(source)) index.set(source, i);
  });
  const kept = sources.slice();
  const doc = {};
  for (const key of Object.keys(state)) {
    setOwn(doc, key, CODING_STATE_KEYS.includes(key) ? state[key] : new WireRef(kept.push(state[key]) - 1));
  }
  const stateText = encodeWire(doc, index);
  // Events the view cannot read (neither coding nor turn events) cross as null.
  const sourcesText = jsonText(sources.map(codingViewSource), `${what}: state.readModel.events[*].source`);
  const readModelText =
    codingReadModel === undefined ? "null" : jsonText(codingReadModel, `${what}: codingReadModel`);
  // The state's own objects the view hands back, as the reference's does (coding::StateRefs).
  const refs = `[${kept.push(state.runtime) - 1},${kept.push(state.actions) - 1}]`;
  // Three texts, a line feed (which JSON text never holds) between two: the module reads each
  // as it should be read, the sources one at a time (views::coding_view).
  const text = `${stateText}\n[${readModelText},${refs}]\n${sourcesText}`;
  const view = call(what, () => tapeOf(wasm.coding_view(putText(text)), kept));
  return shareCodingViewItems(view, state);
}

export function projectCodingWorkbenchViewFromEvents(input) {
  const what = "projectCodingWorkbenchViewFromEvents";
  // As the reference reads it: execution events when `input?.executionEvents?.length` is truthy
  // (then they must be an array), else the thread items; the module gets the events it is to
  // read (none in the second case, whatever the member holds).
  const given = input === undefined || input === null ? undefined : input.executionEvents;
  const events = given?.length ? requireEventList(given, what) : [];
  const text = jsonText({ ...asRecord(input), executionEvents: events }, `${what}: input`);
  return call(what, () => tapeOf(wasm.coding_view_from_events(putText(text)), events));
}

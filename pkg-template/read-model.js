// The read model taken on its own (createAgentRuntimeReadModelAccumulator,
// projectAgentRuntimeReadModel). The accumulator is the Rust one the projector runs
// (projection::read_model, bound as WasmReadModel); it takes what it reads of each event as
// numbers, which this file reads from the caller's own events, and it answers with numbers
// from which this file builds the model: each projection made from its event by the template
// the projector's wire names (glue/templates.js). No JSON crosses for an event of the usual
// shape. An event the module may refuse (a value of a type the reference throws on, or any
// event with `strict`) goes to it as JSON first, and it says why it refuses it.
import * as wasm from "./glue/agent_runtime_projection.js";
import { makers } from "./glue/templates.js";
import { RULES } from "./rules.js";
import { RECOVERY_RULES, actionKindOf, actionRuleFor, targetModuleOf } from "./actions.js";
import { anyJsonText, call, callSized, putText } from "./boundary.js";
import { core } from "./core.js";

const RM = RULES.readModel;

// ---------------------------------------------------------------------------------------------
// Surfaces: the first matching rule decides, so each condition maps to the position of the
// first rule holding it and the lowest position found wins.

function firstRuleOf(field) {
  const positions = new Map();
  RM.surfaceRules.forEach((rule, i) => {
    for (const value of rule[field]) if (!positions.has(value)) positions.set(value, i);
  });
  return positions;
}
const SURFACE_BY_CLASS = firstRuleOf("classes");
const SURFACE_BY_KIND = firstRuleOf("kinds");
const SURFACE_BY_PHASE = firstRuleOf("phases");
const SURFACE_PREFIXES = RM.surfaceRules.flatMap((rule, i) => rule.classPrefixes.map((p) => [p, i]));

/** The surface of each rule, then the default surface (the position of no rule). */
export const SURFACE_OF_RULE = [...RM.surfaceRules.map((rule) => rule.surface), RM.defaultSurface];
const NO_RULE = RM.surfaceRules.length;
/**
 * The first rule with class prefixes: the reference tests them with `eventClass?.startsWith`,
 * which throws on a class that is neither a string nor nullish, once the rules before (and this
 * rule's kinds) have not decided.
 */
export const FIRST_PREFIX_RULE = RM.surfaceRules.findIndex((rule) => rule.classPrefixes.length > 0);

/** The position of the surface rule deciding `agentEventSurface(event)` (`NO_RULE`: the default). */
export function surfaceRuleOf(event) {
  const eventClass = event.eventClass;
  let best = NO_RULE;
  let at = SURFACE_BY_CLASS.get(eventClass);
  if (at !== undefined && at < best) best = at;
  at = SURFACE_BY_KIND.get(event.kind);
  if (at !== undefined && at < best) best = at;
  if (typeof eventClass === "string") {
    for (let i = 0; i < SURFACE_PREFIXES.length; i++) {
      const [prefix, position] = SURFACE_PREFIXES[i];
      if (position < best && eventClass.startsWith(prefix)) best = position;
    }
  }
  at = SURFACE_BY_PHASE.get(event.phase);
  if (at !== undefined && at < best) best = at;
  return best;
}

const ACTION_CLASSES = [RM.actionRequiredClass, ...RM.actionTerminalClasses];

export function isAgentInputSourceRecoveryEvent(event) {
  return (
    ACTION_CLASSES.includes(event.eventClass) &&
    actionRuleFor(actionKindOf(event), targetModuleOf(event), RECOVERY_RULES) !== undefined
  );
}

/**
 * Numbers for values, 1, 2, ...: equal values get equal numbers (a `Map`'s equality, which is
 * that of the reference's sets); `values[n]` is the value numbered `n`.
 */
export function numbering() {
  const numbers = new Map();
  const values = [undefined];
  const number = (value) => {
    let n = numbers.get(value);
    if (n === undefined) {
      n = values.length;
      numbers.set(value, n);
      values.push(value);
    }
    return n;
  };
  number.values = values;
  return number;
}

// ---------------------------------------------------------------------------------------------
// Class codes

/**
 * `(eventClass, status, what) => code` for a module function `compute(eventClass, status)` that
 * is a pure function of the two strings: asked once per pair and kept (eventClass -> status ->
 * code). A stream of ever new pairs starts the table afresh; pairs with a long string are not
 * kept (the table never holds much text).
 */
export function pairCodes(compute) {
  const codes = new Map();
  let pairs = 0;
  return (eventClass, status, what) => {
    let byStatus = codes.get(eventClass);
    let code = byStatus === undefined ? undefined : byStatus.get(status);
    if (code === undefined) {
      code = call(what, () => compute(eventClass, status));
      if (eventClass.length > PAIR_KEY_UNITS || status.length > PAIR_KEY_UNITS) return code;
      if (++pairs > PAIRS) {
        codes.clear();
        pairs = 1;
        byStatus = undefined;
      }
      if (byStatus === undefined) codes.set(eventClass, (byStatus = new Map()));
      byStatus.set(status, code);
    }
    return code;
  };
}
const PAIRS = 1024;
const PAIR_KEY_UNITS = 64;

// The flags of a class code the facts depend on (`ClassFacts::code` in
// src/projection/read_model.rs: the display key's code in the low byte, then one bit per flag).
const REQUIRED = 1 << 8;
const TERMINAL = 1 << 9;
const COUNTED = 1 << 11;

/** The read model's code of an event's class and status (`read_model_class`). */
const classCodeOf = pairCodes(wasm.read_model_class);

// ---------------------------------------------------------------------------------------------
// Facts

const isNullish = (value) => value === undefined || value === null;

/**
 * Whether the accumulator can take `event` as facts: an object whose `eventClass` is a string or
 * nothing and whose ref lists are arrays or nothing (the reference calls a string method on the
 * one and `forEach` on the others).
 */
export function takesFacts(event) {
  if (event === null || typeof event !== "object" || Array.isArray(event)) return false;
  const eventClass = event.eventClass;
  if (!isNullish(eventClass) && typeof eventClass !== "string") return false;
  const artifactRefs = event.artifactRefs;
  if (!isNullish(artifactRefs) && !Array.isArray(artifactRefs)) return false;
  const evidenceRefs = event.evidenceRefs;
  return isNullish(evidenceRefs) || Array.isArray(evidenceRefs);
}

/** A ref list as its length and numbers; the holes of a sparse list are skipped (`forEach`). */
function pushRefs(out, refs, number) {
  const at = out.length;
  out.push(0);
  if (isNullish(refs)) return;
  for (let i = 0; i < refs.length; i++) if (i in refs) out.push(number(refs[i]));
  out[at] = out.length - at - 1;
}

/** Push the facts of `event` (one `takesFacts` accepts) as `WasmReadModel.apply` reads them. */
export function pushFacts(out, event, number, what) {
  const eventClass = event.eventClass;
  const status = event.status;
  const code = classCodeOf(
    typeof eventClass === "string" ? eventClass : "",
    typeof status === "string" ? status : "",
    what,
  );
  const action = (code & (REQUIRED | TERMINAL)) !== 0;
  const payload = event.payload;
  let flags = 0;
  if (action && actionRuleFor(actionKindOf(event), targetModuleOf(event), RECOVERY_RULES) !== undefined) flags |= 1;
  if ((code & COUNTED) !== 0 && Number(payload?.skillCount ?? 0) > 0) flags |= 2;
  const actionId = event.actionId;
  let resolvedFrom = 0;
  if ((code & TERMINAL) !== 0) {
    const from = payload?.[RM.resolvedFromKey];
    if (typeof from === "string" && from !== "") resolvedFrom = number(from);
  }
  const taskId = event.taskId;
  out.push(
    code,
    surfaceRuleOf(event),
    flags,
    number(event.id),
    action && actionId ? number(actionId) : 0,
    resolvedFrom,
    taskId ? number(taskId) : 0,
  );
  pushRefs(out, event.artifactRefs, number);
  pushRefs(out, event.evidenceRefs, number);
}

// ---------------------------------------------------------------------------------------------
// The model

/** A read model's lists and flags as the caller holds them, changed by `WasmReadModel` answers. */
export class ReadModelLists {
  /** `shared`: the lists are handed out (each change makes new ones). */
  constructor(shared) {
    this.shared = shared;
    this.events = [];
    this.projections = [];
    this.visibleEvents = [];
    this.pendingActions = [];
    this.inputSourceRecovery = false;
    this.artifactRefs = [];
    this.evidenceRefs = [];
    this.taskRefs = [];
  }

  /**
   * Take an answer of `WasmReadModel.apply` (`out`) for the events `this.events` holds; values
   * are numbered by `number`. Lists that change are new arrays; the others stay the same.
   */
  take(out, number) {
    let at = 0;
    this.inputSourceRecovery = out[at++] !== 0;
    const set = out[at++];
    if (set > 0) {
      // A batch's list is its own; an accumulator's model keeps the one it was given.
      const projections = this.shared ? this.projections.slice() : this.projections;
      for (let k = 0; k < set; k++, at += 5) {
        const i = out[at];
        projections[i] = makers[out[at + 1]](this.events[i], out[at + 2], out[at + 3], out[at + 4]);
      }
      this.projections = projections;
    }
    at = this.indices(out, at, "visibleEvents");
    at = this.indices(out, at, "pendingActions");
    at = this.refs(out, at, number, "artifactRefs");
    at = this.refs(out, at, number, "evidenceRefs");
    this.refs(out, at, number, "taskRefs");
  }

  /** A list of projections given by index in `out` at `at` (-1: unchanged); the next position. */
  indices(out, at, key) {
    const n = out[at++];
    if (n < 0) return at;
    const list = new Array(n);
    for (let k = 0; k < n; k++) list[k] = this.projections[out[at++]];
    this[key] = list;
    return at;
  }

  /** The values a ref list gained, by number in `out` at `at`; the next position. */
  refs(out, at, number, key) {
    const n = out[at++];
    if (n === 0) return at;
    const list = this[key].slice();
    for (let k = 0; k < n; k++) list.push(number.values[out[at++]]);
    this[key] = list;
    return at;
  }

  /** The read model, with `sourceCount`. */
  model(sourceCount) {
    return {
      events: this.projections,
      visibleEvents: this.visibleEvents,
      pendingActions: this.pendingActions,
      inputSourceRecovery: this.inputSourceRecovery,
      sourceCount,
      artifactRefs: this.artifactRefs,
      evidenceRefs: this.evidenceRefs,
      taskRefs: this.taskRefs,
    };
  }
}

/**
 * Why the read model refuses `event` (`what` names it), if it does: asked of the module with the
 * event as JSON (`read_model_event_error`), for an event `takesFacts` does not take as it is and,
 * with `strict`, for every event (the strict boundary's checks).
 */
export function eventError(event, strict, what) {
  const text = anyJsonText(event, what);
  return call(what, () => wasm.read_model_event_error(putText(text), strict));
}

/** `projectAgentRuntimeReadModel` of `events` (an array). */
export function readModelOf(events, sourceCount, strict, what) {
  const number = numbering();
  const facts = [];
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (strict || !takesFacts(event)) {
      const error = eventError(event, strict, `${what}: executionEvents[${i}]`);
      if (error !== undefined) throw new TypeError(`${what}: events[${i}]: ${error}`);
    }
    pushFacts(facts, event, number, what);
  }
  const lists = new ReadModelLists(false);
  lists.events = events;
  lists.projections = new Array(events.length);
  const take = (model) => lists.take(applyFacts(model, facts, what), number);
  if (facts.length > ISOLATE_FACTS) {
    // A long list runs on a fresh instance of the module, dropped afterwards (what it takes goes
    // back to the host); its accumulator is freed there, before the instance goes.
    return callSized(what, true, () => {
      const model = new wasm.WasmReadModel();
      try {
        take(model);
      } finally {
        model.free();
      }
      return lists.model(sourceCount);
    });
  }
  if (batchGeneration !== core.generation) {
    batchModel = call(what, () => new wasm.WasmReadModel());
    batchGeneration = core.generation;
  }
  const model = batchModel;
  try {
    take(model);
  } finally {
    // What the batch took goes back now.
    if (batchGeneration === core.generation) model.reset();
  }
  return lists.model(sourceCount);
}

/**
 * Lists of more facts than this (about 70,000 events) run on a fresh instance: the installed
 * one would keep the memory they grew it by (about 60 bytes of module memory per number).
 */
const ISOLATE_FACTS = 1 << 20;

/**
 * `model.apply` of `facts` through the module's word buffer: the answer is a view of module
 * memory, to be read before the next call into the module.
 */
export function applyFacts(model, facts, what) {
  return call(what, () => {
    const ptr = wasm.words_buffer(facts.length);
    new Int32Array(core.exports.memory.buffer, ptr, facts.length).set(facts);
    const out = model.apply(facts.length);
    return new Int32Array(core.exports.memory.buffer, out);
  });
}

// The accumulator the batches run on (emptied after each), made again on a new instance after a
// fault.
let batchModel;
let batchGeneration = -1;

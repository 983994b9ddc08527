// The projection package's core API (@limecloud/agent-runtime-projection): batch projections,
// fixture replay, the incremental projectors, and the event generator (its own module:
// generator.js).
import * as wasm from "./glue/agent_runtime_projection.js";
import {
  NO_EVENTS,
  call,
  callWithText,
  describe,
  eventListText,
  eventsText,
  jsonText,
  projectionInput,
  putText,
  redactOption,
  redactText,
  requireEventList,
  sourceCountText,
  strictOption,
  tapeOf,
} from "./boundary.js";
import {
  applyPatch,
  copyParsed,
  isObject,
  linkMcpViews,
  linkMcpViewsAfterPatch,
  parseWire,
  plainJson,
  sameJsonText,
  shareBatchViews,
} from "./wire.js";
import { checkGeneration, core as instance } from "./core.js";
import { generateEvents } from "./generator.js";
import { readModelOf } from "./read-model.js";
import { shareEmptySurfaces } from "./empty-surfaces.js";
import { RULES } from "./rules.js";

function currentGeneration() {
  return instance.generation;
}

export { PROJECTOR_OPTIONS } from "./boundary.js";

// ---------------------------------------------------------------------------------------------
// Batch projection

/**
 * Event lists of more UTF-16 units of JSON than this take their state's wire text from the module
 * in pieces as it is written (`project`'s sink): the module then never holds a long stream's
 * whole wire text (about 0.4x its input) next to the input and the state. Shorter lists' states
 * come as a tape (`project_tape`; wire.js, `readTape`), read in about half the time of the text.
 */
const WIRE_PIECES_UNITS = 512 * 1024;

/** The batch projection of the event list `text` (`events`, the caller's), decoded. */
function projectState(what, text, sourceCount, strict, events) {
  if (text.length <= WIRE_PIECES_UNITS) {
    return callWithText(what, text, (len) => tapeOf(wasm.project_tape(len, sourceCount, strict), events));
  }
  const pieces = [];
  const rest = callWithText(what, text, (len) => wasm.project(len, sourceCount, strict, (piece) => pieces.push(piece)));
  pieces.push(rest);
  return parseWire(pieces.join(""), events);
}

export function projectAgentUiState(input, options) {
  const what = "projectAgentUiState";
  const redact = redactOption(input, options, what);
  const strict = strictOption(input, options);
  const given = projectionInput(input, what);
  if (given.events.length === 0) return stateOfNoEvents(what, given.sourceCount, strict);
  const { events, text } = eventsText(given.events, redact, `${what}: executionEvents`);
  return batchState(what, text, given.sourceCount, strict, events);
}

/** The batch state of the events `events` (the caller's, of JSON text `text`), its views shared. */
function batchState(what, text, sourceCount, strict, events) {
  const state = projectState(what, text, sourceCount, strict, events);
  return shareEmptySurfaces(shareBatchViews(state, events), undefined, events, what);
}

/** The batch of no events: a copy of the module's state of none for its source count. */
function stateOfNoEvents(what, sourceCount, strict) {
  let made = stateOfNone(sourceCount);
  if (made === undefined) {
    made = projectState(what, "[]", sourceCount, strict, NO_EVENTS);
    keepStateOfNone(sourceCount, made);
  }
  return shareEmptySurfaces(shareBatchViews(copyParsed(made), NO_EVENTS), undefined, NO_EVENTS, what);
}

/** `project(events)` or `project({executionEvents, sourceCount})`: the batch projection. */
export function project(input, options) {
  if (Array.isArray(input)) return projectAgentUiState({ executionEvents: input }, options);
  // This one is the package's own: a value that is neither is a mistake, not an empty input.
  if (input !== undefined && input !== null && typeof input !== "object") {
    throw new TypeError(`project: input must be an array of events or an object {executionEvents, sourceCount}, got ${describe(input)}.`);
  }
  return projectAgentUiState(input, options);
}

/** A snapshot's events when it has no execution events, read as the reference reads them. */
function eventsOfReadModel(readModel) {
  // V8 names the expression in its TypeErrors: `readModel?.events.map is not a function`, and a
  // projection that is no object throws reading its `source`.
  return readModel?.events.map((projection) => projection.source) ?? [];
}

/** A transcript message's role as its part shows it: a role of only white space is the assistant's. */
function snapshotRole(role) {
  return role && role.trim() ? role : "assistant";
}

/**
 * One transcript message of a session snapshot as the final text part that stands for it (all
 * nine keys present). The message's own values, not copies: its id, its `content` (else its
 * `text`), its `createdAt` and `refs`.
 */
function snapshotMessagePart(message) {
  return {
    type: "text",
    partId: `message:${message.id}`,
    messageId: message.id,
    role: snapshotRole(message.role),
    text: message.content ?? message.text ?? "",
    state: "final",
    sourceEventId: `message:${message.id}`,
    createdAt: message.createdAt,
    refs: message.refs,
  };
}

export function projectAgentUiStateFromSessionSnapshot(input = {}) {
  const what = "projectAgentUiStateFromSessionSnapshot";
  // Each member read once, in the reference's order (`null` throws V8's own TypeError here);
  // the module gets the events the snapshot resolves to, not the read model's projections and
  // lists, which hold every event again.
  const events = input.executionEvents ?? eventsOfReadModel(input.readModel);
  const sourceCount = sourceCountText(input.sourceCount ?? input.readModel?.sourceCount);
  requireEventList(events, what);
  // The events' batch projection, as `projectAgentUiState` makes it.
  const state =
    events.length === 0
      ? stateOfNoEvents(what, sourceCount, false)
      : batchState(what, eventListText(events, `${what}: executionEvents`), sourceCount, false, events);
  // Then the transcript (a value without a `map` method throws V8's own TypeError naming it; a
  // hole stays a hole): its parts, when there are any, are the state's messages.
  const messages = input.messages?.map(snapshotMessagePart) ?? [];
  if (messages.length > 0 && isObject(state)) state.messages = messages;
  return state;
}

export function projectAgentRuntimeReadModel(input, options) {
  const what = "projectAgentRuntimeReadModel";
  const redact = redactOption(input, options, what);
  const strict = strictOption(input, options);
  const given = projectionInput(input, what, true);
  // With `redactSecrets`, the model is that of the redacted copies.
  const events = redact ? eventsText(given.events, true, `${what}: executionEvents`).events : given.events;
  return readModelOf(events, input?.sourceCount ?? 0, strict, what);
}

export function buildAgentUiSubagentsModel(events = []) {
  const what = "buildAgentUiSubagentsModel";
  requireEventList(events, what);
  const text = eventListText(events, `${what}: events`);
  return callWithText(what, text, (len) => tapeOf(wasm.build_subagents_model(len), events));
}

/** Whether `x` is a plain object JSON writes from its own keys. */
const plainRecord = (x) => isObject(x) && !Array.isArray(x) && plainJson(x);

// How many of a fixture's events of one id a read-model source is compared with (a source no
// event equals crosses whole).
const SHARING_CANDIDATES = 4;

/**
 * A fixture's read models hold its events again, as their projections' sources. `sent`: the
 * fixture as it crosses, each such source that JSON writes as the event it equals replaced by
 * `0` (the module validates that event in its place); `shared`: which, as quadruples (read
 * model, list, index, event) over `RULES.fixtureReplay` (contract::validation::SharedSource).
 * The caller's objects are not changed: the objects on the way to a replaced source are copies.
 */
function fixtureSharingSources(fixture, events) {
  const { readModels, projectionLists } = RULES.fixtureReplay;
  const quads = [];
  let sent = fixture;
  if (!plainRecord(fixture)) return { sent, shared: new Uint32Array(0) };
  let byIdentity;
  let byId;
  const eventOf = (source) => {
    if (byIdentity === undefined) {
      byIdentity = new Map();
      byId = new Map();
      for (let i = 0; i < events.length; i++) {
        const event = events[i];
        if (!isObject(event)) continue;
        if (!byIdentity.has(event)) byIdentity.set(event, i);
        const same = byId.get(event.id);
        if (same === undefined) byId.set(event.id, [i]);
        else if (same.length < SHARING_CANDIDATES) same.push(i);
      }
    }
    const own = byIdentity.get(source);
    if (own !== undefined) return own;
    const candidates = byId.get(source.id) ?? [];
    for (let k = 0; k < candidates.length; k++) if (sameJsonText(source, events[candidates[k]])) return candidates[k];
    return -1;
  };
  for (let m = 0; m < readModels.length; m++) {
    const model = Object.hasOwn(fixture, readModels[m]) ? fixture[readModels[m]] : undefined;
    if (!plainRecord(model)) continue;
    let modelSent = model;
    for (let l = 0; l < projectionLists.length; l++) {
      const list = Object.hasOwn(model, projectionLists[l]) ? model[projectionLists[l]] : undefined;
      if (!Array.isArray(list) || !plainJson(list)) continue;
      let listSent = list;
      for (let j = 0; j < list.length; j++) {
        const projection = list[j];
        if (!plainRecord(projection) || !Object.hasOwn(projection, "source")) continue;
        const source = projection.source;
        if (!plainRecord(source)) continue;
        const i = eventOf(source);
        if (i < 0) continue;
        quads.push(m, l, j, i);
        if (listSent === list) listSent = list.slice();
        listSent[j] = { ...projection, source: 0 };
      }
      if (listSent !== list) {
        if (modelSent === model) modelSent = { ...model };
        modelSent[projectionLists[l]] = listSent;
      }
    }
    if (modelSent !== model) {
      if (sent === fixture) sent = { ...fixture };
      sent[readModels[m]] = modelSent;
    }
  }
  return { sent, shared: Uint32Array.from(quads) };
}

export function replayAgentUiFixture(fixture) {
  const what = "replayAgentUiFixture";
  if (fixture === null || typeof fixture !== "object" || Array.isArray(fixture)) {
    throw new TypeError(`${what}: fixture must be an object, got ${describe(fixture)}.`);
  }
  const events = fixture.events;
  // The reference walks the events with for...of first: V8's own TypeError where they are not
  // iterable; past that, a list that is not an array fails on its array methods.
  if (events === undefined || events === null || typeof Object(events)[Symbol.iterator] !== "function") {
    throw new TypeError("events is not iterable");
  }
  requireEventList(events, what);
  const { sent, shared } = fixtureSharingSources(fixture, events);
  const text = jsonText(sent, `${what}: fixture`);
  const replay = callWithText(what, text, (len) => tapeOf(wasm.replay_fixture(len, shared), events));
  shareEmptySurfaces(shareBatchViews(replay.state, events), undefined, events, what);
  return replay;
}

/** A deterministic realistic event stream (`n` events, `seed`, generator options). */
export function generateRuntimeEvents(n, seed = 1, options = {}) {
  const what = "generateRuntimeEvents";
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`${what}: n must be a non-negative integer.`);
  if (!Number.isInteger(seed)) throw new TypeError(`${what}: seed must be an integer.`);
  const text = jsonText(options ?? {}, `${what}: options`);
  return generateEvents(what, n, seed >>> 0, text);
}

// ---------------------------------------------------------------------------------------------
// Incremental projection

/**
 * The state of no events by source count (its JSON text, or undefined), as the module made it:
 * the first batch of no events, or the first state of a projector made without events (the two
 * are the same). A batch of no events is a copy of it; so is the first state of a projector made
 * without events, which tells the module it has it, instead of having the module build and write
 * the same state again and reading that tape. Bounded; the state holds no event, so any batch
 * or projector can use it.
 */
const statesOfNone = new Map();
const STATES_OF_NONE_MAX = 16;

function stateOfNone(sourceCount) {
  return statesOfNone.get(String(sourceCount));
}

function keepStateOfNone(sourceCount, state) {
  if (statesOfNone.size >= STATES_OF_NONE_MAX) statesOfNone.clear();
  statesOfNone.set(String(sourceCount), state);
}

/**
 * The projector core shared by `createAgentUiProjector` and `createProjector`: it holds the
 * accepted event objects (event `i` of the Rust side is `events[i]`) and the last materialized
 * state, and materializes lazily from patches. With `redactSecrets` every event is redacted
 * before it is projected, and the redacted copy is the event object the state references. The
 * module checks each event and deduplicates ids; it tells which events it accepted.
 */
class ProjectorCore {
  constructor(input, what, options) {
    this.what = what;
    this.redact = redactOption(input, options, what);
    const strict = strictOption(input, options);
    const { events, sourceCount } = projectionInput(input, what, true);
    this.inner = call(what, () => new wasm.WasmProjector(sourceCount, strict));
    this.generation = currentGeneration();
    this.freed = false;
    this.events = [];
    this.state = undefined;
    this.listeners = new Set();
    // Whether the Rust side changed since the last materialization.
    this.dirty = true;
    // The source count whose state of no events the first patch is (`statesOfNone`), while it
    // is that.
    this.initialOf = undefined;
    if (events.length > 0) {
      this.hydrateWith(events, sourceCount, this.redact, what);
    } else {
      const initial = stateOfNone(sourceCount);
      if (initial === undefined) {
        this.initialOf = { sourceCount };
      } else {
        call(what, () => this.inner.assume_initial_sent());
        this.state = shareEmptySurfaces(copyParsed(initial), undefined, this.events, what);
        this.dirty = false;
      }
    }
  }

  /** Throws if the projector was freed, or was made on an instance that has faulted since. */
  check(what) {
    if (this.freed) throw new Error(`${what}: the projector was freed`);
    checkGeneration(this.generation);
  }

  /** The state changed: it will be materialized afresh, and every listener is told once. */
  changed() {
    this.dirty = true;
    this.initialOf = undefined;
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * The state. Throws a TypeError naming the event while the reference's projection of the events
   * so far throws (an event whose status decides the runtime status is not a string, ...); a
   * later event can make it readable again.
   */
  getState() {
    this.check(`${this.what}.getState`);
    if (this.dirty) {
      const patch = call(`${this.what}.getState`, () => tapeOf(this.inner.take_patch(), this.events));
      const prev = this.state;
      const next = applyPatch(prev, patch);
      if (this.initialOf !== undefined) {
        keepStateOfNone(this.initialOf.sourceCount, copyParsed(next));
        this.initialOf = undefined;
      }
      // The MCP views are shared as the reference shares them (wire.js).
      this.state = patch.full || prev === undefined ? linkMcpViews(next) : linkMcpViewsAfterPatch(next, prev, patch);
      shareEmptySurfaces(this.state, patch.full ? undefined : prev, this.events, `${this.what}.getState`);
      this.dirty = false;
    }
    return this.state;
  }

  apply(event) {
    const what = `${this.what}.apply`;
    this.check(what);
    let text = jsonText(event, `${what}: event`);
    const redacted = this.redact ? redactText(text) : undefined;
    if (redacted !== undefined) ({ value: event, text } = redacted);
    const accepted = call(what, () => this.inner.apply(putText(text), this.events.length));
    if (accepted) {
      this.events.push(event);
      this.changed();
    }
    return accepted;
  }

  /** Push the events `flags` accepts (1) and tell listeners; the number accepted. */
  keep(events, flags) {
    let accepted = 0;
    for (let i = 0; i < flags.length; i++) {
      if (flags[i] === 1) {
        this.events.push(events[i]);
        accepted++;
      }
    }
    return accepted;
  }

  applyMany(given) {
    const what = `${this.what}.applyMany`;
    this.check(what);
    requireEventList(given, what);
    const { events, text } = eventsText(given, this.redact, `${what}: events`);
    const flags = call(what, () => this.inner.apply_many(putText(text), this.events.length));
    const accepted = this.keep(events, flags);
    if (accepted > 0) this.changed();
    if (flags[flags.length - 1] === 2) {
      // The module stopped at an event the reference throws on; the ones before it stay applied.
      const reason = call(what, () => this.inner.take_error());
      throw new TypeError(`${what}: ${reason}`);
    }
    return accepted;
  }

  hydrate(input) {
    const what = `${this.what}.hydrate`;
    this.check(what);
    const { events, sourceCount } = projectionInput(input, what, true);
    this.hydrateWith(events, sourceCount, this.redact || redactOption(input, undefined, what), what);
  }

  /** Start again from `events` (an array) and `sourceCount`, as `hydrate` does. */
  hydrateWith(events, sourceCount, redact, what) {
    const { events: given, text } = eventsText(events, redact, `${what}: executionEvents`);
    const flags = call(what, () => this.inner.hydrate(putText(text), sourceCount));
    this.events = [];
    this.keep(given, flags);
    this.changed();
  }

  reset() {
    const what = `${this.what}.reset`;
    this.check(what);
    call(what, () => this.inner.reset());
    this.events = [];
    this.changed();
  }

  /** `listener()` after every change of the state; returns the function that unsubscribes it. */
  subscribe(listener) {
    if (typeof listener !== "function") {
      throw new TypeError(`${this.what}.subscribe: listener must be a function, got ${describe(listener)}.`);
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get eventCount() {
    return this.events.length;
  }

  /** Release the projector's WebAssembly memory now (idempotent); later calls throw. */
  free() {
    if (this.freed) return;
    this.freed = true;
    this.listeners.clear();
    this.state = undefined;
    this.events = [];
    // Made on an instance that faulted since: that instance is gone, nothing to release.
    if (this.generation === currentGeneration()) call(`${this.what}.free`, () => this.inner.free());
  }
}

const DISPOSE = typeof Symbol.dispose === "symbol" ? Symbol.dispose : Symbol.for("Symbol.dispose");

/**
 * The reference projector: `apply`, `hydrate`, `reset` return the new state; `applyMany` applies
 * a whole array crossing the boundary once. Unchanged subtrees are shared (`===`) between
 * successive states, and a returned state is never modified.
 */
export function createAgentUiProjector(initialInput, options) {
  const core = new ProjectorCore(initialInput, "createAgentUiProjector", options);
  core.getState();
  return {
    getState: () => core.getState(),
    hydrate(input) {
      core.hydrate(input);
      return core.getState();
    },
    apply(event) {
      core.apply(event);
      return core.getState();
    },
    applyMany(events) {
      core.applyMany(events);
      return core.getState();
    },
    reset() {
      core.reset();
      return core.getState();
    },
    subscribe: (listener) => core.subscribe(listener),
    free: () => core.free(),
    [DISPOSE]: () => core.free(),
  };
}

/**
 * The lean projector: `apply(event)` returns `{accepted, eventCount}` without building the state;
 * `getState()` materializes the state when it is asked for.
 */
export function createProjector(initialInput, options) {
  const core = new ProjectorCore(initialInput, "createProjector", options);
  return {
    getState: () => core.getState(),
    apply(event) {
      const accepted = core.apply(event);
      return { accepted, eventCount: core.eventCount };
    },
    applyMany(events) {
      const accepted = core.applyMany(events);
      return { accepted, eventCount: core.eventCount };
    },
    hydrate(input) {
      core.hydrate(input);
      return { accepted: core.eventCount, eventCount: core.eventCount };
    },
    reset() {
      core.reset();
    },
    subscribe: (listener) => core.subscribe(listener),
    free: () => core.free(),
    [DISPOSE]: () => core.free(),
  };
}

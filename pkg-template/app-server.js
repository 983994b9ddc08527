// App Server facts (the reference's appServerFacts): session reads, agentSession/event
// notification events and evidence exports as runtime execution events, and their replay
// through the projection. The rules live in Rust (src/app_server/); this file only moves the
// facts across and hands back the caller's own objects the events embed.
import * as wasm from "./glue/agent_runtime_projection.js";
import { ISOLATE_INPUT_UNITS, NO_EVENTS, callSized, jsonText, putText, tapeValuesOf } from "./boundary.js";
import { shareBatchViews } from "./wire.js";
import { shareEmptySurfaces } from "./empty-surfaces.js";

function isObject(value) {
  return value !== null && typeof value === "object";
}

// Only the members the facts are read from cross the boundary (a session read's `detail`, for
// one, can be a whole thread). A value that is not an object is sent as it is: the Rust side
// then fails or reads nothing from it, as the reference does.
function sessionReadFacts(readModel) {
  return isObject(readModel) ? { session: readModel.session, turns: readModel.turns } : readModel;
}

function evidenceExportFacts(facts) {
  return isObject(facts)
    ? {
        events: facts.events,
        session: facts.session,
        turns: facts.turns,
        artifacts: facts.artifacts,
        exportedAt: facts.exportedAt,
        evidencePack: facts.evidencePack,
      }
    : facts;
}

function replayFacts(input) {
  return isObject(input)
    ? {
        readModel: sessionReadFacts(input.readModel),
        events: input.events,
        evidenceExport: evidenceExportFacts(input.evidenceExport),
        sourceCount: input.sourceCount,
      }
    : input;
}

/**
 * Run a binding on `facts` (an `undefined` input crosses as length 0) and read its tape:
 * `{events}`, and for a replay `{events, state, diagnostics}`. The reference fails on malformed
 * facts with native TypeErrors; the binding reports them with the same messages (as plain
 * Errors), thrown here as TypeErrors with those messages. A trap of the module stays a fault
 * (`callSized`), and large facts run on a fresh instance.
 */
function run(binding, facts, what) {
  const text = facts === undefined ? undefined : jsonText(facts, `${what}: input`);
  return callSized(what, text !== undefined && text.length > ISOLATE_INPUT_UNITS, () => {
    const len = text === undefined ? 0 : putText(text);
    let at;
    try {
      at = binding(len);
    } catch (error) {
      if (error !== null && typeof error === "object" && error.constructor === Error) {
        throw new TypeError(error.message);
      }
      throw error;
    }
    // The tape holds the paths in `facts` of the caller's objects the events embed, the events
    // (made with those objects), then for a replay the state (made with the events) and the
    // diagnostics.
    const [, events, state, diagnostics] = tapeValuesOf(at, (i, values) =>
      i === 1 ? embeddedAt(facts, values[0]) : i === 2 ? values[1] : NO_EVENTS,
    );
    return { events, state, diagnostics };
  });
}

/** The caller's objects at `paths` in `facts`. */
function embeddedAt(facts, paths) {
  const embedded = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    let value = facts;
    for (let j = 0; j < path.length; j++) value = value[path[j]];
    embedded[i] = value;
  }
  return embedded;
}

export function projectAppServerEventsToExecutionEvents(events) {
  return run(wasm.app_server_events, events, "projectAppServerEventsToExecutionEvents").events;
}

export function projectAppServerSessionReadToExecutionEvents(readModel) {
  return run(
    wasm.app_server_session_read,
    sessionReadFacts(readModel),
    "projectAppServerSessionReadToExecutionEvents",
  ).events;
}

export function projectAppServerEvidenceExportToExecutionEvents(exportFacts) {
  return run(
    wasm.app_server_evidence_export,
    evidenceExportFacts(exportFacts),
    "projectAppServerEvidenceExportToExecutionEvents",
  ).events;
}

export function replayAppServerFacts(input) {
  const out = run(wasm.app_server_replay, replayFacts(input), "replayAppServerFacts");
  // The state refers to the returned events (`readModel.events[i].source`, ...).
  const state = shareEmptySurfaces(
    shareBatchViews(out.state, out.events),
    undefined,
    out.events,
    "replayAppServerFacts",
  );
  return { events: out.events, state, diagnostics: out.diagnostics };
}

// The empty tool and MCP surfaces, as the reference shares them: one object each, held by every
// empty result (`projectAgentUiToolSurface` of no projections, `projectAgentUiMcpSurface` of a
// surface whose calls have no MCP view) and by every state whose surface is empty (a state with
// no events, for `toolCalls`; with no MCP tool call, for `mcp`). A memoized view of `state.mcp`
// keeps its value from one projection to the next. The module makes them once, from empty
// input, when first asked (the instance may still be compiling when this file is evaluated).
import * as wasm from "./glue/agent_runtime_projection.js";
import { call, putText } from "./boundary.js";
import { parseWire, sameValue } from "./wire.js";

const NO_EVENTS = Object.freeze([]);
let toolSurface;
let mcpSurface;

/** The shared empty tool surface. */
export function emptyToolSurface(what) {
  if (toolSurface === undefined) {
    toolSurface = parseWire(call(what, () => wasm.tool_surface_json(putText("[]"))), NO_EVENTS);
  }
  return toolSurface;
}

/** The shared empty MCP surface. */
export function emptyMcpSurface(what) {
  if (mcpSurface === undefined) {
    mcpSurface = parseWire(call(what, () => wasm.mcp_surface_json(putText("[]"))), NO_EVENTS);
  }
  return mcpSurface;
}

const isObject = (x) => x !== null && typeof x === "object";

/**
 * Put the shared empty surfaces into `state` where its own are empty, by the reference's rule
 * (no read-model event: `toolCalls`; no call with an MCP view: `mcp`) and only where they are
 * the same value. Only the surfaces `state` does not share with `prev` (the state it was patched
 * from, if any) are looked at: those are freshly decoded, and `state` is then a new object.
 * Returns `state`.
 */
export function shareEmptySurfaces(state, prev, what) {
  if (!isObject(state)) return state;
  const old = isObject(prev) ? prev : {};
  const readModel = state.readModel;
  if (
    state.toolCalls !== old.toolCalls &&
    isObject(readModel) &&
    Array.isArray(readModel.events) &&
    readModel.events.length === 0 &&
    sameValue(state.toolCalls, emptyToolSurface(what))
  ) {
    state.toolCalls = emptyToolSurface(what);
  }
  const calls = isObject(state.toolCalls) ? state.toolCalls.calls : undefined;
  if (
    state.mcp !== old.mcp &&
    Array.isArray(calls) &&
    !calls.some((c) => isObject(c) && Boolean(c.mcp)) &&
    sameValue(state.mcp, emptyMcpSurface(what))
  ) {
    state.mcp = emptyMcpSurface(what);
  }
  return state;
}

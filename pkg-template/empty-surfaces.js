// The empty tool and MCP surfaces, as the reference shares them: one object each, held by every
// empty result (`projectAgentUiToolSurface` of no projections, `projectAgentUiMcpSurface` of a
// surface whose calls have no MCP view) and by every state whose surface is empty (a state with
// no events, for `toolCalls`; with no MCP tool call, for `mcp`). A memoized view of `state.mcp`
// keeps its value from one projection to the next. The module makes them once, from empty
// input, when first asked (the instance may still be compiling when this file is evaluated).
import * as wasm from "./glue/agent_runtime_projection.js";
import { NO_EVENTS, call, putText, tapeOf } from "./boundary.js";
import { copyParsed, isObject, sameValue } from "./wire.js";

let toolSurface;
let mcpSurface;

/** The shared empty tool surface. */
export function emptyToolSurface(what) {
  if (toolSurface === undefined) {
    toolSurface = call(what, () => tapeOf(wasm.tool_surface(putText("[]")), NO_EVENTS));
  }
  return toolSurface;
}

/** The shared empty MCP surface. */
export function emptyMcpSurface(what) {
  if (mcpSurface === undefined) {
    mcpSurface = call(what, () => tapeOf(wasm.mcp_surface(putText("[]")), NO_EVENTS));
  }
  return mcpSurface;
}

/**
 * Put the shared empty surfaces into `state` where the reference's state holds them: `toolCalls`
 * when no event was projected (`events`, the state's events: a state delta may rewrite
 * `readModel`), `mcp` when no tool call has an MCP view (neither surface is a root a state delta
 * may patch); in each case only where the state's own is the same value. A state whose events
 * are no longer none gets a copy of its own in place of the shared tool surface (a projector's
 * state keeps an unchanged surface from one patch to the next). `prev`: the state `state` was
 * patched from, if any; nothing is done when it is `state` itself, and otherwise `state` is a new
 * object; an `mcp` it shares with `prev` was looked at then. Returns `state`.
 */
export function shareEmptySurfaces(state, prev, events, what) {
  if (!isObject(state) || state === prev) return state;
  const tools = emptyToolSurface(what);
  if (events.length === 0) {
    if (state.toolCalls !== tools && sameValue(state.toolCalls, tools)) state.toolCalls = tools;
  } else if (state.toolCalls === tools) {
    state.toolCalls = copyParsed(tools);
  }
  const calls = isObject(state.toolCalls) ? state.toolCalls.calls : undefined;
  const mcp = emptyMcpSurface(what);
  if (
    state.mcp !== mcp &&
    (!isObject(prev) || state.mcp !== prev.mcp) &&
    Array.isArray(calls) &&
    !calls.some((c) => isObject(c) && Boolean(c.mcp)) &&
    sameValue(state.mcp, mcp)
  ) {
    state.mcp = mcp;
  }
  return state;
}

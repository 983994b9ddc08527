// The core's rule tables (projection::view_rules, written at build time into glue/view-rules.js),
// parsed once for the wrapper modules that read them: views.js evaluates them, the batch
// functions ask which events are state deltas.
import { viewRulesJson } from "./glue/view-rules.js";

export const RULES = JSON.parse(viewRulesJson);

/**
 * Whether `events` (an array) holds a `state.delta` event: the only kind of event that edits a
 * state after the views have projected it (`shareBatchViews` in wire.js).
 */
export function hasStateDelta(events) {
  const cls = RULES.stateDeltaClass;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event !== null && typeof event === "object" && event.eventClass === cls) return true;
  }
  return false;
}

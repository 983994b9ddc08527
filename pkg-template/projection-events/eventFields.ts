// Completing an envelope into a projection event. Internal to the layer (index.ts does not export it).
//
// The builders add an event's own fields to the fresh envelope object instead of spreading it into
// a new literal: `{ ...base, type, ... }` costs microseconds per call in V8 (a literal continuing
// after a spread leaves the fast object-literal path), while adding the fields to `base` keeps the
// same keys in the same order (fields the envelope already has stay in place, overwritten).
import type { AgentUiProjectionEvent } from "./contracts.js";
import type { AgentUiProjectionBase } from "./envelope.js";

/** What a builder adds to an envelope: the event's own fields (class, owner, scope, phase, ...) and envelope fields it overrides. */
export type AgentUiProjectionEventFields = Omit<AgentUiProjectionEvent, keyof AgentUiProjectionBase> &
  Partial<AgentUiProjectionBase>;

/** `base` (a fresh envelope, changed in place) with `fields` added, as one projection event. */
export function completeProjectionEvent(
  base: AgentUiProjectionBase,
  fields: AgentUiProjectionEventFields,
): AgentUiProjectionEvent {
  return Object.assign(base, fields);
}

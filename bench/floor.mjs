// The pure-JS floor of "apply, then read the state, after every event": no WebAssembly, no patch,
// no decoding, only what any structurally shared, immutable state must do per event when two
// lists grow by one item every event (the state's `timeline` and `readModel.events`): copy both
// lists into new arrays one item longer (the previous state keeps its own arrays), and copy the
// objects on their paths.

/** A state holder whose `apply(event)` does exactly that floor work and returns the state. */
export function makeFloorState() {
  let state = { runtime: {}, timeline: [], readModel: { events: [], visibleEvents: [] }, hydration: {} };
  let count = 0;
  return {
    apply(event) {
      count++;
      state = {
        ...state,
        runtime: { latestEventId: event.id },
        timeline: state.timeline.concat([{ entryId: event.id, sequence: count }]),
        readModel: { ...state.readModel, events: state.readModel.events.concat([{ id: event.id, source: event }]) },
        hydration: { eventCount: count },
      };
      return state;
    },
  };
}

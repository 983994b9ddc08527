// `useAgentUiProjection`: a projector owned by a component, handing React at most one state per
// animation frame through useSyncExternalStore.
//
// Lifetime: the projector is made with the component's first render and freed when the component
// unmounts. The free waits for a microtask, so StrictMode's simulated unmount and remount (both
// inside one commit) keep the same projector and every event it accepted. If effects are
// disconnected for longer (a hidden <Activity>) the projector is freed, and a new one is rebuilt
// from the last state's events when the component reconnects or is given an event.
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { createProjector } from "../index.js";

const SCHEDULES = ["frame", "sync"];

// The next animation frame where there is one (browsers); a ~60 Hz timer elsewhere (Node, workers
// without rAF, test environments).
const requestFrame =
  typeof requestAnimationFrame === "function" ? (callback) => requestAnimationFrame(callback) : (callback) => setTimeout(callback, 16);
const cancelFrame =
  typeof cancelAnimationFrame === "function" ? (handle) => cancelAnimationFrame(handle) : (handle) => clearTimeout(handle);

/** A lean projector, the state last handed to React, and the subscribers of that state. */
class ProjectionStore {
  constructor(options = {}) {
    if (options === null || typeof options !== "object") {
      throw new TypeError(`useAgentUiProjection: options must be an object, got ${options === null ? "null" : typeof options}`);
    }
    const { initialInput, schedule = "frame", redactSecrets = false } = options;
    if (!SCHEDULES.includes(schedule)) {
      throw new TypeError(`useAgentUiProjection: schedule must be "frame" or "sync", got ${JSON.stringify(schedule)}`);
    }
    this.sync = schedule === "sync";
    this.projectorOptions = { redactSecrets: Boolean(redactSecrets) };
    this.listeners = new Set();
    this.frame = null;
    this.mounts = 0;
    this.releasePending = false;
    this.projector = null;
    this.onChange = () => this.changed();
    this.onFrame = () => {
      this.frame = null;
      this.publish();
    };
    this.open(initialInput);
    this.state = this.projector.getState();

    // Stable functions: React gets the same subscribe/getSnapshot on every render, and the
    // component's handlers can be passed down without breaking memoization.
    this.subscribe = (listener) => {
      this.listeners.add(listener);
      return () => this.listeners.delete(listener);
    };
    this.getSnapshot = () => this.state;
    this.actions = Object.freeze({
      apply: (event) => this.live().apply(event),
      applyMany: (events) => this.live().applyMany(events),
      hydrate: (input) => this.live().hydrate(input),
      reset: () => this.live().reset(),
      flush: () => this.flush(),
    });
  }

  open(input) {
    this.projector = createProjector(input, this.projectorOptions);
    this.projector.subscribe(this.onChange);
  }

  /** The projector changed: hand its state over now ("sync") or at the next frame. */
  changed() {
    if (this.sync) this.publish();
    else if (this.frame === null) this.frame = requestFrame(this.onFrame);
  }

  publish() {
    if (this.projector === null) return;
    const next = this.projector.getState();
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }

  // The pending frame, if any, is left to fire: it finds nothing new to hand over, and an event
  // applied before it needs no frame of its own (one frame request per frame, however often the
  // host flushes).
  flush() {
    this.publish();
  }

  /** The projector, rebuilt from the last state's events if it was freed. */
  live() {
    if (this.projector === null) {
      const { events, sourceCount } = this.state.readModel;
      this.open({ executionEvents: events.map((projection) => projection.source), sourceCount });
      if (this.mounts === 0) this.scheduleClose();
    }
    return this.projector;
  }

  /** A mounted component uses the store; returns the function that ends this use. */
  retain() {
    this.mounts++;
    this.live();
    return () => {
      this.mounts--;
      if (this.mounts === 0) this.scheduleClose();
    };
  }

  scheduleClose() {
    if (this.releasePending) return;
    this.releasePending = true;
    queueMicrotask(() => {
      this.releasePending = false;
      if (this.mounts === 0) this.close();
    });
  }

  /** Free the projector, keeping its latest state (what a rebuilt projector starts from). */
  close() {
    if (this.projector === null) return;
    if (this.frame !== null) {
      cancelFrame(this.frame);
      this.frame = null;
    }
    this.state = this.projector.getState();
    this.projector.free();
    this.projector = null;
  }
}

/**
 * A projector for the calling component's lifetime. Returns `{state, apply, applyMany, hydrate,
 * reset, flush}`: the functions are the same on every render; `state` changes at most once per
 * animation frame (or after every change with `schedule: "sync"`), and `flush()` hands the latest
 * state over at once. Options (read on the first render only): `initialInput`
 * (`{executionEvents, sourceCount}`), `redactSecrets`, `schedule` ("frame" or "sync").
 */
export function useAgentUiProjection(options) {
  const holder = useRef(null);
  if (holder.current === null) holder.current = new ProjectionStore(options);
  const store = holder.current;
  useEffect(() => store.retain(), [store]);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return useMemo(() => ({ state, ...store.actions }), [state, store]);
}

// The page of bench/react.mjs: renders a generated stream with this package's views fed by its
// projector through useAgentUiProjection ("ours"), and, when the bench was built with a local
// reference, the reference views fed by the reference projector ("reference"). Exposes
// `window.bench(side, n, mode, seed)`, which returns timings and the final DOM.
import { createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { generateRuntimeEvents } from "bench:ours";
import { AgentUiProjectionView, useAgentUiProjection } from "bench:ours-react";
import * as referenceUi from "bench:reference-ui";
import * as referenceProjection from "bench:reference-projection";

const FRAME_MS = 1000 / 60;
const EVENTS_PER_SECOND = 1000;

// A side: mount(container) renders an empty state and returns {apply(event), frame(), unmount()}.
// apply takes one arriving event; frame hands the latest state to React and renders it
// synchronously (what the next animation frame does).
const sides = {
  ours: {
    available: true,
    mount(container) {
      let handle;
      function App() {
        handle = useAgentUiProjection();
        return h(AgentUiProjectionView, { state: handle.state });
      }
      const root = createRoot(container);
      flushSync(() => root.render(h(App)));
      return {
        apply: (event) => handle.apply(event),
        frame: () => flushSync(() => handle.flush()),
        unmount: () => root.unmount(),
      };
    },
  },
  reference: {
    available: typeof referenceUi.AgentUiProjectionView === "function",
    mount(container) {
      const projector = referenceProjection.createAgentUiProjector();
      let latest = projector.getState();
      let setState;
      function App() {
        const [state, set] = useState(latest);
        setState = set;
        return h(referenceUi.AgentUiProjectionView, { state });
      }
      const root = createRoot(container);
      flushSync(() => root.render(h(App)));
      return {
        apply: (event) => {
          latest = projector.apply(event);
        },
        frame: () => flushSync(() => setState(latest)),
        unmount: () => root.unmount(),
      };
    },
  },
};

window.available = Object.fromEntries(Object.entries(sides).map(([name, side]) => [name, side.available]));

/**
 * One run: a fresh container, `n` generated events (fresh objects) fed to `side`.
 * - "event": each event applied and rendered before the next (apply + render per event);
 * - "frame": the stream arrives at 1,000 events/s; every event is applied as it arrives and the
 *   state is rendered once per 1/60 s of stream time (and once after the last event).
 * Times the work only (the stream's own time is simulated, not waited for).
 */
window.bench = (sideName, n, mode, seed) => {
  const side = sides[sideName];
  const events = generateRuntimeEvents(n, seed);
  const container = document.createElement("div");
  document.body.append(container);
  const run = side.mount(container);
  const perEvent = [];
  let total = 0;
  let frames = 0;
  if (mode === "event") {
    for (const event of events) {
      const start = performance.now();
      run.apply(event);
      run.frame();
      const spent = performance.now() - start;
      perEvent.push(spent);
      total += spent;
    }
    frames = events.length;
  } else {
    let next = 0;
    for (let frame = 1; next < events.length; frame++) {
      const start = performance.now();
      const due = Math.min(events.length, Math.floor((frame * FRAME_MS * EVENTS_PER_SECOND) / 1000));
      for (; next < due; next++) run.apply(events[next]);
      run.frame();
      total += performance.now() - start;
      frames++;
    }
  }
  const html = container.innerHTML;
  const elements = container.getElementsByTagName("*").length;
  run.unmount();
  container.remove();
  return { total, frames, perEvent, html, elements };
};

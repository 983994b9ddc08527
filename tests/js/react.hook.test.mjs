// useAgentUiProjection (its projector's lifetime, one state per animation frame, the options) and
// the optional windowing of the long lists. No reference needed.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { act, api, h, mount, React, renderToStaticMarkup, repoRoot, views } from "./react-env.mjs";

// Projector releases, observed on the module's projector class (what `free()` ends in).
const glue = await import(pathToFileURL(join(repoRoot, "pkg", "glue", "agent_runtime_projection.js")).href);
let frees = 0;
const free = glue.WasmProjector.prototype.free;
glue.WasmProjector.prototype.free = function countedFree(...args) {
  frees++;
  return free.apply(this, args);
};

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
const microtasks = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A component owning a projection; `probe` sees every render's handle. */
function Session({ options, probe }) {
  const projection = views.useAgentUiProjection(options);
  probe.renders++;
  probe.handles.push(projection);
  return h("p", { className: "events" }, String(projection.state.readModel.events.length));
}
const newProbe = () => ({ renders: 0, handles: [], get last() { return this.handles[this.handles.length - 1]; } });

test("one state per animation frame, however many events arrived; flush hands it over at once", async () => {
  const events = api.generateRuntimeEvents(40, 2);
  const probe = newProbe();
  const mounted = await mount(h(Session, { options: {}, probe }));
  const initial = probe.last.state;
  const renders = probe.renders;
  // Applying schedules a frame and renders nothing (no React update yet, so no act scope needed;
  // checked before any timer can run).
  for (const event of events.slice(0, 25)) probe.last.apply(event);
  assert.equal(probe.renders, renders);
  assert.equal(probe.last.state, initial);
  await act(nextFrame);
  assert.equal(probe.renders, renders + 1, "one render for 25 events");
  assert.deepStrictEqual(probe.last.state, api.projectAgentUiState({ executionEvents: events.slice(0, 25) }));
  assert.equal(mounted.container.textContent, "25");

  // flush: now, not at the next frame.
  await act(async () => {
    probe.last.applyMany(events.slice(25));
    probe.last.flush();
  });
  assert.equal(probe.renders, renders + 2);
  assert.equal(probe.last.state.readModel.events.length, 40);
  await act(nextFrame);
  assert.equal(probe.renders, renders + 2, "the frame after a flush has nothing to hand over");

  // The functions are the same on every render.
  for (const name of ["apply", "applyMany", "hydrate", "reset", "flush"]) {
    assert.ok(probe.handles.every((handle) => handle[name] === probe.handles[0][name]), name);
  }
  // reset and hydrate.
  await act(async () => {
    probe.last.reset();
    probe.last.flush();
  });
  assert.deepStrictEqual(probe.last.state, api.projectAgentUiState({}));
  await act(async () => {
    assert.deepEqual(probe.last.hydrate({ executionEvents: events, sourceCount: 3 }), { accepted: 40, eventCount: 40 });
    probe.last.flush();
  });
  assert.deepStrictEqual(probe.last.state, api.projectAgentUiState({ executionEvents: events, sourceCount: 3 }));
  await mounted.unmount();
});

test("schedule: 'sync' renders after every change; a duplicate event is no change", async () => {
  const events = api.generateRuntimeEvents(10, 3);
  const probe = newProbe();
  const mounted = await mount(h(Session, { options: { schedule: "sync" }, probe }));
  const renders = probe.renders;
  for (const event of events) {
    await act(async () => {
      assert.deepEqual(probe.last.apply(event), { accepted: true, eventCount: probe.last.state.readModel.events.length + 1 });
    });
  }
  assert.equal(probe.renders, renders + events.length);
  await act(async () => {
    assert.equal(probe.last.apply(events[0]).accepted, false);
  });
  assert.equal(probe.renders, renders + events.length);
  await mounted.unmount();
});

test("options: initialInput and redactSecrets are read once; a bad schedule is refused", async () => {
  const events = api.generateRuntimeEvents(30, 4);
  const secret = { id: "evt-secret", kind: "tool", status: "completed", eventClass: "tool.result", title: "call", payload: { apiKey: "sk-123" } };
  const probe = newProbe();
  const mounted = await mount(h(Session, { options: { initialInput: { executionEvents: events, sourceCount: 2 }, redactSecrets: true, schedule: "sync" }, probe }));
  assert.deepStrictEqual(probe.last.state, api.projectAgentUiState({ executionEvents: events, sourceCount: 2 }));
  await act(async () => {
    probe.last.apply(secret);
  });
  const projected = probe.last.state.readModel.events.at(-1).source;
  assert.equal(projected.payload.apiKey, "[redacted]");
  assert.equal(secret.payload.apiKey, "sk-123");
  await mounted.unmount();

  // The refused option reaches an error boundary (React reports the caught error on the console).
  const consoleError = console.error;
  console.error = () => {};
  class Boundary extends React.Component {
    state = { error: null };
    static getDerivedStateFromError(error) {
      return { error };
    }
    render() {
      return this.state.error ? h("b", null, this.state.error.message) : this.props.children;
    }
  }
  const failing = await mount(h(Boundary, null, h(Session, { options: { schedule: "idle" }, probe: newProbe() })));
  console.error = consoleError;
  assert.equal(failing.container.textContent, 'useAgentUiProjection: schedule must be "frame" or "sync", got "idle"');
  await failing.unmount();
});

test("StrictMode: mount, unmount and mount again keep one projector; unmounting frees it", async () => {
  const events = api.generateRuntimeEvents(60, 5);
  const probe = newProbe();
  const before = frees;
  const mounted = await mount(h(React.StrictMode, null, h(Session, { options: { schedule: "sync" }, probe })));
  await act(microtasks);
  assert.equal(frees, before, "StrictMode's simulated unmount does not free the projector");
  await act(async () => {
    probe.last.applyMany(events.slice(0, 30));
  });
  await act(async () => {
    for (const event of events.slice(30)) probe.last.apply(event);
  });
  assert.deepStrictEqual(probe.last.state, api.projectAgentUiState({ executionEvents: events }));
  assert.equal(mounted.container.textContent, "60");
  assert.ok(probe.handles.every((handle) => handle.apply === probe.last.apply), "one store across StrictMode's renders");
  const handle = probe.last;
  await mounted.unmount();
  await microtasks();
  assert.equal(frees, before + 1, "unmounting freed the projector");
  // Called after unmount (a late socket message): a projector is rebuilt for the call, then freed.
  assert.equal(handle.apply(api.generateRuntimeEvents(61, 5)[60]).accepted, true);
  await microtasks();
  assert.equal(frees, before + 2);
});

test("a hidden Activity frees the projector; showing it again rebuilds it from the last state", async () => {
  const events = api.generateRuntimeEvents(80, 6);
  const probe = newProbe();
  const tree = (mode) => h(React.Activity, { mode }, h(Session, { options: { schedule: "sync" }, probe }));
  const mounted = await mount(tree("visible"));
  await act(async () => {
    probe.last.applyMany(events.slice(0, 40));
  });
  const before = frees;
  await mounted.render(tree("hidden"));
  await act(microtasks);
  assert.equal(frees, before + 1, "hidden: effects disconnected, projector freed");
  // Events arriving while hidden are kept.
  await act(async () => {
    probe.last.applyMany(events.slice(40, 60));
  });
  await act(microtasks);
  await mounted.render(tree("visible"));
  await act(async () => {
    probe.last.applyMany(events.slice(60));
  });
  assert.deepStrictEqual(probe.last.state, api.projectAgentUiState({ executionEvents: events }));
  assert.equal(mounted.container.textContent, "80");
  await mounted.unmount();
});

test("windowing: only the entries near the viewport are rendered, between spacers; scrolling moves the window", async () => {
  const state = api.projectAgentUiState({ executionEvents: api.generateRuntimeEvents(1200, 9) });
  const count = state.timeline.length;
  const windowing = { itemHeight: 20, height: 200, overscan: 5 };
  const mounted = await mount(h(views.ProcessTimelineView, { entries: state.timeline, windowing }));
  const list = mounted.container.querySelector("ol.agent-process-timeline");
  const titles = () => [...list.querySelectorAll(".agent-process-entry strong")].map((node) => node.textContent);
  const spacers = () => [...list.querySelectorAll("[data-window-spacer]")].map((node) => [node.getAttribute("data-window-spacer"), node.style.height]);
  // At the end first (stickToEnd): the last 10 visible entries and 5 more above.
  assert.deepEqual(titles(), state.timeline.slice(count - 15).map((entry) => entry.title ?? ""));
  assert.deepEqual(spacers(), [["window-before", `${(count - 15) * 20}px`]]);
  assert.equal(list.style.maxHeight, "200px");
  // Scrolled to 1,000px: entries 50..59 are visible, 45..64 rendered.
  Object.defineProperty(list, "scrollTop", { configurable: true, get: () => 1000, set() {} });
  Object.defineProperty(list, "clientHeight", { configurable: true, get: () => 200 });
  Object.defineProperty(list, "scrollHeight", { configurable: true, get: () => count * 20 });
  await act(async () => {
    list.dispatchEvent(new window.Event("scroll", { bubbles: false }));
  });
  assert.deepEqual(titles(), state.timeline.slice(45, 65).map((entry) => entry.title ?? ""));
  assert.deepEqual(spacers(), [["window-before", "900px"], ["window-after", `${(count - 65) * 20}px`]]);
  await mounted.unmount();

  // Through AgentUiProjectionView; off by default.
  const markupOf = async (props) => {
    const view = await mount(h(views.AgentUiProjectionView, { state, ...props }));
    const out = {
      entries: view.container.querySelectorAll(".agent-process-entry").length,
      parts: view.container.querySelectorAll(".agent-message-part").length,
    };
    await view.unmount();
    return out;
  };
  assert.deepEqual(await markupOf({}), { entries: count, parts: state.messages.length });
  const windowed = await markupOf({ windowing: { timeline: windowing, messages: { itemHeight: 80, height: 400, overscan: 0 } } });
  assert.deepEqual(windowed, { entries: 15, parts: Math.min(5, state.messages.length) });
  assert.throws(
    () => renderToStaticMarkup(h(views.ProcessTimelineView, { entries: state.timeline, windowing: { itemHeight: 0, height: 10 } })),
    (error) => error instanceof RangeError && /^windowing: itemHeight and height must be positive numbers/.test(error.message),
  );
});

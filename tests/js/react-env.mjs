// Shared setup of the React tests (tests/js/react.*.test.mjs): the package, the react subpath, and
// a jsdom document installed as the global DOM before react-dom/client is loaded.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { JSDOM } from "jsdom";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, "..", "..");

const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
for (const name of [
  "window",
  "document",
  "navigator",
  "Node",
  "Element",
  "HTMLElement",
  "Event",
  "MouseEvent",
  "requestAnimationFrame",
  "cancelAnimationFrame",
]) {
  if (!(name in globalThis) || name === "window" || name === "document") {
    Object.defineProperty(globalThis, name, { value: dom.window[name], configurable: true, writable: true });
  }
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

export const React = await import("react");
export const { createRoot } = await import("react-dom/client");
export const { renderToStaticMarkup } = await import("react-dom/server");
export const api = await import(pathToFileURL(join(repoRoot, "pkg", "index.node.js")).href);
export const views = await import(pathToFileURL(join(repoRoot, "pkg", "react", "index.js")).href);
export const h = React.createElement;
export const { act } = React;

/** Parse static markup into a detached element (for querying). */
export function parse(markup) {
  const container = document.createElement("div");
  container.innerHTML = markup;
  return container;
}

/** Mount `element` into a fresh container; returns {container, root, unmount}. */
export async function mount(element) {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(element));
  return {
    container,
    root,
    async render(next) {
      await act(async () => root.render(next));
    },
    async unmount() {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

/** The standard fixtures' final states and intermediate states of generated streams. */
export function sampleStates({ streams = [[600, 1], [600, 2], [400, 3]], every = 97 } = {}) {
  const states = [];
  for (const fixture of api.agentUiConformanceFixtures) {
    states.push([fixture.id, api.projectAgentUiState({ executionEvents: fixture.events, sourceCount: 2 })]);
  }
  for (const [n, seed] of streams) {
    const events = api.generateRuntimeEvents(n, seed, { subagentRate: 0.5, actionRate: 0.4, stateDeltaRate: 0.3 });
    const projector = api.createAgentUiProjector({ sourceCount: 1 });
    events.forEach((event, i) => {
      const state = projector.apply(event);
      if (i % every === 0 || i === events.length - 1) states.push([`generated(${n}, ${seed}) after ${i + 1}`, state]);
    });
    projector.free();
  }
  return states;
}

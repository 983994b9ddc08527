// Packaging: the npm tarball of pkg/ works (1) in plain Node ESM, (2) in a Vite + React app
// built for production and rendered in headless Chromium, (3) in a plain page without a bundler,
// (4) in a page that refuses synchronous WebAssembly compilation, (5) in a module worker, and
// (6) in a React app's own component tests under vitest (node, jsdom and happy-dom). The React app
// and the component tests use the react subpath too (views and useAgentUiProjection).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..", "..");
const pkgDir = join(root, "pkg");
const appDir = join(here, "app");
const PKG_NAME = "@limecloud/agent-runtime-projection-wasm";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const api = await import(join(pkgDir, "index.node.js"));
const work = mkdtempSync(join(tmpdir(), "pkg-check-"));
let browserContext;

before(() => {
  // npm pack: exactly what a registry install would unpack.
  const out = execFileSync("npm", ["pack", pkgDir, "--pack-destination", work, "--json"], { encoding: "utf8" });
  const tarball = join(work, JSON.parse(out)[0].filename);
  const target = join(appDir, "node_modules", ...PKG_NAME.split("/"));
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"]);
});

after(async () => {
  if (browserContext) await browserContext.close();
  rmSync(work, { recursive: true, force: true });
});

async function browser() {
  if (!browserContext) {
    const { chromium } = await import("playwright-core");
    browserContext = await chromium.launchPersistentContext(mkdtempSync(join(work, "profile-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
      ],
    });
  }
  return browserContext;
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".css": "text/css" };

/** A static server over `mounts` ({urlPrefix: dir}). */
async function serve(mounts) {
  const server = createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!url.startsWith(prefix)) continue;
      let file = normalize(join(dir, url.slice(prefix.length)));
      if (!file.startsWith(dir)) break;
      try {
        if (statSync(file).isDirectory()) file = join(file, "index.html");
        const body = readFileSync(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
        res.end(body);
        return;
      } catch {}
    }
    res.writeHead(404);
    res.end("not found");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

async function render(origin, path, selector) {
  const context = await browser();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(origin + path);
  await page.waitForSelector(selector, { timeout: 15000 });
  return { page, errors };
}

test("plain Node ESM: import by package name from an installed tarball", () => {
  const script = `
    import * as m from "${PKG_NAME}";
    import { createRequire } from "node:module";
    const f = m.getAgentUiFixture("text-basic");
    const s = m.projectAgentUiState({ executionEvents: f.events });
    const schemaFile = createRequire(import.meta.url).resolve("${PKG_NAME}/schemas/agent-runtime-event.v0.1.schema.json");
    console.log(JSON.stringify({ status: s.runtime.status, n: s.readModel.events.length, keys: Object.keys(m).length, schemaFile: !!schemaFile }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: appDir, encoding: "utf8" }));
  const expected = api.projectAgentUiState({ executionEvents: api.getAgentUiFixture("text-basic").events });
  assert.equal(out.status, expected.runtime.status);
  assert.equal(out.n, expected.readModel.events.length);
  assert.equal(out.keys, Object.keys(api).length);
  assert.ok(out.schemaFile);
});

test("Vite + React production build renders a projected fixture in Chromium (main entry and react subpath)", async () => {
  const { build } = await import("vite");
  await build({ root: appDir, configFile: join(appDir, "vite.config.mjs") });
  const { server, origin } = await serve({ "/": join(appDir, "dist") });
  try {
    const { page, errors } = await render(origin, "/", "#status");
    const expected = api.projectAgentUiState({ executionEvents: api.getAgentUiFixture("tool-success").events });
    assert.equal(await page.textContent("#status"), expected.runtime.status);
    assert.equal(await page.textContent("#events"), String(expected.readModel.events.length));
    assert.equal(await page.textContent("#same"), "true");
    assert.deepEqual(await page.$$eval("#timeline li", (lis) => lis.map((li) => li.textContent)), expected.timeline.map((e) => e.title));
    // The react subpath: the views, fed event by event through useAgentUiProjection.
    const live = `#live[data-events="${expected.readModel.events.length}"] > .agent-ui-projection`;
    await page.waitForSelector(live, { timeout: 15000 });
    assert.equal(await page.getAttribute(live, "data-runtime-status"), expected.runtime.status);
    assert.deepEqual(
      await page.$$eval(`${live} .agent-process-entry strong`, (nodes) => nodes.map((node) => node.textContent)),
      expected.timeline.map((e) => e.title),
    );
    assert.equal(await page.$$eval(`${live} .agent-tool-call`, (nodes) => nodes.length), expected.toolCalls.calls.length);
    assert.equal(await page.$$eval(`${live} .agent-message-part`, (nodes) => nodes.length), expected.messages.length);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.close();
  }
});

test("plain page without a bundler imports the browser entry", async () => {
  const { server, origin } = await serve({ "/pkg/": join(appDir, "node_modules", ...PKG_NAME.split("/")), "/": join(here, "plain") });
  try {
    const { page, errors } = await render(origin, "/", "#out:not(:text('loading'))");
    const out = JSON.parse(await page.textContent("#out"));
    const expected = api.projectAgentUiState({ executionEvents: api.getAgentUiFixture("hitl-action").events });
    assert.deepEqual(out, { status: expected.runtime.status, events: expected.readModel.events.length, timeline: expected.timeline.length });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.close();
  }
});

/** The plain pages' origin: the installed package under /pkg/, the pages at /. */
async function servePlain() {
  return serve({ "/pkg/": join(appDir, "node_modules", ...PKG_NAME.split("/")), "/": join(here, "plain") });
}

test("a page that refuses synchronous compilation imports the package, awaits ready, projects and generates", async () => {
  const { server, origin } = await servePlain();
  try {
    const { page, errors } = await render(origin, "/nosync.html", "#out:not(:text('loading'))");
    const out = JSON.parse(await page.textContent("#out"));
    const expected = api.projectAgentUiState({ executionEvents: api.getAgentUiFixture("hitl-action").events });
    assert.equal(out.generated, JSON.stringify(api.generateRuntimeEvents(300, 7)), "the same stream as in Node");
    delete out.generated;
    assert.deepEqual(out, {
      beforeReady: "projectAgentUiState: the WebAssembly module is still compiling; await the package's `ready` promise first",
      generatorBeforeReady:
        "generateRuntimeEvents: the event generator's WebAssembly module is still compiling; await the package's `ready` promise first",
      generatedAgain: true,
      status: expected.runtime.status,
      events: expected.readModel.events.length,
      same: true,
    });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.close();
  }
});

test("a module worker imports the browser entry and projects", async () => {
  const { server, origin } = await servePlain();
  try {
    const { page, errors } = await render(origin, "/worker.html", "#out:not(:text('loading'))");
    const out = JSON.parse(await page.textContent("#out"));
    const expected = api.projectAgentUiState({ executionEvents: api.getAgentUiFixture("hitl-action").events });
    assert.deepEqual(out, { status: expected.runtime.status, events: expected.readModel.events.length, same: true });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.close();
  }
});

for (const environment of ["node", "jsdom", "happy-dom"]) {
  test(`vitest (${environment}): a React app's component tests import the packed package and project`, () => {
    const vitest = join(root, "node_modules", ".bin", "vitest");
    let output;
    try {
      output = execFileSync(vitest, ["run", "--config", "vitest/vitest.config.mjs", "--environment", environment, "--reporter", "json"], {
        cwd: appDir,
        encoding: "utf8",
        // As a React app runs its tests (the Vite build above sets NODE_ENV=production in this process).
        env: { ...process.env, NO_COLOR: "1", NODE_ENV: "test" },
      });
    } catch (error) {
      assert.fail(`vitest failed under ${environment}:\n${error.stdout}\n${error.stderr}`);
    }
    const report = JSON.parse(output.slice(output.indexOf("{")));
    const passed = report.testResults.flatMap((file) => file.assertionResults).filter((r) => r.status === "passed");
    // Every environment runs the two render tests; the DOM ones the useSyncExternalStore and
    // useAgentUiProjection tests as well.
    assert.equal(passed.length, environment === "node" ? 2 : 4, JSON.stringify(report.testResults, null, 1));
    assert.equal(report.numFailedTests, 0);
  });
}

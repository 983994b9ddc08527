// Browser tests of the fixture playground (www/): headless Chromium through playwright-core,
// against scripts/serve.mjs started on a free port.
//
//   bash scripts/build-pkg.sh && node --test tests/www/
//
// Needs the built package in pkg/ (or PKG_DIR), the npm package playwright-core and Chromium at
// /usr/bin/chromium (or CHROMIUM). Screenshots go to test-results/ (not committed).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const pkgDir = resolve(process.env.PKG_DIR || join(root, "pkg"));
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = join(root, "test-results");

let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  chromium = undefined;
}

const skipReason = !existsSync(join(pkgDir, "package.json"))
  ? `SKIP: the wasm package is not built (${pkgDir}/package.json missing); run bash scripts/build-pkg.sh first`
  : !chromium
    ? "SKIP: the npm package playwright-core is not installed (npm install)"
    : !existsSync(chromiumPath)
      ? `SKIP: Chromium not found at ${chromiumPath}`
      : "";
if (skipReason) console.log(skipReason);
const opts = { skip: skipReason || false, timeout: 180_000 };

let server;
let baseUrl;
let context;
let profileDir;

before(async () => {
  if (skipReason) return;
  mkdirSync(shots, { recursive: true });
  server = spawn(process.execPath, [join(root, "scripts/serve.mjs")], {
    env: { ...process.env, PORT: "0", PKG_DIR: pkgDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  baseUrl = await new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`serve.mjs did not start: ${out}`)), 10_000);
    server.stdout.on("data", (d) => {
      out += d;
      const m = /Playground: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    server.stderr.on("data", (d) => (out += d));
    server.on("exit", (code) => fail(new Error(`serve.mjs exited with ${code}: ${out}`)));
  });
  profileDir = mkdtempSync(join(tmpdir(), "playground-chromium-"));
  context = await chromium.launchPersistentContext(profileDir, {
    headless: true,
    executablePath: chromiumPath,
    viewport: { width: 1440, height: 1000 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  if (context) await context.close();
  if (server) server.kill("SIGTERM");
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

/** Opens the page at `hash`, failing on any console error or page error. */
async function open(hash) {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(new URL(hash, baseUrl).href);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return { page, errors };
}

async function waitValidated(page) {
  await page.waitForFunction(() => window.playground && !window.playground.validating(), null, { timeout: 120_000 });
}

async function text(page, testid) {
  return (await page.getByTestId(testid).first().textContent())?.trim();
}

async function num(page, testid) {
  return Number((await text(page, testid)).replace(/,/g, ""));
}

/** Waits until the page shows step `k`. */
async function stepIs(page, k) {
  await page.waitForFunction((v) => Number(document.querySelector("[data-testid='step']")?.textContent) === v, k, { timeout: 60_000 });
}

async function statusOf(page) {
  return page.getByTestId("runtime-status").first().getAttribute("data-value");
}

/** Deep equality that also checks own-key presence (a key holding undefined is not a missing key). */
function strictEqualInPage({ k, fromProjector = false }) {
  const a = fromProjector ? window.playground.projectorState() : window.playground.state();
  const b = window.playground.batchState(k);
  const diff = [];
  const walk = (x, y, path, depth) => {
    if (diff.length > 5 || x === y) return;
    if (depth > 200) return void diff.push(`${path}: too deep`);
    if (typeof x !== typeof y || x === null || y === null || typeof x !== "object") {
      if (!(Number.isNaN(x) && Number.isNaN(y))) diff.push(`${path}: ${String(x)} vs ${String(y)}`);
      return;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return void diff.push(`${path}: array vs object`);
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length || kx.some((key, i) => key !== ky[i])) return void diff.push(`${path}: keys [${kx}] vs [${ky}]`);
    for (const key of kx) walk(x[key], y[key], `${path}.${key}`, depth + 1);
  };
  walk(a, b, "$", 0);
  return diff;
}

test("the page loads with no console errors and shows the first fixture", opts, async () => {
  const { page, errors } = await open("/");
  assert.ok((await num(page, "event-count")) > 0);
  // The playground projects with secret redaction on (the package offers the option).
  assert.match(await page.getByTestId("redact").innerText(), /redactSecrets: on/);
  assert.equal(await num(page, "step"), 0);
  await page.getByTestId("btn-fwd").click();
  await page.getByTestId("btn-fwd").click();
  assert.equal(await num(page, "step"), 2);
  await page.getByTestId("btn-back").click();
  assert.equal(await num(page, "step"), 1);
  await page.getByTestId("btn-end").click();
  await waitValidated(page);
  await page.screenshot({ path: join(shots, "playground-start.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("each standard fixture, stepped to the end, shows the facts of its expected block", opts, async () => {
  const { page, errors } = await open("/");
  const fixtures = await page.evaluate(() => window.playground.fixtures());
  assert.equal(fixtures.length, 13);
  for (const fx of fixtures) {
    await page.evaluate((id) => (location.hash = `#fixture=${id}&step=0`), fx.id);
    await page.waitForFunction((id) => window.playground.source?.id === id, fx.id);
    await page.getByTestId("btn-end").click();
    await stepIs(page, fx.eventCount);
    await waitValidated(page);
    const e = fx.expected;
    assert.equal(await num(page, "step"), fx.eventCount, fx.id);
    assert.equal(await num(page, "event-count"), fx.eventCount, fx.id);
    // Runtime status: the projector's status is the batch status of the whole stream, and the
    // package's own fixtures state that batch status as expected.status.
    const shown = await statusOf(page);
    const batch = await page.evaluate(() => window.playground.batchState().runtime.status);
    assert.equal(shown, batch, `${fx.id}: runtime status`);
    assert.equal(shown, e.status, `${fx.id}: expected.status`);
    assert.equal(await page.getByTestId("expect-status").getAttribute("data-ok"), "true", fx.id);
    // Counts: "below expected" checks are >=, mismatch checks are exact (as replayAgentUiFixture).
    const atLeast = async (want, testid) => {
      if (want !== undefined) assert.ok((await num(page, testid)) >= want, `${fx.id}: ${testid} ${await num(page, testid)} < ${want}`);
    };
    const exactly = async (want, testid) => {
      if (want !== undefined) assert.equal(await num(page, testid), want, `${fx.id}: ${testid}`);
    };
    await atLeast(e.messagePartCount, "message-part-count");
    await atLeast(e.timelineEntryCount, "timeline-entry-count");
    await atLeast(e.graphNodeCount, "graph-node-count");
    await exactly(e.pendingActionCount, "pending-action-count");
    await atLeast(e.artifactCount, "artifact-count");
    await atLeast(e.evidenceCount, "evidence-count");
    if (e.subagents) {
      const s = e.subagents;
      if (s.hasSubagents !== undefined) assert.equal(await page.getByTestId("subagent-has").textContent(), String(s.hasSubagents), fx.id);
      await atLeast(s.threadCount, "subagent-thread-count");
      await atLeast(s.delegationCallCount, "subagent-delegation-count");
      await atLeast(s.activityCount, "subagent-activity-count");
      await exactly(s.activeThreadCount, "subagent-active-count");
      await exactly(s.completedThreadCount, "subagent-completed-count");
      await exactly(s.failedThreadCount, "subagent-failed-count");
    }
    // Every count row of the on-page expectation table agrees.
    const rows = await page.locator("[data-testid^='expect-']:not([data-testid='expect-status'])").evaluateAll((els) => els.map((el) => [el.getAttribute("data-testid"), el.getAttribute("data-ok")]));
    for (const [id, ok] of rows) assert.equal(ok, "true", `${fx.id}: ${id}`);
    if (await page.getByTestId("replay-passed").count()) assert.equal(await text(page, "replay-passed"), "passed", fx.id);
    // The rendered panels show as many items as the state holds (small fixtures are not windowed).
    assert.equal(await page.getByTestId("graph-node").count(), await num(page, "graph-node-count"), fx.id);
    assert.equal(await page.getByTestId("pending-action").count(), await num(page, "pending-action-count"), fx.id);
    assert.equal(await page.getByTestId("artifact").count(), await num(page, "artifact-count"), fx.id);
    assert.equal(await page.getByTestId("evidence").count(), await num(page, "evidence-count"), fx.id);
    if (fx.id === "subagent-handoff" || fx.id === "coding-sandbox-blocked") {
      await page.screenshot({ path: join(shots, `playground-fixture-${fx.id}.png`), fullPage: true });
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("a pasted tool event without toolCallId shows a missing_scope_id issue", opts, async () => {
  const { page, errors } = await open("/");
  await page.getByTestId("tab-paste").click();
  const ev = {
    id: "evt_paste_tool",
    schemaVersion: "lime-runtime-event/v0.1",
    runtimeId: "runtime_paste",
    threadId: "thread_paste",
    turnId: "turn_paste",
    sequence: 1,
    eventClass: "tool.started",
    kind: "tool",
    status: "running",
    title: "Tool without a call id",
    createdAt: "2026-06-10T00:00:00.000Z",
  };
  await page.getByTestId("paste-text").fill(JSON.stringify([ev]));
  await page.getByTestId("paste-go").click();
  await waitValidated(page);
  assert.equal(await num(page, "event-count"), 1);
  const issue = page.locator("[data-testid='issue'][data-code='missing_scope_id']");
  assert.ok((await issue.count()) >= 1, "missing_scope_id listed");
  assert.ok((await num(page, "issue-count")) >= 1);
  assert.match(await page.locator(".ev-row[data-index='0']").getAttribute("class"), /ev-flag-/);
  await page.getByTestId("btn-next-issue").click();
  assert.equal(await num(page, "step"), 1);
  assert.match(await text(page, "current-event"), /missing_scope_id/);
  assert.match(await text(page, "paste-note"), /1 event read/);
  await page.screenshot({ path: join(shots, "playground-paste.png"), fullPage: true });
  // Pasted input cannot be reopened from the URL; the page says so. (The URL follows the step
  // after a short debounce.)
  await page.waitForFunction(() => location.hash === "#paste&step=1", null, { timeout: 10_000 }).catch(() => {});
  assert.match(page.url(), /#paste&step=1/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("NDJSON with canonical envelopes is normalized and replayed", opts, async () => {
  const { page, errors } = await open("/");
  await page.getByTestId("tab-paste").click();
  const lines = [
    { eventId: "env_1", type: "turn.started", timestamp: "2026-06-10T00:00:00.000Z", sessionId: "session_1", threadId: "thread_1", turnId: "turn_1", sequence: 1, payload: {} },
    { eventId: "env_2", type: "turn.completed", timestamp: "2026-06-10T00:00:01.000Z", sessionId: "session_1", threadId: "thread_1", turnId: "turn_1", sequence: 2, payload: {} },
  ];
  await page.getByTestId("paste-text").fill(lines.map((l) => JSON.stringify(l)).join("\n"));
  await page.getByTestId("paste-go").click();
  await waitValidated(page);
  assert.equal(await num(page, "event-count"), 2);
  await page.getByTestId("btn-end").click();
  await stepIs(page, 2);
  assert.equal(await num(page, "timeline-entry-count"), 2);
  assert.deepEqual(await page.evaluate(strictEqualInPage, { k: 2 }), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a generated stream of 20,000 events replays to the end", opts, async (t) => {
  const { page, errors } = await open("#gen=20000&seed=7&step=0");
  assert.equal(await num(page, "event-count"), 20000);
  await page.getByTestId("btn-replay").click();
  await page.waitForSelector("[data-testid='replay-rate'][data-done='1']", { timeout: 170_000 });
  assert.equal(await num(page, "step"), 20000);
  assert.equal(await num(page, "hydration-count"), 20000);
  assert.equal(await num(page, "timeline-entry-count"), 20000);
  const batch = await page.evaluate(() => window.playground.batchState().runtime.status);
  assert.equal(await statusOf(page), batch);
  const rate = await page.evaluate(() => window.playground.replayRate());
  assert.ok(rate && rate.n === 20000 && rate.rate > 0);
  t.diagnostic(`replay all: ${Math.round(rate.rate)} events/s (${rate.ms.toFixed(0)} ms for 20,000 events)`);
  console.log(`playground replay of 20,000 events: ${Math.round(rate.rate)} events/s (${rate.ms.toFixed(0)} ms)`);
  await waitValidated(page);
  assert.equal(await num(page, "issue-count"), 0);
  assert.equal(await num(page, "violation-count"), 0);
  // Windowed rendering: the timeline shows at most 200 rows for 20,000 entries.
  assert.ok((await page.locator("#p-timeline tbody tr").count()) <= 200);
  assert.ok((await page.getByTestId("event-row").count()) < 200);
  await page.screenshot({ path: join(shots, "playground-generated-20000.png"), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the scrubber moves back and forth with state equal to the batch projection of the prefix", opts, async () => {
  const { page, errors } = await open("#gen=1500&seed=3&subagentRate=0.5&actionRate=0.5&step=0");
  const n = await num(page, "event-count");
  assert.equal(n, 1500);
  const scrub = async (k) => {
    await page.getByTestId("scrubber").evaluate((el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, k);
    await stepIs(page, k);
  };
  for (const k of [700, 1500, 250, 1, 0, 1499, 900, 901, 899, 1500, 899]) {
    await scrub(k);
    assert.equal(await num(page, "step"), k);
    assert.equal(await page.evaluate(() => window.playground.step), k);
    assert.deepEqual(await page.evaluate(strictEqualInPage, { k: k }), [], `state at step ${k}`);
    assert.equal(await num(page, "timeline-entry-count"), k);
    const batch = await page.evaluate((v) => window.playground.batchState(v).runtime.status, k);
    assert.equal(await statusOf(page), batch, `status at ${k}`);
  }
  // The projector itself (not only the state cache) is at the shown step with the same state.
  assert.deepEqual(await page.evaluate(strictEqualInPage, { k: 899, fromProjector: true }), []);
  // One step forward highlights what changed: timeline and runtime at least.
  await page.getByTestId("btn-fwd").click();
  assert.match(await text(page, "changed-keys"), /timeline/);
  assert.match(await text(page, "changed-keys"), /runtime/);
  // The URL reopens the same source and step.
  await page.waitForFunction(() => location.hash.includes("step=900"));
  const url = page.url();
  assert.match(url, /gen=1500/);
  assert.match(url, /seed=3/);
  const again = await open(url.slice(url.indexOf("#")));
  assert.equal(await num(again.page, "step"), 900);
  assert.equal(await num(again.page, "event-count"), 1500);
  assert.deepEqual(await again.page.evaluate(strictEqualInPage, { k: 900 }), []);
  await again.page.close();
  // Play at full speed to the end.
  await page.getByTestId("speed").selectOption("max");
  await page.getByTestId("btn-play").click();
  await stepIs(page, 1500);
  assert.ok((await num(page, "fig-n")) > 0 || (await text(page, "fig-p50")) !== "—");
  await page.screenshot({ path: join(shots, "playground-scrubbed.png"), fullPage: true });
  assert.deepEqual([...errors, ...again.errors], []);
  await page.close();
});

// React rendering benchmark in headless Chromium: this package's views (`/react`) fed by its
// projector through `useAgentUiProjection`, against the view package @limecloud/agent-runtime-ui
// fed by the reference projector, both in a React 19 production build made with Vite.
//
//   node bench/react.mjs [--rounds k] [--sizes 56,500,2000]   (default rounds: 31, 15, 5 by size)
//   LIME_REFERENCE_DIR=<reference tree> node bench/react.mjs     # with the reference side
//
// LIME_REFERENCE_DIR names a tree holding the reference builds
// (packages/agent-runtime-ui/dist, packages/agent-runtime-projection/dist), built outside this
// project (bench/README.md, "Reference builds"). Without it only this package's side runs.
//
// For each stream size (generateRuntimeEvents(n, 42)) and side, alternating the sides' order
// between rounds, a fresh React root renders:
// - per event: each event applied, then the state rendered, before the next event; the figure is
//   the mean of (apply + render) over the stream;
// - per frame: the stream arriving at 1,000 events/s, every event applied as it arrives and the
//   state rendered once per 1/60 s of stream time; the figure is the whole stream's work (the
//   stream's own two seconds are simulated, not waited for).
// Each figure is the median over the rounds; a 30 ms pause precedes every run (the page's pending
// timers, frames and GC work run there). The final DOM of both sides must be the same.
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
// Rounds per size (after one uncounted round): more for the small sizes, whose runs are short.
const ROUNDS = option("--rounds");
const roundsFor = (n) => Number(ROUNDS ?? (n <= 100 ? 31 : n <= 500 ? 15 : 5));
const SIZES = option("--sizes", "56,500,2000").split(",").map(Number);
const SEED = 42;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const reference = process.env.LIME_REFERENCE_DIR;
const referenceUi = reference && join(reference, "packages", "agent-runtime-ui", "dist", "index.js");
const referenceProjection = reference && join(reference, "packages", "agent-runtime-projection", "dist", "index.js");
if (reference && !(existsSync(referenceUi) && existsSync(referenceProjection))) {
  console.error(
    `bench/react: ${referenceUi} or ${referenceProjection} is missing; build the reference packages ` +
      'in that checkout first (bench/README.md, "Reference builds")',
  );
  process.exit(2);
}
for (const file of ["index.js", join("react", "index.js")]) {
  if (!existsSync(join(root, "pkg", file))) {
    console.error(`bench/react: pkg/${file} is missing; build the package first (node scripts/assemble-pkg.mjs)`);
    process.exit(2);
  }
}

const work = mkdtempSync(join(tmpdir(), "react-bench-"));
const stub = join(work, "absent.js");
writeFileSync(stub, "export {};\n");
const outDir = join(work, "dist");

const { build } = await import("vite");
await build({
  root: join(root, "bench", "react-app"),
  configFile: false,
  logLevel: "error",
  mode: "production",
  resolve: {
    alias: {
      "bench:ours-react": join(root, "pkg", "react", "index.js"),
      "bench:ours": join(root, "pkg", "index.js"),
      "bench:reference-ui": referenceUi ?? stub,
      "bench:reference-projection": referenceProjection ?? stub,
    },
    dedupe: ["react", "react-dom"],
  },
  build: { outDir, emptyOutDir: true, minify: true },
});

const TYPES = { ".html": "text/html", ".js": "text/javascript" };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  let file = normalize(join(outDir, path));
  if (!file.startsWith(outDir)) file = outDir;
  try {
    if (statSync(file).isDirectory()) file = join(file, "index.html");
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

const { chromium } = await import("playwright-core");
const browser = await chromium.launchPersistentContext(mkdtempSync(join(work, "profile-")), {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => typeof window.bench === "function");
  const available = await page.evaluate(() => window.available);
  const sides = Object.keys(available).filter((side) => available[side]);
  console.log(`bench/react: sides ${sides.join(", ")}; sizes ${SIZES.join(", ")} (${SIZES.map(roundsFor).join(", ")} rounds); seed ${SEED}`);

  // Warm-up (JIT, the module's first calls): every side through both measures twice, untimed.
  for (let i = 0; i < 2; i++) {
    for (const side of sides) {
      await page.evaluate(([s, seed]) => {
        window.bench(s, 500, "event", seed);
        window.bench(s, 500, "frame", seed);
      }, [side, SEED + 1]);
    }
  }

  const rows = [];
  for (const n of SIZES) {
    for (const mode of ["event", "frame"]) {
      const figures = Object.fromEntries(sides.map((side) => [side, []]));
      const html = {};
      const elements = {};
      let frames = 0;
      for (let round = 0; round <= roundsFor(n); round++) {
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) {
          // A pause between runs: the page's pending tasks (timers, frames, GC work) run here,
          // not inside the next run.
          await new Promise((resolve) => setTimeout(resolve, 30));
          const out = await page.evaluate(([s, size, m, seed]) => {
            const r = window.bench(s, size, m, seed);
            return { total: r.total, frames: r.frames, html: r.html, elements: r.elements };
          }, [side, n, mode, SEED]);
          // Round 0 (this size's first run) is not counted.
          if (round > 0) figures[side].push(mode === "event" ? out.total / n : out.total);
          if (html[side] !== undefined && html[side] !== out.html) throw new Error(`${side}: the DOM differs between rounds (n=${n})`);
          html[side] = out.html;
          elements[side] = out.elements;
          frames = out.frames;
        }
      }
      if (sides.length > 1 && html.ours !== html.reference) {
        throw new Error(`final DOM differs between this package and the reference (n=${n}, ${mode})`);
      }
      const row = { n, mode, frames, elements: elements.ours };
      for (const side of sides) row[side] = median(figures[side]);
      if (sides.includes("reference")) row.ratio = row.reference / row.ours;
      rows.push(row);
      console.log(
        `n=${n} ${mode}: ours ${fmt(row.ours)} ms` +
          (row.reference !== undefined ? `, reference ${fmt(row.reference)} ms, ${row.ratio.toFixed(1)}x` : "") +
          ` (${frames} renders, ${row.elements} elements)`,
      );
    }
  }
  if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);

  const hasReference = sides.includes("reference");
  const lines = [
    "",
    `| events | measure | this package | ${hasReference ? "reference | speed-up | " : ""}final DOM elements |`,
    `|---:|---|---:|${hasReference ? "---:|---:|" : ""}---:|`,
  ];
  for (const row of rows) {
    const measure = row.mode === "event" ? "per event (apply + render), mean" : `whole stream, one render per frame (${row.frames} frames)`;
    lines.push(
      `| ${row.n} | ${measure} | ${fmt(row.ours)} ms | ` +
        (hasReference ? `${fmt(row.reference)} ms | ${row.ratio.toFixed(1)}x | ` : "") +
        `${row.elements} |`,
    );
  }
  if (hasReference) {
    lines.push("", "Final DOM: identical for both sides at every size and measure.");
    const at = (n, mode) => rows.find((row) => row.n === n && row.mode === mode);
    const targets = [
      ["per frame at 2,000 events ≥ 5x", at(2000, "frame"), 5],
      ["per event at 2,000 events ≥ 3x", at(2000, "event"), 3],
      ["never slower at 56 (per event)", at(56, "event"), 1],
      ["never slower at 56 (per frame)", at(56, "frame"), 1],
    ];
    for (const [name, row, need] of targets) {
      if (row) lines.push(`- ${name}: ${row.ratio.toFixed(1)}x ${row.ratio >= need ? "met" : "NOT MET"}`);
    }
  }
  console.log(lines.join("\n"));
} finally {
  await browser.close();
  server.close();
  rmSync(work, { recursive: true, force: true });
}

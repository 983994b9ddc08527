// Quick timing of the built package (pkg/) in Node: batch projection and validation throughput.
//   node scripts/bench-pkg.mjs [--project N] [--validate N] [--rounds R]
// Prints the median of R timed rounds after one warm-up round.
import { performance } from "node:perf_hooks";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// PKG_DIR: another built package directory to time (default pkg/).
const api = await import(pathToFileURL(join(process.env.PKG_DIR ?? join(root, "pkg"), "index.node.js")).href);

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const nProject = opt("project", 20000);
const nValidate = opt("validate", 100000);
const rounds = opt("rounds", 5);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(label, fn, count, unit) {
  fn();
  const ms = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  const m = median(ms);
  const rate = count === undefined ? "" : `, ${Math.round((count / m) * 1000).toLocaleString("en-US")} ${unit}/s`;
  console.log(`${label}: median ${m.toFixed(1)} ms over ${rounds} rounds${rate}`);
  return m;
}

const projectEvents = api.generateRuntimeEvents(nProject, 42, {});
time(`projectAgentUiState ${nProject}`, () => api.projectAgentUiState({ executionEvents: projectEvents }), nProject, "events");
if (typeof api.PROJECTOR_OPTIONS !== "undefined" && api.PROJECTOR_OPTIONS.includes("redactSecrets")) {
  time(
    `projectAgentUiState ${nProject} redactSecrets`,
    () => api.projectAgentUiState({ executionEvents: projectEvents }, { redactSecrets: true }),
    nProject,
    "events",
  );
}

const validateEvents = api.generateRuntimeEvents(nValidate, 42, {});
time(
  `collectRuntimeEventValidationIssues x ${nValidate} (one call per event)`,
  () => {
    let n = 0;
    for (const e of validateEvents) n += api.collectRuntimeEventValidationIssues(e).length;
    return n;
  },
  nValidate,
  "events",
);
if (typeof api.collectRuntimeEventsValidationIssues === "function") {
  time(
    `collectRuntimeEventsValidationIssues(${nValidate} events)`,
    () => api.collectRuntimeEventsValidationIssues(validateEvents),
    nValidate,
    "events",
  );
}

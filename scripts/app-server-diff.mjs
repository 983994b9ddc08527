// Differential run of the appServerFacts exports: random App Server facts (well-formed, or with
// odd values when ODD=1) through the package (pkg/) and through a local reference build, compared
// with deepStrictEqual (results) or by class and message (thrown errors).
//
//   LIME_REFERENCE_DIR=/path/to/lime node scripts/app-server-diff.mjs
//   env: N (cases, 500), SEED (1), ODD=1 (odd values), MAXN (max events per case, 8),
//        NOSTRSEQ=1 (numeric sequences only), RUNS=1 (long ascending runs: the sort's merges),
//        SEQP (share of events with a sequence, 0.7), SHOWPROJ=1 (print the refused projections)
//
// LIME_REFERENCE_DIR names a local build of the reference packages (agent-runtime-projection's
// dist/; bench/README.md, "Reference builds"); nothing of it is kept here. Cases where
// our replay refuses an event the core projection does not take (a fact of the wrong type copied
// into an event field: docs/design.md, check_event) are counted apart, not compared.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const lime = process.env.LIME_REFERENCE_DIR;
if (!lime) throw new Error("app-server-diff: set LIME_REFERENCE_DIR to a local reference checkout with a built dist/");
const ref = await import(pathToFileURL(join(lime, "packages", "agent-runtime-projection", "dist", "index.js")).href);
const ours = await import(new URL("../pkg/index.node.js", import.meta.url).href);
let seed = Number(process.env.SEED ?? 1);
function rnd() { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; }
const pick = (a) => a[Math.floor(rnd() * a.length)];
const maybe = (p, f) => (rnd() < p ? f() : undefined);
const ODD = process.env.ODD === "1";
const strs = ["", "  ", " x ", "completed", "Completed", "failed", "canceled", "cancelled", "running", "queued", "waitingAction", "accepted", "idle", "done", "closed", "expired", "blocked", "needs_input", "success", "error", "not_found", "pending", "waiting", "aborted"];
const types = ["message.delta", "message.delta_batch", "message", "message.completed", "item.completed", "thinking.delta", "artifact.snapshot", "runtime.status", "turn.completed", " Turn.Failed ", "turn.canceled", "turn.final_done", "done", "turn.cancelled", "tool.started", "tool.result", "tool.failed", "tool.progress", "action.required", "action.resolved", "action.expired", "handoff.requested", "handoff.completed", "review.verdict", "task.updated", "task.created", "subagent.started", "subagent.status_changed", "subagent_status_changed", "evidence.changed", "runtime.error", "plan.final", "agent.changed", "x.custom"];
const stamps = ["2026-06-10T00:00:00.000Z", "2026-06-10T00:00:01.000Z", "2026-06-10T00:00:00Z", "2026-06-10T00:00:02.000Z", "2026-06-09T23:59:59.000Z", "b", "A", "a"];
function oddVal() { return pick([null, 5, true, {}, [], "s", [1, "a"], { a: { b: 1 } }, 0, "", " 7 "]); }
function val(p, gen) { if (ODD && rnd() < 0.06) return oddVal(); return maybe(p, gen); }
function payload() {
  const p = {};
  const keys = ["text", "delta", "message", "status", "runtime_status", "state", "request_id", "requestId", "action_id", "id", "toolCallId", "tool_call_id", "artifactRefs", "artifact_ref", "artifactId", "evidenceRefs", "evidenceRef", "evidenceId", "taskId", "subagentId", "runId", "step_id", "title", "name", "toolName", "detail", "error", "reason", "refIds", "messageId", "message_id", "action_type", "actionType", "controls", "content", "metadata", "result", "parentThreadId", "transcript_ref", "handoffId", "collaborationFacts", "soulLifecycle", "styleLevel", "riskLevel", "profile_id", "sessionId", "sourceType", "plan", "0", "__proto__"];
  const n = Math.floor(rnd() * 7);
  for (let i = 0; i < n; i++) {
    const k = pick(keys);
    let v;
    switch (k) {
      case "artifactRefs": case "evidenceRefs": case "refIds": case "controls": v = pick([[" a ", "b", "a", 3, ""], "c", [], ["approve"]]); break;
      case "message": v = pick(["hi", { text: " msg ", id: "m1", content: [{ text: "p1" }, { content: "p2" }, 5] }, { content: [{ text: "" }] }]); break;
      case "content": v = [{ text: "c1" }, { text: " " }, { content: "c2" }]; break;
      case "metadata": v = pick([{ soul_lifecycle: { surface: "s", phase: "p", styleLevel: "L2", riskLevel: "high", profileId: "pid", packId: "pk", toneVariant: "tv" }, tool_process_facts: { riskLevel: "low", styleLevel: "L3" }, collaboration_facts: { source: "x", status: "s", surface: " sf " }, riskLevel: "mid" }, { processSummary: { a: 1 } }, {}]); break;
      case "result": v = { metadata: { toolProcessSummary: { x: 1 }, soulPhase: "ph" } }; break;
      case "collaborationFacts": v = { taskId: "t9", riskLevel: "r", extra: [1] }; break;
      case "soulLifecycle": v = { surface: "sx" }; break;
      case "plan": v = [{ step: "a", status: "completed" }]; break;
      case "__proto__": v = { polluted: 1 }; break;
      default: v = pick(strs.concat(["tool-1", "req-1", "art-1", " ev-1 ", "t-1"]));
    }
    if (k === "__proto__") Object.defineProperty(p, k, { value: v, enumerable: true, writable: true, configurable: true });
    else p[k] = v;
  }
  return p;
}
function eventFact(i) {
  const e = {
    eventId: val(0.95, () => pick(["e1", "e2", "e3", "e4", `e${i}`, `e${i}`])),
    sequence: val(Number(process.env.SEQP ?? 0.7), () => process.env.NOSTRSEQ ? (process.env.RUNS ? i + pick([0, 0, 0, 50, -30]) : pick([1, 2, 3, 2, 5, 0, -1, 1.5, 7, 9])) : pick([1, 2, 3, 2, 5, "4", " 6 ", 0, -1, 1.5])),
    sessionId: val(0.7, () => pick(["s1", "s2"])),
    threadId: val(0.6, () => pick(["t1", "t2", null])),
    turnId: val(0.6, () => pick(["u1", "u2"])),
    type: ODD && rnd() < 0.03 ? pick([undefined, null, 5]) : pick(types),
    timestamp: val(0.8, () => pick(stamps)),
    payload: ODD && rnd() < 0.1 ? oddVal() : maybe(0.9, payload),
  };
  for (const k of Object.keys(e)) if (e[k] === undefined) delete e[k];
  return e;
}
function session() {
  return { sessionId: val(0.9, () => pick(["s1", "s2"])), threadId: val(0.8, () => "t1"), appId: val(0.3, () => "app"), workspaceId: val(0.2, () => "w"), status: val(0.8, () => pick(strs)), createdAt: val(0.5, () => pick(stamps)), updatedAt: val(0.5, () => pick(stamps.concat(["  "]))) };
}
function turns() { const n = Math.floor(rnd() * 4); return Array.from({ length: n }, () => ({ turnId: val(0.9, () => pick(["u1", "u2", "u3"])), sessionId: val(0.3, () => "s9"), threadId: val(0.3, () => "t9"), status: val(0.8, () => pick(strs)), startedAt: val(0.5, () => pick(stamps)), completedAt: val(0.5, () => pick(stamps)) })); }
function input() {
  const nEvents = Math.floor(rnd() * (Number(process.env.MAXN ?? 8)));
  const inp = {};
  if (rnd() < 0.5) inp.readModel = { session: session(), turns: maybe(0.8, turns), detail: { big: true } };
  if (rnd() < 0.9) inp.events = Array.from({ length: nEvents }, (_, i) => eventFact(i));
  if (rnd() < 0.4) inp.evidenceExport = { session: session(), turns: maybe(0.5, turns), events: maybe(0.5, () => Array.from({ length: 3 }, (_, i) => eventFact(i))), artifacts: maybe(0.7, () => [{ artifactRef: val(0.8, () => pick(["r1", " r2 ", "  "])), eventId: "ev", sequence: val(0.5, () => pick([3, "2"])), turnId: "u1", artifactId: val(0.5, () => "a1"), path: val(0.5, () => "p.md"), title: val(0.5, () => "T"), kind: val(0.5, () => "doc"), status: val(0.5, () => pick(["failed", "ok"])), contentStatus: "x", metadata: val(0.5, () => ({ m: [1] })) }]), exportedAt: val(0.7, () => pick(stamps)), evidencePack: maybe(0.7, () => ({ packRelativeRoot: val(0.8, () => pick([" root ", "r", ""])), exportedAt: val(0.5, () => pick(stamps)), turnCount: 2, knownGaps: ["g"], artifacts: [{ kind: "k" }] })) };
  if (rnd() < 0.3) inp.sourceCount = pick([3, 0, 10]);
  return inp;
}
function outcome(f) { try { return { ok: f() }; } catch (e) { return { err: `${e.constructor.name}: ${e.message}` }; } }
let fails = 0, errs = 0, same = 0, projErr = 0;
const N = Number(process.env.N ?? 500);
for (let i = 0; i < N; i++) {
  const inp = input();
  const which = pick(["replay", "replay", "events", "session", "export"]);
  const rm = inp.readModel ?? { session: session() };
  const ex = inp.evidenceExport ?? { session: session() };
  const call = (api) => {
    if (which === "replay") return api.replayAppServerFacts(inp);
    if (which === "events") return api.projectAppServerEventsToExecutionEvents(inp.events);
    if (which === "session") return api.projectAppServerSessionReadToExecutionEvents(rm);
    return api.projectAppServerEvidenceExportToExecutionEvents(ex);
  };
  const a = outcome(() => call(ref)), b = outcome(() => call(ours));
  try {
    if (a.err || b.err) {
      if (b.err && b.err.includes("cannot be projected")) { projErr++; if (process.env.SHOWPROJ) console.log(b.err, "| ref:", a.err ?? "ok"); continue; }
      assert.equal(b.err, a.err); errs++;
    } else { assert.deepStrictEqual(b.ok, a.ok); same++; }
  } catch (e) {
    fails++;
    if (fails <= 3) { console.log("MISMATCH", which, JSON.stringify(inp).slice(0, 3000)); console.log(String(e.message).slice(0, 3000)); }
  }
}
console.log({ same, errs, projErr, fails });

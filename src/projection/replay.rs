//! Conformance fixture replay (projection spec §8, the reference's `replayAgentUiFixture`).
//!
//! A fixture is validated, its events are checked by the sequence verifier, and (unless the
//! stream breaks a sequence rule the fixture does not waive) projected; the projected state is
//! then checked against the fixture's `expected` counts. A failed-closed replay projects nothing
//! and returns the empty state.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;

use serde_json::Value;

use crate::contract::event::EventError;
use crate::contract::js::js_string_to_number;
use crate::contract::sequence::{verify_runtime_event_sequence, Violation};
use crate::contract::val::{Obj, Val};
use crate::contract::validation::{collect_fixture_issues_sharing, Issue, SharedSource};
use crate::projection::coding::{single_event_actions, view_of_state, ProjectActions};
use crate::projection::projector::{projected, ProjectorCore};

/// Batch projection of a list of events (`projectAgentUiState({executionEvents})`, no
/// `sourceCount`).
pub type ProjectFn<'a> = &'a dyn Fn(&'a [Value]) -> Result<Val, EventError>;

/// The whole state of a state `ProjectFn` gave (which may leave objects to be made).
type FullFn<'a> = &'a dyn Fn(&Val) -> Val;

/// The outcome of one replay (`AgentUiFixtureReplayResult`).
#[derive(Clone, Debug)]
pub struct ReplayResult {
    /// `fixture.id` as given.
    pub fixture_id: Val,
    pub state: Val,
    pub validation_issues: Vec<Issue>,
    pub sequence_violations: Vec<Violation>,
    pub failed_closed: bool,
    pub diagnostics: Vec<String>,
    pub passed: bool,
}

impl ReplayResult {
    /// The reference's result object, 7 keys.
    pub fn to_val(&self) -> Val {
        Obj::new()
            .k("fixtureId", self.fixture_id.clone())
            .k("state", self.state.clone())
            .k(
                "validationIssues",
                Val::arr(self.validation_issues.iter().map(Issue::to_val).collect()),
            )
            .k(
                "sequenceViolations",
                Val::arr(
                    self.sequence_violations
                        .iter()
                        .map(Violation::to_val)
                        .collect(),
                ),
            )
            .k("failedClosed", Val::Bool(self.failed_closed))
            .k(
                "diagnostics",
                Val::arr(self.diagnostics.iter().map(|d| Val::str(d)).collect()),
            )
            .k("passed", Val::Bool(self.passed))
            .into_val()
    }
}

/// The diagnostics the fixture waives (`expected.diagnostics`; only string entries count).
fn waived(fixture: &Value) -> Vec<&str> {
    fixture
        .get("expected")
        .and_then(|e| e.get("diagnostics"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// JS `len < expected` with `expected` coerced to a number (`undefined` skips the check).
fn below(len: usize, expected: Option<&Value>) -> bool {
    let x = match expected {
        None => return false,
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
        Some(Value::Null) => 0.0,
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(Value::String(s)) => js_string_to_number(s),
        Some(_) => f64::NAN,
    };
    (len as f64) < x
}

/// JS `len !== expected` (`undefined` skips the check).
fn differs(len: usize, expected: Option<&Value>) -> bool {
    match expected {
        None => false,
        Some(Value::Number(n)) => n.as_f64() != Some(len as f64),
        Some(_) => true,
    }
}

fn arr_len(v: Option<&Val>) -> usize {
    v.and_then(Val::as_arr).map(<[Val]>::len).unwrap_or(0)
}

fn count_status(v: Option<&Val>, status: &str) -> usize {
    v.and_then(Val::as_arr)
        .unwrap_or(&[])
        .iter()
        .filter(|x| x.get("status").and_then(Val::as_str) == Some(status))
        .count()
}

fn replay_diagnostics(
    fixture: &Value,
    events: &[Value],
    state: &Val,
    full: FullFn<'_>,
    issues: &[Issue],
    project_actions: ProjectActions<'_>,
) -> Vec<String> {
    let mut out: Vec<String> = issues.iter().map(|i| i.code.to_string()).collect();
    let empty = Value::Null;
    let expected = fixture.get("expected").unwrap_or(&empty);
    let exp = |k: &str| expected.get(k);
    let st = |k: &str| state.get(k);
    let mut push = |cond: bool, code: &str| {
        if cond {
            out.push(code.to_string());
        }
    };
    push(
        below(arr_len(st("messages")), exp("messagePartCount")),
        "message_parts_below_expected",
    );
    push(
        below(arr_len(st("timeline")), exp("timelineEntryCount")),
        "timeline_entries_below_expected",
    );
    push(
        below(arr_len(st("graph")), exp("graphNodeCount")),
        "graph_nodes_below_expected",
    );
    push(
        differs(
            arr_len(st("readModel").and_then(|r| r.get("pendingActions"))),
            exp("pendingActionCount"),
        ),
        "pending_actions_mismatch",
    );
    push(
        below(arr_len(st("artifacts")), exp("artifactCount")),
        "artifacts_below_expected",
    );
    push(
        below(arr_len(st("evidence")), exp("evidenceCount")),
        "evidence_below_expected",
    );

    if let Some(c) = exp("coding").filter(|c| !c.is_null()) {
        let model = view_of_state(state, full, events, None, project_actions);
        let m = |k: &str| model.get(k);
        let ce = |k: &str| c.get(k);
        push(
            below(arr_len(m("files")), ce("fileCount")),
            "coding_files_below_expected",
        );
        push(
            below(arr_len(m("changes")), ce("changeCount")),
            "coding_changes_below_expected",
        );
        push(
            below(arr_len(m("patches")), ce("patchCount")),
            "coding_patches_below_expected",
        );
        push(
            below(arr_len(m("commands")), ce("commandCount")),
            "coding_commands_below_expected",
        );
        push(
            below(arr_len(m("tests")), ce("testCount")),
            "coding_tests_below_expected",
        );
        push(
            differs(
                count_status(m("diagnostics"), "blocked"),
                ce("blockedCount"),
            ),
            "coding_blocked_count_mismatch",
        );
        push(
            differs(count_status(m("patches"), "failed"), ce("failedPatchCount")),
            "coding_failed_patch_count_mismatch",
        );
        push(
            differs(count_status(m("tests"), "failed"), ce("failedTestCount")),
            "coding_failed_test_count_mismatch",
        );
    }

    if let Some(s) = exp("subagents").filter(|s| !s.is_null()) {
        let model = st("subagents");
        let m = |k: &str| model.and_then(|x| x.get(k));
        let se = |k: &str| s.get(k);
        push(
            match se("hasSubagents") {
                None => false,
                Some(Value::Bool(b)) => !matches!(m("hasSubagents"), Some(Val::Bool(x)) if x == b),
                Some(_) => true,
            },
            "subagents_surface_mismatch",
        );
        push(
            below(arr_len(m("threads")), se("threadCount")),
            "subagent_threads_below_expected",
        );
        push(
            below(arr_len(m("delegationCalls")), se("delegationCallCount")),
            "subagent_delegation_calls_below_expected",
        );
        push(
            below(arr_len(m("activities")), se("activityCount")),
            "subagent_activities_below_expected",
        );
        push(
            differs(arr_len(m("activeThreadIds")), se("activeThreadCount")),
            "subagent_active_threads_mismatch",
        );
        push(
            differs(arr_len(m("completedThreadIds")), se("completedThreadCount")),
            "subagent_completed_threads_mismatch",
        );
        push(
            differs(arr_len(m("failedThreadIds")), se("failedThreadCount")),
            "subagent_failed_threads_mismatch",
        );
    }

    let w = waived(fixture);
    out.retain(|d| !w.contains(&d.as_str()));
    out
}

/// Replay a fixture with the given batch projection (`project`) and single-event action
/// projection (used by the coding view only when a read model is given, never here).
pub fn replay_with<'a>(
    fixture: &'a Value,
    project: ProjectFn<'a>,
    project_actions: ProjectActions<'_>,
) -> Result<ReplayResult, EventError> {
    replay_inner(
        fixture,
        &|_, _, _| None,
        project,
        &Val::clone,
        project_actions,
    )
}

/// `fixture.events` when it is an array (else none); inlined (as a call the module is 33 B
/// larger).
#[inline(always)]
fn fixture_events(fixture: &Value) -> &[Value] {
    fixture
        .get("events")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// [`replay_with`], where `full` gives the whole state of what `project` returns.
fn replay_inner<'a>(
    fixture: &'a Value,
    shared: SharedSource<'_, 'a>,
    project: ProjectFn<'a>,
    full: FullFn<'_>,
    project_actions: ProjectActions<'_>,
) -> Result<ReplayResult, EventError> {
    let validation_issues = collect_fixture_issues_sharing(fixture, "$", shared);
    let events = fixture_events(fixture);
    let w = waived(fixture);
    let sequence_violations: Vec<Violation> = verify_runtime_event_sequence(events)
        .into_iter()
        .filter(|v| !w.contains(&v.code))
        .collect();
    let failed_closed = !sequence_violations.is_empty();
    let (state, diagnostics) = if failed_closed {
        (
            project(&[])?,
            sequence_violations
                .iter()
                .map(|v| v.code.to_string())
                .collect(),
        )
    } else {
        let state = project(events)?;
        let d = replay_diagnostics(
            fixture,
            events,
            &state,
            full,
            &validation_issues,
            project_actions,
        );
        (state, d)
    };
    let passed = !failed_closed && validation_issues.is_empty() && diagnostics.is_empty();
    Ok(ReplayResult {
        fixture_id: fixture.get("id").map(Val::from_json).unwrap_or(Val::Undef),
        state,
        validation_issues,
        sequence_violations,
        failed_closed,
        diagnostics,
        passed,
    })
}

/// `replayAgentUiFixture(fixture)` with the crate's batch projection.
pub fn replay_fixture(fixture: &Value) -> Result<ReplayResult, EventError> {
    replay_with(
        fixture,
        &|events: &[Value]| crate::projection::projector::project(events, None),
        &single_event_actions,
    )
}

/// `replayAgentUiFixture(fixture)`'s result handed to `write` with the projector that made its
/// state (none when the stream failed closed), to be written as a batch projection's state is
/// ([`ProjectorCore::write_tape`]: the objects made from event `i` and the long strings copied
/// from it are references to `fixture.events[i]`); the state is built whole only for the
/// coding view's checks.
///
/// `shared`: the read models' sources known to be the fixture's events, as flat quadruples
/// `(read model, list, index, event)` ([`SharedSource`]) in ascending order; each is validated
/// as `fixture.events[event]` (the wrapper names only events it found equal; a quadruple that
/// names no event leaves the projection's own source to be validated).
pub fn write_replay<R>(
    fixture: &Value,
    shared: &[u32],
    write: impl FnOnce(&Val, Option<&ProjectorCore<'_>>) -> R,
) -> Result<R, EventError> {
    let events = fixture_events(fixture);
    // The quadruples come in the order the validation asks for them (ascending); a cursor
    // passes over those it never asks for.
    let at = Cell::new(0usize);
    let source_of = |model: usize, list: usize, index: usize| loop {
        let p = at.get();
        let &[m, l, i, event] = shared.get(p..p.checked_add(4)?)? else {
            return None;
        };
        match [m, l, i].map(|x| x as usize).cmp(&[model, list, index]) {
            Ordering::Less => at.set(p + 4),
            Ordering::Equal => return events.get(event as usize),
            Ordering::Greater => return None,
        }
    };
    let core: RefCell<Option<ProjectorCore<'_>>> = RefCell::new(None);
    let project = |events| {
        let p = projected(events, Val::Num(0.0), false)?;
        let state = p.state_compact()?;
        *core.borrow_mut() = Some(p);
        Ok(state)
    };
    let full = |v: &Val| match core.borrow().as_ref() {
        Some(p) => p.expand(v),
        None => v.clone(),
    };
    let result =
        replay_inner(fixture, &source_of, &project, &full, &single_event_actions)?.to_val();
    let written = write(&result, core.borrow().as_ref());
    Ok(written)
}

/// `replayAgentUiFixture(fixture)` as the reference's result object (7 keys). `Val::Event(i)`
/// in `state` is `fixture.events[i]`.
pub fn replay_agent_ui_fixture(fixture: &Value) -> Result<Val, EventError> {
    replay_fixture(fixture).map(|r| r.to_val())
}

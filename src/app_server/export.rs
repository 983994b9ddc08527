//! `evidence/export` results: the exported events, the session and its turns, one
//! `artifact.changed` event per artifact summary that has a ref, and one `evidence.changed`
//! event for the evidence pack. Large outputs stay behind their refs.

use serde_json::Value;

use super::access::{coalesce, defined_string, get, is_nullish, member, number_like, Js};
use super::notification::project_events;
use super::out::{object, Out};
use super::session::project_session;
use super::{
    id_of, Builder, Built, ExecutionEvents, FactsError, Stamp, DEFAULT_TIMESTAMP, RUNTIME_ID,
    SCHEMA_VERSION,
};

/// `projectAppServerEvidenceExportToExecutionEvents(exportFacts)`: the exported events, the
/// session read, the artifacts and the evidence pack, deduplicated by id.
pub fn project_app_server_evidence_export_to_execution_events(
    facts: Js<'_>,
) -> Result<ExecutionEvents<'_>, FactsError> {
    let mut b = Builder::default();
    project_evidence_export(facts, &mut b)?;
    Ok(b.into_events())
}

/// Build the events of an evidence export into `b`.
pub fn project_evidence_export<'a>(facts: Js<'a>, b: &mut Builder<'a>) -> Result<(), FactsError> {
    project_events(get(facts, "events")?, b)?;
    let session = member(facts, "session");
    project_session(session, member(facts, "turns"), b)?;
    let exported_at = member(facts, "exportedAt");
    project_artifacts(member(facts, "artifacts"), session, exported_at, b)?;
    project_evidence_pack(member(facts, "evidencePack"), session, exported_at, b)
}

/// `createdAt` of an exported fact: its time, else the default.
fn created_at(at: Js<'_>) -> Out<'_> {
    if is_nullish(at) {
        Out::Lit(DEFAULT_TIMESTAMP)
    } else {
        Out::fact(at)
    }
}

fn project_artifacts<'a>(
    artifacts: Js<'a>,
    session: Js<'a>,
    exported_at: Js<'a>,
    b: &mut Builder<'a>,
) -> Result<(), FactsError> {
    let list = match artifacts {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(items)) => items,
        Some(_) => {
            return Err(FactsError(
                "(artifacts ?? []).filter is not a function".to_owned(),
            ))
        }
    };
    // Every artifact's ref is checked before any is projected (a filter, then a map).
    let mut kept = Vec::with_capacity(list.len());
    for artifact in list {
        let r = get(Some(artifact), "artifactRef")?;
        if let Some(trimmed) = defined_string(r)? {
            kept.push((artifact, r, trimmed));
        }
    }
    for (artifact, r, trimmed) in kept {
        let a = Some(artifact);
        let raw_ref = r.and_then(Value::as_str).unwrap_or(trimmed);
        let id = id_of("appserver:artifact:", raw_ref, "");
        let failed = member(a, "status").and_then(Value::as_str) == Some("failed");
        let sequence = member(a, "sequence");
        let title = match member(a, "title") {
            None | Some(Value::Null) => Out::Lit("Artifact changed"),
            t => Out::fact(t),
        };
        let payload = object(vec![
            ("artifactRef", Out::fact(r)),
            ("path", Out::fact(member(a, "path"))),
            ("kind", Out::fact(member(a, "kind"))),
            ("contentStatus", Out::fact(member(a, "contentStatus"))),
            ("sourceEventId", Out::fact(member(a, "eventId"))),
            ("metadata", Out::fact(member(a, "metadata"))),
        ]);
        let event = object(vec![
            ("id", Out::Shared(id.clone())),
            ("schemaVersion", Out::Lit(SCHEMA_VERSION)),
            ("kind", Out::Lit("draft")),
            ("owner", Out::Lit("artifact")),
            (
                "status",
                Out::Lit(if failed { "failed" } else { "completed" }),
            ),
            ("eventClass", Out::Lit("artifact.changed")),
            ("runtimeId", Out::Lit(RUNTIME_ID)),
            ("threadId", Out::fact(member(session, "threadId"))),
            ("turnId", Out::fact(member(a, "turnId"))),
            (
                "artifactId",
                Out::fact(coalesce(member(a, "artifactId"), r)),
            ),
            ("artifactRefs", Out::texts(&[trimmed])),
            ("sequence", Out::fact(sequence)),
            ("title", title),
            (
                "detail",
                Out::fact(coalesce(member(a, "path"), member(a, "kind"))),
            ),
            ("payload", payload),
            ("createdAt", created_at(exported_at)),
            ("completedAt", Out::fact(exported_at)),
        ]);
        b.push(Built {
            id,
            event,
            sequence: number_like(sequence),
            created: Stamp::of(exported_at),
        });
    }
    Ok(())
}

fn project_evidence_pack<'a>(
    pack: Js<'a>,
    session: Js<'a>,
    exported_at: Js<'a>,
    b: &mut Builder<'a>,
) -> Result<(), FactsError> {
    // `evidencePack?.packRelativeRoot`: a nullish pack has no root.
    let Some(root) = defined_string(member(pack, "packRelativeRoot"))? else {
        return Ok(());
    };
    let id = id_of("appserver:evidence:", root, "");
    let at = coalesce(member(pack, "exportedAt"), exported_at);
    let mut payload = Vec::with_capacity(12);
    for key in [
        "packRelativeRoot",
        "packAbsoluteRoot",
        "exportedAt",
        "threadStatus",
        "latestTurnStatus",
        "turnCount",
        "itemCount",
        "pendingRequestCount",
        "queuedTurnCount",
        "recentArtifactCount",
        "knownGaps",
        "artifacts",
    ] {
        let v = if key == "exportedAt" {
            at
        } else {
            member(pack, key)
        };
        payload.push((key, Out::fact(v)));
    }
    let event = object(vec![
        ("id", Out::Shared(id.clone())),
        ("schemaVersion", Out::Lit(SCHEMA_VERSION)),
        ("kind", Out::Lit("evidence")),
        ("owner", Out::Lit("evidence")),
        ("status", Out::Lit("completed")),
        ("eventClass", Out::Lit("evidence.changed")),
        ("runtimeId", Out::Lit(RUNTIME_ID)),
        ("threadId", Out::fact(member(session, "threadId"))),
        ("evidenceId", Out::Text(root)),
        ("evidenceRefs", Out::texts(&[root])),
        ("title", Out::Lit("Evidence pack exported")),
        ("detail", Out::Text(root)),
        ("payload", object(payload)),
        ("createdAt", created_at(at)),
        ("completedAt", Out::fact(at)),
    ]);
    b.push(Built {
        id,
        event,
        sequence: None,
        created: Stamp::of(at),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn events(v: &Value) -> Result<Vec<Value>, String> {
        project_app_server_evidence_export_to_execution_events(Some(v))
            .map(|e| e.to_json())
            .map_err(|e| e.0)
    }

    #[test]
    fn artifacts_and_the_evidence_pack() {
        let facts = json!({
            "session": {"sessionId": "s", "threadId": "t"},
            "artifacts": [
                {"artifactRef": " r1 ", "sequence": "3", "path": "a.md", "status": "failed",
                 "metadata": {"m": 1}},
                {"artifactRef": "  "},
                {"title": "no ref"}
            ],
            "exportedAt": "X",
            "evidencePack": {"packRelativeRoot": " root ", "turnCount": 2, "knownGaps": []}
        });
        let got = events(&facts).unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0]["id"], json!("appserver:session:s:snapshot"));
        assert_eq!(
            got[1],
            json!({"id": "appserver:artifact: r1 ", "schemaVersion": "lime-runtime-event/v0.1",
                "kind": "draft", "owner": "artifact", "status": "failed",
                "eventClass": "artifact.changed", "runtimeId": "app-server", "threadId": "t",
                "artifactId": " r1 ", "artifactRefs": ["r1"], "sequence": "3",
                "title": "Artifact changed", "detail": "a.md",
                "payload": {"artifactRef": " r1 ", "path": "a.md", "metadata": {"m": 1}},
                "createdAt": "X", "completedAt": "X"})
        );
        assert_eq!(
            got[2],
            json!({"id": "appserver:evidence:root", "schemaVersion": "lime-runtime-event/v0.1",
                "kind": "evidence", "owner": "evidence", "status": "completed",
                "eventClass": "evidence.changed", "runtimeId": "app-server", "threadId": "t",
                "evidenceId": "root", "evidenceRefs": ["root"], "title": "Evidence pack exported",
                "detail": "root",
                "payload": {"packRelativeRoot": " root ", "exportedAt": "X", "turnCount": 2,
                    "knownGaps": []},
                "createdAt": "X", "completedAt": "X"})
        );
    }

    #[test]
    fn odd_exports() {
        assert_eq!(
            events(&json!(null)),
            Err("Cannot read properties of null (reading 'events')".into())
        );
        assert_eq!(
            events(&json!({"session": {}, "artifacts": {}})),
            Err("(artifacts ?? []).filter is not a function".into())
        );
        assert_eq!(
            events(&json!({"session": {}, "artifacts": [null]})),
            Err("Cannot read properties of null (reading 'artifactRef')".into())
        );
        assert_eq!(
            events(&json!({"session": {}, "evidencePack": {"packRelativeRoot": 1}})),
            Err("value?.trim is not a function".into())
        );
        let got = events(&json!({"session": {}, "evidencePack": "x"})).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0]["createdAt"], json!("1970-01-01T00:00:00.000Z"));
    }
}

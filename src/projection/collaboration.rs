//! The collaboration view carried by subagent threads, delegation calls and activities
//! (projection spec §3.11.4, the reference's `buildAgentUiCollaborationPayloadMetadata`).
//!
//! The view names where a collaboration happens (surface, phase), its style and risk levels and a
//! flat `collaborationFacts` record. Facts already present in the payload (under
//! `collaborationFacts` / `collaboration_facts`) are kept, then the headline fields are
//! written over them.

use serde_json::{Map, Value};

use crate::contract::event::{obj_get, trim_str_in};
use crate::contract::js::js_trim;
use crate::contract::val::{Obj, Val};

/// What the caller knows about one collaboration step. Strings are raw (untrimmed); `None`
/// stands for JS `undefined`/`null`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CollabInput<'a> {
    pub source_type: Option<&'a str>,
    pub collaboration_kind: Option<&'a str>,
    pub surface: Option<&'a str>,
    pub phase: Option<&'a str>,
    pub status: Option<&'a str>,
    pub runtime_entity: Option<&'a str>,
    pub runtime_status: Option<&'a str>,
    pub latest_turn_status: Option<&'a str>,
    pub task_id: Option<&'a str>,
    pub agent_id: Option<&'a str>,
    pub parent_thread_id: Option<&'a str>,
    pub transcript_ref: Option<&'a str>,
    pub handoff_id: Option<&'a str>,
    pub style_level: Option<&'a str>,
    pub risk_level: Option<&'a str>,
    pub tone_variant: Option<&'a str>,
    pub profile_id: Option<&'a str>,
    pub pack_id: Option<&'a str>,
    pub metadata: Option<&'a Value>,
    pub payload: Option<&'a Value>,
}

/// `readRecord`: a JSON object (arrays and scalars are not records).
fn record(v: Option<&Value>) -> Option<&Map<String, Value>> {
    v.and_then(Value::as_object)
}

/// `definedString`: trimmed, `None` when blank.
fn defined(s: Option<&str>) -> Option<&str> {
    s.map(js_trim).filter(|t| !t.is_empty())
}

/// Trimmed string field of an optional record.
fn rec_str<'a>(rec: Option<&'a Map<String, Value>>, keys: &[&str]) -> Option<&'a str> {
    rec.and_then(|r| trim_str_in(r, keys))
}

/// The records searched for collaboration facts: each source, its `metadata`, its `payload`,
/// `payload.metadata` and `result.metadata`, those that are records, in that order.
fn metadata_records(sources: [Option<&Value>; 2]) -> Vec<&Map<String, Value>> {
    let mut out = Vec::new();
    for src in sources {
        let Some(rec) = record(src) else { continue };
        let payload = record(obj_get(rec, "payload"));
        let result = record(obj_get(rec, "result"));
        out.push(rec);
        out.extend(record(obj_get(rec, "metadata")));
        out.extend(payload);
        out.extend(payload.and_then(|p| record(obj_get(p, "metadata"))));
        out.extend(result.and_then(|r| record(obj_get(r, "metadata"))));
    }
    out
}

fn first_record<'a>(
    records: &[&'a Map<String, Value>],
    keys: &[&str],
) -> Option<&'a Map<String, Value>> {
    records
        .iter()
        .find_map(|r| keys.iter().find_map(|k| record(obj_get(r, k))))
}

fn first_str<'a>(records: &[&'a Map<String, Value>], keys: &[&str]) -> Option<&'a str> {
    records.iter().find_map(|r| trim_str_in(r, keys))
}

fn opt(s: Option<&str>) -> Val {
    Val::opt_str(s)
}

/// Build the collaboration view (§3.11.4). `collaborationFacts`, `styleLevel` and `riskLevel`
/// are always present; the other keys only when they have a value.
pub fn build_collaboration_payload_metadata(input: &CollabInput<'_>) -> Val {
    let records = metadata_records([input.payload, input.metadata]);
    let facts0 = first_record(&records, &["collaborationFacts", "collaboration_facts"]);
    let soul = first_record(&records, &["soulLifecycle", "soul_lifecycle"]);

    let surface = defined(input.surface)
        .or_else(|| {
            rec_str(
                facts0,
                &["collaborationSurface", "collaboration_surface", "surface"],
            )
        })
        .or_else(|| first_str(&records, &["collaborationSurface", "collaboration_surface"]));
    let phase = defined(input.phase)
        .or_else(|| {
            rec_str(
                facts0,
                &["collaborationPhase", "collaboration_phase", "phase"],
            )
        })
        .or_else(|| first_str(&records, &["collaborationPhase", "collaboration_phase"]));
    let level = |given: Option<&'static str>, own: Option<&str>, keys: &[&str]| -> Option<String> {
        defined(own)
            .or_else(|| first_str(&records, keys))
            .or_else(|| rec_str(facts0, keys))
            .or_else(|| rec_str(soul, keys))
            .or(given)
            .map(str::to_owned)
    };
    let style_level = level(
        Some("L1"),
        input.style_level,
        &["styleLevel", "style_level"],
    );
    let risk_level = level(
        Some("normal"),
        input.risk_level,
        &["riskLevel", "risk_level"],
    );
    let tone_variant = level(None, input.tone_variant, &["toneVariant", "tone_variant"]);
    let profile_id = level(None, input.profile_id, &["profileId", "profile_id"]);
    let pack_id = level(None, input.pack_id, &["packId", "pack_id"]);

    let mut facts = match facts0 {
        Some(m) => match Val::from_json(&Value::Object(m.clone())) {
            Val::Obj(o) => (*o).clone(),
            _ => Obj::new(),
        },
        None => Obj::new(),
    };
    let named =
        |own: Option<&str>, keys: &[&str]| opt(defined(own).or_else(|| rec_str(facts0, keys)));
    facts.set(
        "source",
        Val::str(rec_str(facts0, &["source"]).unwrap_or("projection_facts")),
    );
    facts.set(
        "surface",
        Val::str(rec_str(facts0, &["surface"]).unwrap_or("collaboration")),
    );
    facts.set("collaborationSurface", opt(surface));
    facts.set("collaborationPhase", opt(phase));
    facts.set(
        "collaborationKind",
        named(
            input.collaboration_kind,
            &["collaborationKind", "collaboration_kind"],
        ),
    );
    facts.set(
        "sourceType",
        named(input.source_type, &["sourceType", "source_type"]),
    );
    facts.set("status", named(input.status, &["status"]));
    facts.set(
        "runtimeEntity",
        named(input.runtime_entity, &["runtimeEntity", "runtime_entity"]),
    );
    facts.set(
        "runtimeStatus",
        named(input.runtime_status, &["runtimeStatus", "runtime_status"]),
    );
    facts.set(
        "latestTurnStatus",
        named(
            input.latest_turn_status,
            &["latestTurnStatus", "latest_turn_status"],
        ),
    );
    facts.set("taskId", named(input.task_id, &["taskId", "task_id"]));
    facts.set("agentId", named(input.agent_id, &["agentId", "agent_id"]));
    facts.set(
        "parentThreadId",
        named(
            input.parent_thread_id,
            &["parentThreadId", "parent_thread_id"],
        ),
    );
    facts.set(
        "transcriptRef",
        named(input.transcript_ref, &["transcriptRef", "transcript_ref"]),
    );
    facts.set(
        "handoffId",
        named(input.handoff_id, &["handoffId", "handoff_id"]),
    );
    facts.set("styleLevel", opt(style_level.as_deref()));
    facts.set("riskLevel", opt(risk_level.as_deref()));
    facts.set("toneVariant", opt(tone_variant.as_deref()));
    facts.set("profileId", opt(profile_id.as_deref()));
    facts.set("packId", opt(pack_id.as_deref()));

    Obj::new()
        .c("collaborationFacts", facts.compact().into_val())
        .c("collaborationSurface", opt(surface))
        .c("collaborationPhase", opt(phase))
        .c("styleLevel", opt(style_level.as_deref()))
        .c("riskLevel", opt(risk_level.as_deref()))
        .c("toneVariant", opt(tone_variant.as_deref()))
        .c("profileId", opt(profile_id.as_deref()))
        .c("packId", opt(pack_id.as_deref()))
        .into_val()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::val::deep_equal;
    use serde_json::json;

    #[test]
    fn defaults_and_existing_facts() {
        let payload = json!({
            "metadata": {"collaborationFacts": {"x": 1, "status": 5, "source": " s "}},
            "style_level": " L3 "
        });
        let v = build_collaboration_payload_metadata(&CollabInput {
            source_type: Some("subagent.started"),
            phase: Some("  "),
            payload: Some(&payload),
            metadata: payload.get("metadata"),
            ..Default::default()
        });
        let expected = Val::from_json(&json!({
            "collaborationFacts": {"x": 1, "source": "s", "surface": "collaboration",
                "sourceType": "subagent.started", "styleLevel": "L3", "riskLevel": "normal"},
            "styleLevel": "L3",
            "riskLevel": "normal"
        }));
        assert!(deep_equal(&v, &expected), "{}", v.to_json());
    }
}

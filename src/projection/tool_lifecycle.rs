//! The tool lifecycle metadata rule (the reference's `extractAgentUiToolLifecyclePayloadMetadata`):
//! which records and strings of a tool's metadata are lifted into a tool event's payload, read
//! from which keys, with which fallbacks. One table, read by the App Server facts here
//! (`app_server::notification`) and, as JSON text written into the package at build time, by the
//! UI projection-event builders (`pkg-template/projection-events/toolLifecycleMetadata.ts`).
//!
//! The rule: the metadata sources are records; each source, its `metadata` record and its
//! `result.metadata` record are the layers, in that order. A record member is the first record
//! held by one of its keys, layer by layer. A string member is the first non-blank string (trimmed)
//! held by one of its keys, layer by layer, else read from the found records named by its
//! fallbacks, in order. Members without a value are left out; the others come in table order,
//! records first.

use std::fmt::Write;

/// A record member: `(name, keys)`.
pub const LIFECYCLE_RECORDS: [(&str, &[&str]); 3] = [
    ("soulLifecycle", &["soulLifecycle", "soul_lifecycle"]),
    (
        "toolProcessFacts",
        &["toolProcessFacts", "tool_process_facts"],
    ),
    (
        "toolProcessSummary",
        &[
            "toolProcessSummary",
            "tool_process_summary",
            "processSummary",
            "process_summary",
        ],
    ),
];

/// A string member: `(name, keys, fallbacks)`, each fallback `(index of a found record in
/// LIFECYCLE_RECORDS, keys read there)`.
pub type LifecycleString = (
    &'static str,
    &'static [&'static str],
    &'static [(usize, &'static [&'static str])],
);

const STYLE: &[&str] = &["styleLevel", "style_level"];
const RISK: &[&str] = &["riskLevel", "risk_level"];
const TONE: &[&str] = &["toneVariant", "tone_variant"];
const PROFILE: &[&str] = &["profileId", "profile_id"];
const PACK: &[&str] = &["packId", "pack_id"];

/// The string members, in output order.
pub const LIFECYCLE_STRINGS: [LifecycleString; 7] = [
    (
        "soulSurface",
        &["soulSurface", "soul_surface"],
        &[(0, &["surface"])],
    ),
    (
        "soulPhase",
        &["soulPhase", "soul_phase"],
        &[(0, &["phase"])],
    ),
    ("styleLevel", STYLE, &[(0, STYLE), (1, STYLE)]),
    ("riskLevel", RISK, &[(0, RISK), (1, RISK)]),
    ("toneVariant", TONE, &[(0, TONE)]),
    ("profileId", PROFILE, &[(0, PROFILE)]),
    ("packId", PACK, &[(0, PACK)]),
];

/// Whether `key` is one a member is read from (a layer without any holds nothing of the rule).
pub fn is_lifecycle_key(key: &str) -> bool {
    LIFECYCLE_RECORDS
        .iter()
        .any(|(_, keys)| keys.contains(&key))
        || LIFECYCLE_STRINGS
            .iter()
            .any(|(_, keys, _)| keys.contains(&key))
}

/// The table as JSON: `{"records": [[name, [keys]]], "strings": [[name, [keys], [[record, [keys]]]]]}`.
pub fn rules_json() -> String {
    fn list(out: &mut String, items: &[&str]) {
        out.push('[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "\"{item}\"");
        }
        out.push(']');
    }
    let mut out = String::from("{\"records\":[");
    for (i, (name, keys)) in LIFECYCLE_RECORDS.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[\"{name}\",");
        list(&mut out, keys);
        out.push(']');
    }
    out.push_str("],\"strings\":[");
    for (i, (name, keys, fallbacks)) in LIFECYCLE_STRINGS.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[\"{name}\",");
        list(&mut out, keys);
        out.push_str(",[");
        for (j, (record, keys)) in fallbacks.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(out, "[{record},");
            list(&mut out, keys);
            out.push(']');
        }
        out.push_str("]]");
    }
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_json_is_json_and_fallbacks_name_records() {
        let v: serde_json::Value = serde_json::from_str(&rules_json()).expect("JSON");
        assert_eq!(v["records"].as_array().map(Vec::len), Some(3));
        assert_eq!(v["strings"][2][0], "styleLevel");
        for (_, _, fallbacks) in LIFECYCLE_STRINGS {
            assert!(fallbacks.iter().all(|(r, _)| *r < LIFECYCLE_RECORDS.len()));
        }
        assert!(is_lifecycle_key("process_summary") && !is_lifecycle_key("surface"));
    }
}

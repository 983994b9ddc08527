//! Constants and JSON Schemas equal the reference's exported values.

use std::path::PathBuf;

mod common;

use agent_runtime_projection::contract::constants::*;
use serde_json::{json, Value};

fn reference_constants() -> Option<Value> {
    let path = common::reference("constants.json")?;
    let text = std::fs::read_to_string(&path).expect("read constants.json");
    Some(serde_json::from_str(&text).expect("parse constants.json"))
}

#[test]
fn schema_files_equal_reference_schemas() {
    let Some(c) = reference_constants() else {
        return;
    };
    let schemas = c["agentUiJsonSchemas"].as_object().unwrap();
    let names: Vec<&str> = schemas.keys().map(String::as_str).collect();
    let ours: Vec<&str> = SCHEMA_FILES.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(ours, names);
    for (short, file, text) in SCHEMA_FILES {
        let parsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(&parsed, &schemas[short], "{file}");
        // Same property order as the reference, too.
        assert_eq!(
            serde_json::to_string(&parsed).unwrap(),
            serde_json::to_string(&schemas[short]).unwrap()
        );
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("schemas")
            .join(file);
        if short == "runtimeEvent" {
            // Generated from the event model's field table (build.rs): no second copy on disk.
            assert!(!path.exists(), "{file} is generated, not kept in schemas/");
        } else {
            assert_eq!(std::fs::read_to_string(path).unwrap(), text);
        }
        assert_eq!(schema_json(short), Some(text));
    }
}

#[test]
fn taxonomies_equal_reference_constants() {
    let Some(c) = reference_constants() else {
        return;
    };
    assert_eq!(
        c["AGENT_UI_FIXTURE_SCHEMA_VERSION"],
        AGENT_UI_FIXTURE_SCHEMA_VERSION
    );
    assert_eq!(
        c["AGENT_UI_EVENT_CLASSES"],
        json!(AGENT_UI_EVENT_CLASSES.to_vec())
    );
    assert_eq!(
        c["LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES"],
        json!(LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES)
    );
}

#[test]
fn schemas_agree_with_constants() {
    let event: Value = serde_json::from_str(schema_json("runtimeEvent").unwrap()).unwrap();
    assert_eq!(
        event["not"]["properties"]["eventClass"]["enum"],
        json!(LEGACY_RUNTIME_TURN_TERMINAL_EVENT_CLASSES)
    );
    assert_eq!(
        event["properties"]["schemaVersion"]["const"],
        AGENT_RUNTIME_EVENT_SCHEMA_VERSION
    );
    let pe: Value = serde_json::from_str(schema_json("projectionEvent").unwrap()).unwrap();
    assert_eq!(
        pe["properties"]["type"]["enum"],
        json!(AGENT_UI_EVENT_CLASSES.to_vec())
    );
    for dead in [
        "artifact.version.created",
        "artifact.export.started",
        "artifact.export.completed",
        "artifact.deleted",
        "artifact.unknown",
        "team.unknown",
    ] {
        assert!(!is_agent_ui_event_class(&json!(dead)));
    }
    assert!(is_agent_ui_event_class(&json!("action.required")));
    assert!(!is_agent_ui_event_class(&json!("Action.required")));
    assert!(!is_agent_ui_event_class(&json!(5)));
}

/// The constants the package reads at import (`constants_json`, written into `glue/constants.js`
/// by the package build): every list complete, the schema files in export order.
#[test]
fn constants_json_is_complete() {
    let c: Value = serde_json::from_str(&constants_json()).expect("constants JSON");
    assert_eq!(c["fixtureSchemaVersion"], "agent-ui-fixture/v0.1");
    assert_eq!(c["eventClasses"].as_array().map(Vec::len), Some(48));
    assert_eq!(c["eventClasses"], json!(AGENT_UI_EVENT_CLASSES.to_vec()));
    assert_eq!(c["legacyTerminalClasses"].as_array().map(Vec::len), Some(6));
    let files = c["schemaFiles"].as_object().expect("schemaFiles");
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "runtimeEvent",
            "runtimeStateDelta",
            "projectionState",
            "runtimeCapabilityManifest",
            "projectionEvent"
        ]
    );
    assert_eq!(
        files["projectionEvent"],
        "agent-ui-projection-event.v0.1.schema.json"
    );
}

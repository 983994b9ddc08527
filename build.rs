//! Generates, from the event model's one field table (`src/contract/event_model.rs`), the files
//! the crate embeds: the TypeScript interface `AgentRuntimeExecutionEvent` (the package's .d.ts,
//! through `src/wasm/types.rs`) and the JSON Schema `agent-runtime-event.v0.1.schema.json`
//! (`contract::constants::SCHEMA_FILES`).

use std::path::PathBuf;

#[allow(dead_code)]
mod model {
    include!("src/contract/event_model.rs");
}

fn main() {
    println!("cargo:rerun-if-changed=src/contract/event_model.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        panic!("build.rs: OUT_DIR is not set");
    };
    let files = [
        (
            "agent-runtime-event.v0.1.schema.json",
            model::event_schema_json(),
        ),
        ("event_interface.d.ts", model::event_interface_ts()),
    ];
    for (name, text) in files {
        if let Err(e) = std::fs::write(out.join(name), text) {
            panic!("build.rs: cannot write {name}: {e}");
        }
    }
}

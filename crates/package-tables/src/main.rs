//! The tables the npm package is built with, from the Rust core: scripts/assemble-pkg.mjs runs
//! this program (`cargo run -q -p agent-runtime-projection-tables`) and writes them into the
//! package as JS (`glue/constants.js`, `glue/view-rules.js`, `glue/templates.js`,
//! `glue/tool-lifecycle-rules.js`, `glue/tape-codes.js`, the runtime event's schema file). A native program rather than
//! exports of the WebAssembly module: the module would carry them only for the build.
//!
//! Prints one JSON object `{"constants", "viewRules", "templates", "toolLifecycleRules",
//! "tapeCodes", "eventSchema"}` whose values are each table's JSON text, as a string (so the package gets the
//! text exactly as the core writes it).

use agent_runtime_projection::contract::constants::{constants_json, EVENT_SCHEMA_JSON};
use agent_runtime_projection::contract::tape;
use agent_runtime_projection::contract::val::write_json_str_map;
use agent_runtime_projection::projection::{templates, tool_lifecycle, view_rules};

fn main() {
    let tables = [
        ("constants", constants_json()),
        ("viewRules", view_rules::rules_json()),
        ("templates", templates::templates_json()),
        ("toolLifecycleRules", tool_lifecycle::rules_json()),
        ("tapeCodes", tape::codes_json()),
        ("eventSchema", EVENT_SCHEMA_JSON.to_owned()),
    ];
    let mut out = String::new();
    write_json_str_map(
        tables.iter().map(|(name, json)| (*name, json.as_str())),
        &mut out,
    );
    println!("{out}");
}

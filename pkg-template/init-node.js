// Node loader: read the .wasm file next to this module and instantiate it synchronously.
import { readFileSync } from "node:fs";
import { initSync } from "./glue/agent_runtime_projection.js";
import { core } from "./core.js";

const bytes = readFileSync(new URL("./glue/agent_runtime_projection_bg.wasm", import.meta.url));
core.exports = initSync({ module: new WebAssembly.Module(bytes) });

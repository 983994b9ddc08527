// Browser and bundler loader: the module bytes are inlined (base64) so the package works
// synchronously after import, with no fetch, no top-level await and no bundler plugin.
import { initSync } from "./glue/agent_runtime_projection.js";
import { core } from "./core.js";
import { wasmBase64 } from "./glue/wasm-inline.js";

function decodeBase64(b64) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(b64);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

core.exports = initSync({ module: new WebAssembly.Module(decodeBase64(wasmBase64)) });

// The loader of every entry (browsers, workers, bundlers, Node): the module bytes are inlined
// (base64), so the package needs no fetch, no file access, no top-level await and no bundler
// plugin. The module is compiled synchronously where
// the host allows it (the package is usable as soon as it is imported); where synchronous
// compilation or instantiation is refused (older Chrome and Android WebView above 4 KB), it is
// compiled asynchronously and the package's `ready` promise resolves once it is usable.
import { installAsync, installSync } from "./core.js";
import { wasmBase64 } from "./glue/wasm-inline.js";

function decodeBase64(b64) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(b64);
  if (typeof globalThis.Buffer === "function") return globalThis.Buffer.from(b64, "base64");
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const bytes = decodeBase64(wasmBase64);
let module = null;
try {
  module = new WebAssembly.Module(bytes);
} catch {
  installAsync(WebAssembly.compile(bytes));
}
if (module !== null) {
  try {
    installSync(module);
  } catch {
    installAsync(Promise.resolve(module));
  }
}

// The loader of every entry (browsers, workers, bundlers, Node): the module bytes are inlined
// (base64), so the package needs no fetch, no file access, no top-level await and no bundler
// plugin. The module is compiled synchronously where
// the host allows it (the package is usable as soon as it is imported); where synchronous
// compilation or instantiation is refused (older Chrome and Android WebView above 4 KB), it is
// compiled asynchronously and the package's `ready` promise resolves once it is usable.
import { decodeBase64 } from "./base64.js";
import { installAsync, installSync } from "./core.js";
import { loadGeneratorAsync } from "./generator.js";
import { wasmBase64 } from "./glue/wasm-inline.js";

/**
 * `promisedModule`, once the event generator's module is usable too: where the host refuses
 * synchronous compilation, generator.js cannot compile it on its first call, so it is compiled
 * now and `ready` covers it (a failure there is reported by `generateRuntimeEvents` alone).
 */
function withGenerator(promisedModule) {
  return Promise.all([promisedModule, loadGeneratorAsync()]).then(([module]) => module);
}

const bytes = decodeBase64(wasmBase64);
let module = null;
try {
  module = new WebAssembly.Module(bytes);
} catch {
  installAsync(withGenerator(WebAssembly.compile(bytes)));
}
if (module !== null) {
  try {
    installSync(module);
  } catch {
    installAsync(withGenerator(Promise.resolve(module)));
  }
}

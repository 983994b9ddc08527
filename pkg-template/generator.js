// The event generator (`generateRuntimeEvents`): a WebAssembly module of its own
// (crates/generator-wasm: plain exports, no wasm-bindgen), apart from the projection's module,
// which is smaller without it. Its bytes are decoded and compiled on the first call. Every call
// runs on a fresh instance that is dropped afterwards, so the memory a large stream takes goes
// back to the host (linear memory never shrinks), and a trap there affects nothing else.
//
// Where the host refuses synchronous compilation and instantiation (older Chrome and Android
// WebView above 4 KB), the loader compiles the module at import, asynchronously, and the
// package's `ready` waits for its first instance (`loadGeneratorAsync`); each call then makes the
// next instance ahead, asynchronously, and until it is made the last one is used again.
import { decodeBase64 } from "./base64.js";
import { isTrap } from "./core.js";
import { generatorBase64 } from "./glue/generator-inline.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The compiled module (once compiled). */
let compiled = null;
/** Whether instances are made asynchronously, ahead of the calls (`loadGeneratorAsync`). */
let ahead = false;
/** That way: the instance the next call runs on, and the one being made. */
let next = null;
let making = null;
/** Why the module could not be compiled or instantiated (that way). */
let loadError = null;

/**
 * Compile the module and make its first instance asynchronously; for hosts that refuse doing it
 * synchronously. Never rejects: a failure is reported by `generateRuntimeEvents`.
 */
export function loadGeneratorAsync() {
  ahead = true;
  return WebAssembly.compile(decodeBase64(generatorBase64)).then(
    (module) => {
      compiled = module;
      return makeNext();
    },
    (error) => {
      loadError = error;
    },
  );
}

function makeNext() {
  making = WebAssembly.instantiate(compiled, {}).then(
    (instance) => {
      next = instance;
      making = null;
    },
    (error) => {
      loadError = error;
      making = null;
    },
  );
  return making;
}

/** A fresh instance for one call (made ahead, where instances are made that way). */
function instanceFor(what) {
  if (!ahead) {
    try {
      if (compiled === null) compiled = new WebAssembly.Module(decodeBase64(generatorBase64));
      return new WebAssembly.Instance(compiled, {});
    } catch (error) {
      throw new Error(`${what}: the event generator's WebAssembly module could not be loaded: ${error && error.message}`);
    }
  }
  if (next === null) {
    if (loadError !== null) {
      throw new Error(`${what}: the event generator's WebAssembly module could not be loaded: ${loadError && loadError.message}`);
    }
    throw new Error(`${what}: the event generator's WebAssembly module is still compiling; await the package's \`ready\` promise first`);
  }
  if (making === null) makeNext();
  return next;
}

/**
 * The events of `n` (a non-negative integer), `seed` (an unsigned 32-bit integer) and the
 * generator options' JSON text, on behalf of the public function `what`. Options the generator
 * refuses and counts above its limits are TypeErrors naming `what`; a trap of the module is an
 * Error naming `what`.
 */
export function generateEvents(what, n, seed, optionsText) {
  const instance = instanceFor(what);
  const { memory, input, generate, output_ptr: outputPtr, output_len: outputLen } = instance.exports;
  let status;
  let text;
  try {
    // At most 3 UTF-8 bytes per UTF-16 unit.
    const capacity = optionsText.length * 3;
    const ptr = input(capacity);
    const { written } = encoder.encodeInto(optionsText, new Uint8Array(memory.buffer, ptr, capacity));
    status = generate(n, seed, written);
    text = decoder.decode(new Uint8Array(memory.buffer, outputPtr(), outputLen()));
  } catch (error) {
    if (!isTrap(error)) throw error;
    // The instance is unusable: the next call waits for the one being made.
    if (next === instance) next = null;
    const reason = error && typeof error.message === "string" ? error.message : String(error);
    throw new Error(`${what}: the event generator's WebAssembly module failed (${reason}); nothing else is affected`);
  }
  if (status !== 0) throw new TypeError(`${what}: ${text}`);
  return JSON.parse(text);
}

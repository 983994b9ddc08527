// The WebAssembly instance the package runs on, and what happens when it faults.
//
// The loader (init-inline.js) compiles the module and installs an instance before
// api.js is evaluated, synchronously where the host allows it; where synchronous compilation is
// refused (older Chrome and Android WebView above 4 KB), it compiles asynchronously and `ready`
// resolves once the instance is installed. Until then every call throws a clear error.
//
// A fault is a trap of the module (a Rust panic or an abort, memory exhausted, a stack overflow):
// the instance's memory may be half-updated, so it is dropped. The call that trapped throws an
// `AgentRuntimeProjectionFault`; a new instance of the same compiled module replaces the old one,
// so every later call works; objects made on the old instance (projectors, verifiers) throw that
// fault when used instead of answering from lost state.
import * as glue from "./glue/agent_runtime_projection.js";

/** A trap or internal error of the WebAssembly module, surfaced to the caller. */
export class AgentRuntimeProjectionFault extends Error {
  constructor(call, cause) {
    const reason = cause && typeof cause.message === "string" ? cause.message : String(cause);
    super(`${call}: internal fault of the WebAssembly module (${reason}); the module was restarted, and objects made before the fault cannot be used any more`);
    this.name = "AgentRuntimeProjectionFault";
    this.call = call;
    this.cause = cause;
  }
}

/** The installed instance: `exports` (the raw wasm exports) and its generation. */
export const core = { exports: null, generation: 0 };

let compiled = null;
let pendingError = null;
// The fault that ended each generation (by generation number).
const faults = new Map();

let resolveReady;
let rejectReady;
/** Resolves once the module is usable (at once where synchronous compilation works). */
export const ready = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
// An unobserved rejection must not crash the host: callers see the error on their next call.
ready.catch(() => {});

/** Install the first instance of `module` (a compiled WebAssembly.Module), synchronously. */
export function installSync(module) {
  compiled = module;
  core.exports = glue.initSync({ module });
  resolveReady();
}

/** Install the first instance of `promisedModule` once it is compiled (the asynchronous path). */
export function installAsync(promisedModule) {
  promisedModule
    .then(async (module) => {
      compiled = module;
      core.exports = await glue.default({ module_or_path: module });
      resolveReady();
    })
    .catch((error) => {
      pendingError = error;
      rejectReady(error);
    });
}

/** Throws unless an instance is installed. */
export function requireInstance(what) {
  if (core.exports !== null) return;
  if (pendingError !== null) {
    throw new Error(`${what}: the WebAssembly module could not be loaded: ${pendingError && pendingError.message}`);
  }
  throw new Error(`${what}: the WebAssembly module is still compiling; await the package's \`ready\` promise first`);
}

/** Whether `error`, thrown out of a call into a WebAssembly module, is a trap of the module. */
export function isTrap(error) {
  if (error instanceof WebAssembly.RuntimeError) return true;
  // A stack overflow inside the module (V8: RangeError; Firefox: InternalError).
  if (error instanceof RangeError && /call stack/i.test(error.message)) return true;
  return error !== null && typeof error === "object" && error.name === "InternalError";
}

/** Drop the current instance after `error` trapped in `what`; returns the fault to throw. */
function replaceInstance(what, error) {
  const fault = new AgentRuntimeProjectionFault(what, error);
  faults.set(core.generation, fault);
  // The old instance's objects never reach the new one: their wrappers check the generation
  // they were made in before every call (`checkGeneration`), and the glue's finalizers free an
  // object only into the instance that made it (scripts/assemble-pkg.mjs).
  core.generation += 1;
  core.exports = null;
  try {
    core.exports = glue.__replaceInstance(compiled);
  } catch (installError) {
    // Synchronous instantiation refused: instantiate asynchronously; calls throw until then.
    glue.__replaceInstanceAsync(compiled).then(
      (exports) => {
        core.exports = exports;
      },
      (asyncError) => {
        pendingError = asyncError;
      },
    );
  }
  return fault;
}

/**
 * Run `fn` (a call into the module on behalf of the public function `what`). A trap becomes an
 * `AgentRuntimeProjectionFault` and restarts the module; any other error is returned to the
 * caller as thrown.
 */
export function guard(what, fn) {
  requireInstance(what);
  try {
    return fn();
  } catch (error) {
    if (isTrap(error)) throw replaceInstance(what, error);
    throw error;
  }
}

/**
 * Run `fn` (calls into the module on behalf of `what`) on a fresh instance of the module that is
 * dropped afterwards, so the memory a large batch takes goes back to the host: linear memory
 * never shrinks, and the installed instance keeps only what small calls need. A trap there is a
 * fault of that call alone: the installed instance was not touched and stays.
 */
export function isolated(what, fn) {
  requireInstance(what);
  let instance;
  try {
    instance = glue.__newInstance(compiled);
  } catch (error) {
    // Synchronous instantiation refused by the host: the installed instance does the work.
    if (error instanceof RangeError) return guard(what, fn);
    throw error;
  }
  const installed = core.exports;
  core.exports = instance.exports;
  try {
    return glue.__withInstance(instance, fn);
  } catch (error) {
    if (isTrap(error)) throw new AgentRuntimeProjectionFault(what, error);
    throw error;
  } finally {
    core.exports = installed;
  }
}

/** Throws the fault that ended `generation`, if one did. */
export function checkGeneration(generation) {
  if (generation !== core.generation) throw faults.get(generation);
}

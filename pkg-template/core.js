// The instantiated wasm module, set once by the loader (init-node.js or init-inline.js) before
// api.js is evaluated.
export const core = { exports: null };

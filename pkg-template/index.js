// Entry for browsers and bundlers. The loader must stay the first import: it instantiates the
// module before api.js is evaluated.
import "./init-inline.js";
export * from "./api.js";

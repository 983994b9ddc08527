// Entry for Node. The loader must stay the first import: it instantiates the module before
// api.js is evaluated.
import "./init-node.js";
export * from "./api.js";

// Entry for Node (and for test runners that resolve the "node" condition but process the package
// as browser code, such as vitest with jsdom). It loads the module like the browser entry does,
// from the inlined bytes, so no Node built-in is imported. The loader must stay the first import:
// it instantiates the module before api.js is evaluated.
import "./init-inline.js";
export * from "./api.js";

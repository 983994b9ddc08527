// vitest for the packaging app: component tests of the packed package, run once per environment
// (`--environment node|jsdom|happy-dom`, packaging.test.mjs). The package is processed by Vite's
// own pipeline (inlined, not handed to Node as an external dependency), as it is when an app
// aliases the reference's name to it or links it from outside node_modules.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["vitest/**/*.spec.js"],
    watch: false,
    server: { deps: { inline: [/agent-runtime-projection-wasm/] } },
  },
});

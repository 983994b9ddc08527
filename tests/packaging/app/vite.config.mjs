import { defineConfig } from "vite";

export default defineConfig({
  logLevel: "warn",
  build: { outDir: "dist", emptyOutDir: true },
});

// Type-check a TypeScript consumer of the built package (pkg/index.d.ts) with tsc --strict, in a
// temporary directory: throws with tsc's report when it rejects the source.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./reference.mjs";

export function typeCheck(source) {
  const dir = mkdtempSync(join(tmpdir(), "pkg-types-"));
  try {
    writeFileSync(join(dir, "consumer.ts"), source);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          lib: ["es2022", "esnext.disposable", "dom"],
          types: [],
          paths: { "@limecloud/agent-runtime-projection-wasm": [join(repoRoot, "pkg", "index.d.ts")] },
        },
        files: ["consumer.ts"],
      }),
    );
    try {
      execFileSync(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    } catch (error) {
      throw new Error(`tsc rejected the consumer:\n${error.stdout}${error.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

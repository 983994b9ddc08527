#!/usr/bin/env node
// Tiny static file server for the fixture playground.
//
// Serves `www/` at `/` and the built npm package `pkg/` at `/pkg/`, on 127.0.0.1 only.
// No dependencies: node:http, node:fs, node:path.
//
//   node scripts/serve.mjs                 # PORT or 8080, falling back to a free port
//   PORT=0 node scripts/serve.mjs          # any free port
//   PKG_DIR=/some/pkg node scripts/serve.mjs   # serve another package build at /pkg/
//
// It prints one line `Playground: http://127.0.0.1:<port>/` once it listens (tests read it).
// The page is served cross-origin isolated (COOP/COEP) so that `performance.now()` has
// fine resolution for the per-apply timings.

import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const mounts = [
  { prefix: "/pkg/", dir: resolve(process.env.PKG_DIR || join(root, "pkg")) },
  { prefix: "/", dir: join(root, "www") },
];

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".ndjson": "application/x-ndjson; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** Resolves a URL path to a file inside one of the mounts, or null (never escapes a mount). */
function resolveFile(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  for (const { prefix, dir } of mounts) {
    if (!decoded.startsWith(prefix)) continue;
    const rel = normalize(decoded.slice(prefix.length)).replace(/^([/\\])+/, "");
    let file = resolve(dir, rel);
    if (file !== dir && !file.startsWith(dir + sep)) return null;
    try {
      let st = statSync(file);
      if (st.isDirectory()) {
        file = join(file, "index.html");
        st = statSync(file);
      }
      if (st.isFile()) return { file, size: st.size };
    } catch {
      // not in this mount
    }
    return null;
  }
  return null;
}

const server = createServer((req, res) => {
  const headers = {
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD" });
    res.end();
    return;
  }
  const path = (req.url || "/").split(/[?#]/)[0];
  const found = resolveFile(path);
  if (!found) {
    const missingPkg = path.startsWith("/pkg/");
    res.writeHead(404, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
    res.end(missingPkg ? "Not found. Build the package first: bash scripts/build-pkg.sh\n" : "Not found\n");
    return;
  }
  res.writeHead(200, {
    ...headers,
    "Content-Type": MIME[extname(found.file).toLowerCase()] || "application/octet-stream",
    "Content-Length": found.size,
  });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  createReadStream(found.file).pipe(res);
});

function listen(port, fallback) {
  server.once("error", (err) => {
    if (fallback && (err.code === "EADDRINUSE" || err.code === "EACCES")) {
      console.error(`Port ${port} is busy; using a free port instead.`);
      listen(0, false);
    } else {
      console.error(`Cannot listen: ${err.message}`);
      process.exit(1);
    }
  });
  server.listen(port, "127.0.0.1", () => {
    const addr = server.address();
    console.log(`Playground: http://127.0.0.1:${addr.port}/`);
  });
}

const envPort = process.env.PORT;
const port = envPort !== undefined && envPort !== "" ? Number(envPort) : 8080;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Bad PORT: ${envPort}`);
  process.exit(1);
}
listen(port, port !== 0);

for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
}

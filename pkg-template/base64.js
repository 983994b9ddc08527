// Base64 to bytes, for the inlined WebAssembly modules (init-inline.js, generator.js).

/** The bytes `b64` encodes (the host's own decoder where there is one). */
export function decodeBase64(b64) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(b64);
  if (typeof globalThis.Buffer === "function") return globalThis.Buffer.from(b64, "base64");
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * What the browser build gives for `require('crypto')`, which only sjcl (inside @cloudflare/voprf-ts)
 * asks for, to seed its generator: Node's `randomBytes`, on the Web Crypto every browser and worker
 * has. Left to Vite, the import became an empty module (with a warning at every build), and sjcl then
 * looked for `window.crypto`, which a Web Worker, where the prover runs, does not have.
 */
export function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

export default { randomBytes };

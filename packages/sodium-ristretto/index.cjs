// The addon, or undefined when it was not built (no libsodium headers at install time) or cannot be
// loaded here; callers then use libsodium's WebAssembly. ZEROID_SODIUM_NATIVE=0 turns it off.
'use strict';
/** @type {import('./index.d.ts') | undefined} */
let addon;
if (process.env.ZEROID_SODIUM_NATIVE !== '0') {
  try {
    // A path held in a variable: TypeScript has no declarations for a .node file.
    const binary = './build/Release/sodium_ristretto.node';
    addon = require(binary);
  } catch {
    addon = undefined;
  }
}
module.exports = addon;

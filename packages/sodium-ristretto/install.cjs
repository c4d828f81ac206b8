// `npm ci` runs this: it builds the addon with node-gyp when the system has libsodium's headers
// (Debian: `apt-get install libsodium-dev`), and otherwise says so and succeeds, since the addon is
// optional: without it the server and the OPRF nodes use libsodium's WebAssembly (index.cjs).
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const headers = ['/usr/include/sodium.h', '/usr/local/include/sodium.h', '/opt/homebrew/include/sodium.h'];
/** @param {string} why */
const skip = (why) => {
  console.log(`@zeroid/sodium-ristretto: ${why}; ristretto255 stays on libsodium's WebAssembly (about 2.5× slower).`);
  process.exit(0);
};

if (process.env.ZEROID_SODIUM_NATIVE === '0') skip('not built (ZEROID_SODIUM_NATIVE=0)');
if (!headers.some((file) => existsSync(file))) skip('libsodium headers not found (apt-get install libsodium-dev)');
// npm gives its own node-gyp to install scripts; outside npm, the one on PATH.
const nodeGyp = process.env.npm_config_node_gyp;
const build = nodeGyp
  ? spawnSync(process.execPath, [nodeGyp, 'rebuild'], { stdio: 'inherit', cwd: __dirname })
  : spawnSync('node-gyp', ['rebuild'], { stdio: 'inherit', cwd: __dirname });
if (build.status !== 0) skip(`the build failed (node-gyp: ${build.error?.message ?? `exit ${build.status ?? build.signal}`})`);

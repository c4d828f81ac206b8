// Compiles the server for `npm start` (decision 018): one ES-module bundle per entry point, the
// server and each worker thread, in apps/server/dist/. `@zeroid/protocol` is bundled in (it ships
// TypeScript sources, which Node does not load from a package); every other package stays external
// and is loaded from node_modules as it is. Plain JavaScript, so that it runs on bare Node.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const protocolDir = path.resolve(serverDir, '../../packages/protocol');
export const distDir = path.join(serverDir, 'dist');
const stampFile = path.join(distDir, 'build-stamp.json');

/** @param {string} file @returns {unknown} */
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Worker entries are named as `threadEntry` finds them: `dist/<name>.js`, beside `dist/server.js`. */
const entryPoints = {
  server: 'src/server.ts',
  'raw-deriver-worker': 'src/identity/raw/raw-deriver-worker.ts',
  'threshold-deriver-worker': 'src/identity/raw/threshold-deriver-worker.ts',
  'verifier-worker': 'src/proofs/verifier/verifier-worker.ts',
  'sqlite-thread-worker': 'src/storage/sqlite/sqlite-thread-worker.ts',
  // Sign in with ZeroID's clients and keys CLI (`npm run oidc`, decision 023).
  'oidc-cli': 'src/cli/oidc-cli.ts',
  // `npm run oprf-node`: a threshold OPRF node, its own process (decision 020).
  'oprf-node': 'src/oprf-node/main.ts',
};

/**
 * A digest of everything the bundles are made from: the sources of both workspaces, their
 * package.json, this script and esbuild's version. File times would do for a working copy, but a
 * digest also notices a checkout that moved a file back in time.
 */
export function sourceDigest() {
  const hash = createHash('sha256');
  const esbuildPackage = /** @type {{ version: string }} */ (readJson(fileURLToPath(import.meta.resolve('esbuild/package.json'))));
  hash.update(`esbuild ${esbuildPackage.version}\n`);
  const files = [fileURLToPath(import.meta.url), path.join(serverDir, 'package.json'), path.join(protocolDir, 'package.json')];
  for (const dir of [path.join(serverDir, 'src'), path.join(protocolDir, 'src')]) {
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!/\.test\.tsx?$/.test(name)) files.push(path.join(dir, name));
    }
  }
  for (const file of files.sort()) {
    if (!statSync(file).isFile()) continue;
    const content = readFileSync(file);
    hash.update(`${path.relative(serverDir, file)}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/** True when dist/ holds the bundles of exactly the current sources. */
export function serverBuildIsCurrent(digest = sourceDigest()) {
  if (!existsSync(stampFile)) return false;
  try {
    const stamp = /** @type {{ sourceDigest?: string }} */ (readJson(stampFile));
    return stamp.sourceDigest === digest;
  } catch {
    return false;
  }
}

/**
 * Bundles into a fresh directory and only then puts it in place of dist/, so a server already
 * running from dist/ (or one starting now) never loads half of an old build and half of a new one.
 */
export async function buildServer(digest = sourceDigest()) {
  const esbuild = await import('esbuild');
  const building = path.join(serverDir, `.dist-${process.pid}`);
  rmSync(building, { recursive: true, force: true });
  try {
    await esbuild.build({
      absWorkingDir: serverDir,
      entryPoints,
      outdir: building,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      packages: 'external',
      // Aliased to a path, the protocol is no longer a package import, so it is bundled.
      alias: { '@zeroid/protocol': path.join(protocolDir, 'src') },
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    writeFileSync(path.join(building, 'build-stamp.json'), `${JSON.stringify({ sourceDigest: digest }, null, 2)}\n`);
    rmSync(distDir, { recursive: true, force: true });
    renameSync(building, distDir);
  } finally {
    rmSync(building, { recursive: true, force: true });
    await esbuild.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`Built the server into ${path.relative(process.cwd(), distDir) || '.'} in ${Math.round(performance.now() - started)} ms.`);
}

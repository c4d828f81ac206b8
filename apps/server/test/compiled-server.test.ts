import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DID_ALREADY_GENERATED, VERIFICATION_RESULT } from '@zeroid/protocol/messages';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { distDir, sourceDigest } from '../scripts/build-server.js';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';
import { postJson } from './support/post.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { terminateCurve } from './support/terminate-curve.ts';

/**
 * The server as `npm start` runs it (decision 018): the bundles in dist/, built first if missing or
 * stale, on bare Node with no TypeScript loader (and, on a Node that could strip types, with that
 * turned off), so a module that still needed tsx would fail here. Each worker bundle is exercised:
 * the SQLite thread and the raw derivation threads by /healthz and a raw registration, the proof
 * verifier by a zero-knowledge verification.
 */
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  // A build of other sources, as after a checkout: the start must notice and rebuild.
  mkdirSync(distDir, { recursive: true });
  writeFileSync(path.join(distDir, 'build-stamp.json'), JSON.stringify({ sourceDigest: 'of other sources' }));
  dataDir = tempDir('zeroid-compiled-');
  server = await startServerProcess({ DATA_DIR: dataDir, DERIVATION_THREADS: '1', PROOF_VERIFIER_THREADS: '1' }, { compiled: true });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  removeTempDirs();
  await terminateCurve();
});

it('rebuilt dist/ from the current sources, and runs from it', () => {
  expect(server.output.join('')).toContain('The server build is missing or out of date; building it');
  expect(JSON.parse(readFileSync(path.join(distDir, 'build-stamp.json'), 'utf8'))).toEqual({ sourceDigest: sourceDigest() });
  for (const bundle of ['server.js', 'raw-deriver-worker.js', 'verifier-worker.js', 'sqlite-thread-worker.js', 'oprf-node.js']) {
    expect(existsSync(path.join(distDir, bundle)), bundle).toBe(true);
  }
  // The protocol is bundled in: Node cannot load its TypeScript from the package.
  expect(readFileSync(path.join(distDir, 'server.js'), 'utf8')).not.toMatch(/from ["']@zeroid\/protocol/);
  expect(server.process.spawnargs.join(' ')).not.toContain('tsx');
});

it('is ready, and registers and verifies on the raw path', async () => {
  const health = await fetch(`${server.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ready', members: 0 });

  const registered = await postJson(server, '/register', { id_info: 'compiled id 1', bio_info: 'compiled biometric 1' });
  expect(registered.status).toBe(200);
  expect(registered.body[DID_ALREADY_GENERATED]).toBe(false);
  expect(registered.body.DID).toMatch(/^did:key:z6Mk/);

  expect((await postJson(server, '/verify', { bio_info: 'compiled biometric 1' })).body).toEqual({ [VERIFICATION_RESULT]: 'Success' });
  expect((await postJson(server, '/verify', { bio_info: 'someone else' })).body).toEqual({ [VERIFICATION_RESULT]: 'Failure' });
});

it('verifies a zero-knowledge proof on its verifier thread', async () => {
  const client = new ZkTestClient(viaHttp(server.url), await Artifacts.load());
  expect((await client.register('compiled id 2', 'compiled biometric 2')).json()).toMatchObject({ [DID_ALREADY_GENERATED]: false });
  const proof = await client.prove('compiled biometric 2');
  expect(proof).toBeDefined();
  const reply = await client.verify(proof);
  expect(reply.statusCode).toBe(200);
  expect(reply.json()).toEqual({ [VERIFICATION_RESULT]: 'Success' });
});

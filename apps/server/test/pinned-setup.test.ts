import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_V3_SETUP, SIGN_IN_CREDENTIAL_SETUP } from '@zeroid/protocol/v3';
import { Artifacts, REGISTRATION_CREDENTIAL_FILES, REGISTRATION_V3_FILES, SIGN_IN_CREDENTIAL_FILES } from '../src/proofs/artifacts.ts';
import { runServerUntilExit, startServerProcess, type ServerProcess } from './server-process.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';

/**
 * The server serves and verifies only the setup pinned in code (decision 072), on real processes
 * started on a copy of circuits/artifacts (CIRCUIT_ARTIFACTS), so the copy can be tampered with.
 */
const circuits = path.resolve(import.meta.dirname, '../../../circuits/artifacts');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const env = (artifacts: string) => ({
  CIRCUIT_ARTIFACTS: artifacts,
  DATA_DIR: tempDir('zeroid-setup-data-'),
  DERIVATION_THREADS: '1',
  PROOF_VERIFIER_THREADS: '1',
});

function copyOfArtifacts(): string {
  const dir = tempDir('zeroid-setup-artifacts-');
  for (const name of [...REGISTRATION_V3_FILES, ...REGISTRATION_CREDENTIAL_FILES, ...SIGN_IN_CREDENTIAL_FILES])
    copyFileSync(path.join(circuits, name), path.join(dir, name));
  return dir;
}

/** A verification key that is valid JSON and another key: two of its input points swapped. */
function anotherKey(text: string): string {
  const key = JSON.parse(text) as { IC: unknown[] };
  [key.IC[1], key.IC[2]] = [key.IC[2], key.IC[1]];
  return `${JSON.stringify(key, null, 2)}\n`;
}

let server: ServerProcess;
let artifacts: string;
beforeAll(async () => {
  artifacts = copyOfArtifacts();
  server = await startServerProcess(env(artifacts));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

async function fetchArtifact(name: string) {
  const reply = await fetch(`${server.url}/artifacts/${name}`, { headers: { 'accept-encoding': 'identity' } });
  expect(reply.status).toBe(200);
  const body = Buffer.from(await reply.arrayBuffer());
  return { sha256: sha256(body), etag: reply.headers.get('etag'), contentSha256: reply.headers.get('x-content-sha256') };
}

describe('a running server', () => {
  it('warns at start that the setup is not final, and /healthz says what the setup is', async () => {
    expect(REGISTRATION_V3_SETUP.state.final).toBe(false);
    expect(server.output.join('')).toContain("The v3 registration circuit's trusted setup is not final: phase 1 is a local one");
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ready',
      setup: { phase1: 'local', contributions: 2, beacon: false, final: false },
      credentialSetup: { phase1: 'local', contributions: 2, beacon: true, final: false },
      signInCredentialSetup: { phase1: 'local', contributions: 2, beacon: true, final: false },
    });
    expect(server.output.join('')).toContain("The credential registration circuit's trusted setup is not final: phase 1 is a local one");
    expect(SIGN_IN_CREDENTIAL_SETUP.state.final).toBe(false);
    expect(server.output.join('')).toContain(
      "The sign-in credential circuit's trusted setup is not final: phase 1 is a local one, not a public ceremony’s (npm run ceremony -- import-phase1). " +
        'Whoever made all of its contributions can forge sign-in credential proofs',
    );
  });

  it('serves and verifies from the bytes it checked at start when the files are replaced under it', async () => {
    const before = Object.fromEntries(
      await Promise.all(REGISTRATION_V3_FILES.map(async (name) => [name, await fetchArtifact(name)] as const)),
    );
    for (const name of REGISTRATION_V3_FILES) {
      const pinned = REGISTRATION_V3_SETUP.files[name].sha256;
      expect(before[name]).toEqual({ sha256: pinned, etag: `"${pinned}"`, contentSha256: pinned });
    }
    // Another verification key, a proving key and a witness generator that are not the pinned ones.
    const vkey = path.join(artifacts, 'registration-v3.vkey.json');
    writeFileSync(vkey, anotherKey(readFileSync(vkey, 'utf8')));
    writeFileSync(path.join(artifacts, 'registration-v3.zkey'), readFileSync(path.join(artifacts, 'registration-v3.zkey')).reverse());
    writeFileSync(path.join(artifacts, 'registration-v3.wasm'), Buffer.from('not the circuit'));

    for (const name of REGISTRATION_V3_FILES) expect(await fetchArtifact(name)).toEqual(before[name]);
    // The verifier threads hold the key they were given at start: a real proof still registers.
    const client = new ZkTestClient(viaHttp(server.url), await Artifacts.load());
    expect((await client.register('PIN-1001', 'a biometric registered after the files changed')).json()).toMatchObject({
      'DID already generated': false,
    });
  });
});

describe('a server started on a setup that is not the pinned one', () => {
  it('refuses to start, naming the file and both hashes', async () => {
    const tampered = copyOfArtifacts();
    const vkey = path.join(tampered, 'registration-v3.vkey.json');
    writeFileSync(vkey, anotherKey(readFileSync(vkey, 'utf8')));
    const { code, output } = await runServerUntilExit(env(tampered));
    expect(code).toBe(1);
    expect(output).toMatch(
      new RegExp(
        `The v3 registration setup's registration-v3\\.vkey\\.json has SHA-256 [0-9a-f]{64}, but this build pins ${REGISTRATION_V3_SETUP.files['registration-v3.vkey.json'].sha256} \\(REGISTRATION_V3_SETUP\\)`,
      ),
    );
  });
});

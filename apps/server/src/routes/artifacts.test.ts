import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactManifestReply } from '@zeroid/protocol';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';
import { REGISTRATION_CREDENTIAL_SETUP, REGISTRATION_V3_SETUP, SIGN_IN_CREDENTIAL_SETUP } from '@zeroid/protocol/v3';
import { Artifacts, REGISTRATION_CREDENTIAL_FILES, REGISTRATION_V3_FILES, SIGN_IN_CREDENTIAL_FILES } from '../proofs/artifacts.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.destroy();
  removeTempDirs();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('GET /artifacts', () => {
  it('names every pinned file with the SHA-256 and size of its uncompressed bytes', async () => {
    const manifest = (await get('/artifacts')).json<ArtifactManifestReply>();
    expect(manifest.package).toBe('@zk-kit/semaphore-artifacts');
    expect(Object.keys(manifest.files)).toHaveLength(96 + 3 + 3 + 3);
    expect(manifest.files['semaphore-1.zkey']).toEqual({
      sha256: '471a978875f91411b21ba5a2fbea41df30ec45eb23e3ac045edf7f30a2846a08',
      bytes: 1552601,
    });
  });
});

describe('the v3 registration circuit’s artifacts (decision 056)', () => {
  const circuits = path.resolve(import.meta.dirname, '../../../../circuits/artifacts');
  const pinned = REGISTRATION_V3_SETUP.files;
  const SERVED = [...REGISTRATION_V3_FILES, ...REGISTRATION_CREDENTIAL_FILES, ...SIGN_IN_CREDENTIAL_FILES];

  it('are in the manifest with the hashes pinned in code, and served byte for byte', async () => {
    const manifest = (await get('/artifacts')).json<ArtifactManifestReply>();
    for (const name of REGISTRATION_V3_FILES) {
      expect(manifest.files[name]).toEqual(pinned[name]);
      const reply = await get(`/artifacts/${name}?sha256=${manifest.files[name]!.sha256}`);
      expect(reply.statusCode).toBe(200);
      expect(sha256(reply.rawPayload)).toBe(manifest.files[name]!.sha256);
    }
    // The circuit's constraints and the setup's first phase stay in the repository.
    expect((await get('/artifacts/registration-v3.r1cs')).statusCode).toBe(404);
    expect((await get('/artifacts/phase1.ptau')).statusCode).toBe(404);
  });

  it('refuse a start on a file that is not the pinned one', async () => {
    const tampered = tempDir('zeroid-circuits-');
    for (const name of SERVED) copyFileSync(path.join(circuits, name), path.join(tampered, name));
    const vkey = path.join(tampered, 'registration-v3.vkey.json');
    writeFileSync(vkey, readFileSync(vkey, 'utf8').replace('"IC"', '"IC" '));
    await expect(Artifacts.load(tampered)).rejects.toThrow(
      /^The v3 registration setup's registration-v3\.vkey\.json has SHA-256 [0-9a-f]{64}, but this build pins [0-9a-f]{64} \(REGISTRATION_V3_SETUP\)/,
    );
    // The same files under another build's pins (a checksums file beside them no longer counts).
    const untampered = tempDir('zeroid-circuits-');
    for (const name of SERVED) copyFileSync(path.join(circuits, name), path.join(untampered, name));
    const otherBuild = { files: { ...pinned, 'registration-v3.zkey': { sha256: '0'.repeat(64), bytes: 1 } } };
    await expect(Artifacts.load(untampered, otherBuild)).rejects.toThrow(
      /registration-v3\.zkey has SHA-256 [0-9a-f]{64}, but this build pins 0{64}/,
    );
    // The credential circuit's files are held to their own pins (decision 085).
    const credentialKey = path.join(untampered, 'registration-credential.zkey');
    writeFileSync(credentialKey, readFileSync(credentialKey).reverse());
    await expect(Artifacts.load(untampered)).rejects.toThrow(
      /^The credential registration setup's registration-credential\.zkey has SHA-256 [0-9a-f]{64}, but this build pins [0-9a-f]{64} \(REGISTRATION_CREDENTIAL_SETUP\)/,
    );
    // So are the sign-in credential circuit's (decision 087): each file, under SIGN_IN_CREDENTIAL_SETUP.
    for (const name of SIGN_IN_CREDENTIAL_FILES) {
      const files = tempDir('zeroid-circuits-');
      for (const each of SERVED) copyFileSync(path.join(circuits, each), path.join(files, each));
      const file = path.join(files, name);
      writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('\n')]));
      await expect(Artifacts.load(files), name).rejects.toThrow(
        new RegExp(
          `^The sign-in credential setup's ${name.replaceAll('.', '\\.')} has SHA-256 [0-9a-f]{64}, but this build pins ${SIGN_IN_CREDENTIAL_SETUP.files[name].sha256} \\(SIGN_IN_CREDENTIAL_SETUP\\)`,
        ),
      );
    }
  });

  it('serve the credential circuits’ files under their own pins', async () => {
    const manifest = (await get('/artifacts')).json<ArtifactManifestReply>();
    const pins: Record<string, { sha256: string; bytes: number }> = {
      ...REGISTRATION_CREDENTIAL_SETUP.files,
      ...SIGN_IN_CREDENTIAL_SETUP.files,
    };
    for (const name of [...REGISTRATION_CREDENTIAL_FILES, ...SIGN_IN_CREDENTIAL_FILES]) {
      expect(manifest.files[name]).toEqual(pins[name]);
      const reply = await get(`/artifacts/${name}?sha256=${manifest.files[name]!.sha256}`);
      expect(reply.statusCode).toBe(200);
      expect(sha256(reply.rawPayload)).toBe(manifest.files[name]!.sha256);
    }
  });
});

describe('GET /artifacts/:name', () => {
  const zkey = { sha256: '471a978875f91411b21ba5a2fbea41df30ec45eb23e3ac045edf7f30a2846a08', bytes: 1552601 };

  it('is immutable with its checksum in the URL, revalidated without it, and 404 for another checksum', async () => {
    const pinned = await get(`/artifacts/semaphore-1.zkey?sha256=${zkey.sha256}`);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers['content-encoding']).toBeUndefined();
    expect(sha256(pinned.rawPayload)).toBe(zkey.sha256);
    const bare = await get('/artifacts/semaphore-1.zkey');
    expect(bare.headers['cache-control']).toBe('public, no-cache');
    expect((await get('/artifacts/semaphore-1.zkey', { 'if-none-match': String(bare.headers.etag) })).statusCode).toBe(304);
    expect((await get(`/artifacts/semaphore-1.zkey?sha256=${'0'.repeat(64)}`)).statusCode).toBe(404);
    expect((await get('/artifacts/semaphore-1.zkey?sha256=nope')).statusCode).toBe(400);
  });

  it('sends gzip when asked, once made, whose bytes decode to the checksum; its own ETag, and Vary', async () => {
    const url = `/artifacts/semaphore-1.zkey?sha256=${zkey.sha256}`;
    let reply = await get(url, { 'accept-encoding': 'gzip' });
    // The first request starts the copy and is answered uncompressed, never kept waiting.
    for (let i = 0; i < 200 && reply.headers['content-encoding'] === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reply = await get(url, { 'accept-encoding': 'gzip' });
    }
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(reply.headers.vary).toBe('accept-encoding');
    expect(Number(reply.headers['content-length'])).toBe(reply.rawPayload.length);
    expect(reply.rawPayload.length).toBeLessThan(zkey.bytes * 0.8);
    expect(sha256(zlib.gunzipSync(reply.rawPayload))).toBe(reply.headers['x-content-sha256']);
    expect(reply.headers['x-content-sha256']).toBe(zkey.sha256);
    expect(reply.headers.etag).toBe(`"${zkey.sha256}-gzip"`);
    // A small file (a verification key) is never compressed.
    expect((await get('/artifacts/semaphore-1.json', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
  });
});

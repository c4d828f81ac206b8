import path from 'node:path';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { credentialLeaf, issueCredential, issuerPublicKey } from '@zeroid/protocol/credential';
import type { OprfDomain } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchNodeKeys } from '../src/oprf/nodes/watch-node-keys.ts';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { postJson } from './support/post.ts';
import { recordRegistrations } from './support/record-registrations.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { startTestApp } from './test-app.ts';
import { killOprfNode, SERVER_SECRET_ENV, splitKey, startOprfNode, type OprfNodeProcess } from './threshold-processes.ts';
import { nodesV3Round } from './threshold-round-v3.ts';
import { viaHttp, viaInject, ZkTestClient, type Send } from './zk-client.ts';
import { proveCredentialRegistration } from './zk-credential-client.ts';

/**
 * A credential on the raw path in threshold mode (decisions 021 and 079): the issuer's key crosses to
 * the derivation thread with the raw values, and the ID's evaluation comes from 2 of 3 node processes;
 * and on the zero-knowledge path (decision 085), the rounds' node answers carried with the proof.
 */
const university = new Uint8Array(32).fill(1);
let nodes: OprfNodeProcess[] = [];
let server: ServerProcess;

beforeAll(async () => {
  const root = tempDir('zeroid-credentials-threshold-');
  const { privateKey } = await generateOprfKeyPair();
  const keyEnv = { OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'), DATA_DIR: path.join(root, 'unused') };
  const dirs = await splitKey(keyEnv, path.join(root, 'shares'));
  nodes = await Promise.all(dirs.map((dir) => startOprfNode(dir)));
  server = await startServerProcess(
    {
      ...SERVER_SECRET_ENV,
      DATA_DIR: path.join(root, 'server'),
      OPRF_NODES: nodes.map((node) => node.url).join(','),
      OPRF_THRESHOLD: '2',
      DERIVATION_THREADS: '1',
      PROOF_VERIFIER_THREADS: '1',
      TRUSTED_ISSUERS: `Example University=${issuerPublicKey(university)}`,
    },
    { readyTimeoutMs: 120_000 },
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all(nodes.map(killOprfNode));
  removeTempDirs();
});

describe('a credential in threshold mode', () => {
  it('registers once, in its own ID space, and its holder verifies', async () => {
    const line = issueCredential(university, 'Staff 77');
    const register = async (id_info: string, bio_info: string) => (await postJson(server, '/register', { id_info, bio_info })).body;
    expect(await register('Staff 77', 'threshold: a plain registration of the same text')).toMatchObject({
      'DID already generated': false,
    });
    expect(await register(line, 'threshold: the holder')).toMatchObject({ 'DID already generated': false });
    expect(await register(line, 'threshold: someone else')).toEqual({ 'DID already generated': true });
    expect((await postJson(server, '/verify', { bio_info: 'threshold: the holder' })).body).toEqual({ 'Verification Result': 'Success' });
    expect((await postJson(server, '/erase', { id_info: line, bio_info: 'threshold: the holder' })).body).toEqual({
      'Erasure Result': 'Success',
    });
  });
});

/** A browser's zero-knowledge client in threshold mode: each v3 round goes to the nodes, their answers kept. */
class ThresholdZkClient extends ZkTestClient {
  constructor(
    private readonly sendTo: Send = viaHttp(server.url),
    artifacts: Artifacts,
  ) {
    super(sendTo, artifacts);
  }
  override v3Oprf(domain: OprfDomain, raw: string) {
    return nodesV3Round(this.sendTo, domain, raw);
  }
}

describe('a credential in threshold mode, proven in zero knowledge', () => {
  it('registers once with the node answers in its rounds', async () => {
    const artifacts = await Artifacts.load();
    const client = new ThresholdZkClient(undefined, artifacts);
    const line = issueCredential(university, 'Staff 78');
    const trustedKeys = [issuerPublicKey(university)];
    const first = await proveCredentialRegistration(client, artifacts, line, 'threshold zk: the holder', { trustedKeys });
    expect(first.body.id.answers?.length).toBeGreaterThanOrEqual(2);
    expect((await postJson(server, '/register', first.body)).body).toEqual({ 'DID already generated': false, DID: first.did });
    const second = await proveCredentialRegistration(client, artifacts, line, 'threshold zk: someone else', { trustedKeys });
    expect((await postJson(server, '/register', second.body)).body).toEqual({ 'DID already generated': true });
    await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
  }, 300_000);
});

describe('the credential leaf in threshold mode (decision 086)', () => {
  it('reaches storage from the raw path’s derivation thread and from the proof; a changed leaf is refused', async () => {
    const testApp = await startTestApp({
      env: {
        ...SERVER_SECRET_ENV,
        OPRF_NODES: nodes.map((node) => node.url).join(','),
        OPRF_THRESHOLD: '2',
        DERIVATION_THREADS: '1',
        TRUSTED_ISSUERS: `Example University=${issuerPublicKey(university)}`,
      },
    });
    let stopWatching = () => {};
    try {
      // A test app starts no watcher of its own: read the nodes' keys and bind the v3 group key, as a
      // server process does at start (compose.ts).
      const watcher = watchNodeKeys(testApp.services.oprfNodes!, {
        urls: nodes.map((node) => node.url),
        threshold: 2,
        timeoutMs: 5_000,
        rereadMs: 60_000,
        log: { info: () => undefined, warn: () => undefined },
      });
      await watcher.firstRead(
        () => false,
        () => false,
      );
      await watcher.bindV3(testApp.storage.keyFingerprints);
      stopWatching = () => watcher.stop();
      const recorded = recordRegistrations(testApp.storage);
      const artifacts = await Artifacts.load();
      const client = new ThresholdZkClient(viaInject(testApp.app), artifacts);
      const post = async (body: object) => {
        const reply = await testApp.app.inject({ method: 'POST', url: '/register', payload: body });
        return { status: reply.statusCode, body: reply.json<{ error?: { code: string } }>() };
      };
      const key = issuerPublicKey(university);
      // Raw: the server derives the secret from the nodes' evaluations, and the leaf from it.
      const raw = await post({ id_info: issueCredential(university, 'Staff 79'), bio_info: 'threshold leaf: raw' });
      expect(raw.body).toMatchObject({ 'DID already generated': false });
      expect(recorded).toEqual([
        expect.objectContaining({ credentialLeaf: credentialLeaf(key, (await client.identityOf('threshold leaf: raw')).secretScalar) }),
      ]);
      // Zero knowledge: the leaf is the proof's; another one does not verify.
      const line = issueCredential(university, 'Staff 80');
      const tried = await proveCredentialRegistration(client, artifacts, line, 'threshold leaf: zk', { trustedKeys: [key] });
      const changed = {
        ...tried.body,
        credential: { ...tried.body.credential, leaf: (BigInt(tried.body.credential.leaf) + 1n).toString() },
      };
      expect(await post(changed)).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PROOF' } } });
      const proven = await proveCredentialRegistration(client, artifacts, line, 'threshold leaf: zk', { trustedKeys: [key] });
      expect((await post(proven.body)).body).toEqual({ 'DID already generated': false, DID: proven.did });
      expect(recorded).toHaveLength(2);
      expect(recorded[1]).toMatchObject({ did: proven.did, credentialLeaf: credentialLeaf(key, proven.secret) });
      await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
    } finally {
      stopWatching();
      await testApp.destroy();
    }
  }, 400_000);
});

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { generateOprfKeyPair, normaliseInput, OPRF_SUITE, OprfEvaluator, type OprfDomain } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { babyJubjubSuite, decodePoint, decodeScalar, SUITE_ID, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { v3BlindedPoints, v3EvaluateBatch } from '../src/oprf/batch-v3.ts';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { loadOprfKey } from '../src/oprf/oprf-key.ts';
import { checkKeyFingerprint } from '../src/oprf/check-key-fingerprint.ts';
import { libsodiumReady } from '../src/oprf/libsodium.ts';
import { evaluateWithNodes } from '../src/oprf/nodes/evaluate-with-nodes.ts';
import { assessNodeKeys } from '../src/oprf/nodes/assess-node-keys.ts';
import { readNodeKeys } from '../src/oprf/nodes/read-node-keys.ts';
import { sodiumBlindedElements, sodiumBlindEvaluateBatch } from '../src/oprf/sodium-voprf.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import { admissions, killOprfNode, SERVER_SECRET_ENV, splitKey, startOprfNode, type OprfNodeProcess } from './threshold-processes.ts';
import { releaseSnarkjs } from './real-proofs.ts';
import { runServerUntilExit, startServerProcess, type ServerProcess } from './server-process.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';
import { nodesV3Round } from './threshold-round-v3.ts';
import { post, postJson } from './support/post.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { usePostgres } from './support/use-postgres.ts';

/**
 * Threshold mode end to end (decision 021), on real processes: a key made by a single-key server on
 * SQLite is split 2-of-3 with the CLI; three OPRF node processes serve the shares; servers in
 * threshold mode (the same SQLite directory, and a real PostgreSQL) act as the nodes' client on the
 * raw path and publish them to zero-knowledge clients. A node is killed mid-run, a lying node takes
 * the place of one, too few nodes answer 503, and servers pointed at the wrong nodes refuse to start.
 */
const LEAN = { DERIVATION_THREADS: '0', PROOF_VERIFIER_THREADS: '1' };

let root: string;
const postgres = usePostgres();
let singleDir: string;
const nodes: OprfNodeProcess[] = [];
const servers: ServerProcess[] = [];
let liar: Server | undefined;

/**
 * A node that lies: it publishes node 3's true Kᵢ (v2 and v3) but answers with other keys, with
 * well-formed DLEQ proofs for those keys, so only a client that checks each proof against Kᵢ notices.
 * It answers protocol v3's rounds (`suite`, decision 058) as well as v2's; anything it cannot read
 * gets a 400, as an honest node's would.
 */
async function startLiar(port: number, publicKeyReply: string): Promise<Server> {
  const wrongKey = (await generateOprfKeyPair()).privateKey;
  const wrong = new OprfEvaluator(wrongKey);
  const wrongV3 = await babyJubjubSuite.generateKeyPair();
  const wrongV3Scalar = decodeScalar(wrongV3.privateKey)!;
  const wrongV3Public = decodePoint(wrongV3.publicKey)!;
  const published = new Uint8Array(Buffer.from((JSON.parse(publicKeyReply) as { publicKey: string }).publicKey, 'base64url'));
  await libsodiumReady;
  const answer = async (url: string | undefined, body: string): Promise<Uint8Array> => {
    const parsed = JSON.parse(body) as { request?: string; element?: string; suite?: string };
    const bytes = new Uint8Array(Buffer.from(parsed.request ?? parsed.element ?? '', 'base64url'));
    if (parsed.suite) {
      // Protocol v3: a wrong v3 key's evaluations, with a valid proof for that key, not for Kᵢ.
      return url === '/oprf/batch'
        ? v3EvaluateBatch(wrongV3Scalar, wrongV3Public, v3BlindedPoints(bytes)!)
        : babyJubjubSuite.blindEvaluate(wrongV3.privateKey, bytes);
    }
    // The raw path's batch (decision 027): a wrong key's evaluations, one batch proof against Kᵢ.
    if (url === '/oprf/batch') return sodiumBlindEvaluateBatch(wrongKey, published, sodiumBlindedElements(bytes, 2)!);
    return wrong.blindEvaluate(bytes);
  };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.method === 'GET' && request.url === '/oprf/public-key') return response.end(publicKeyReply);
      answer(request.url, body).then(
        (evaluation) => response.end(JSON.stringify({ evaluation: Buffer.from(evaluation).toString('base64url') })),
        () => {
          response.statusCode = 400;
          response.end(JSON.stringify({ code: 'INVALID_ELEMENT' }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const startServer = async (env: Record<string, string>) => {
  const server = await startServerProcess({ ...LEAN, ...env });
  servers.push(server);
  return server;
};
const thresholdEnv = (urls: string[]) => ({
  ...SERVER_SECRET_ENV,
  OPRF_NODES: urls.join(','),
  OPRF_THRESHOLD: '2',
  OPRF_NODE_TIMEOUT_MS: '3000',
});

/** The browser's zero-knowledge flow in Node, with its OPRF rounds sent to the nodes the server publishes. */
class ThresholdZkClient extends ZkTestClient {
  constructor(
    private readonly server: ServerProcess,
    artifacts: Artifacts,
  ) {
    super(viaHttp(server.url), artifacts);
  }

  override async oprf(domain: OprfDomain, raw: string): Promise<Uint8Array> {
    const published = (await (await fetch(`${this.server.url}/oprf/public-key`)).json()) as {
      nodes: string[];
      threshold: number;
      publicKey: string;
    };
    const set = assessNodeKeys(published.nodes, await readNodeKeys(published.nodes, 3000), published.threshold, {
      groupPublicKey: new Uint8Array(Buffer.from(published.publicKey, 'base64url')),
    });
    const tasks = [{ domain, normalised: normaliseInput(raw) }];
    // As the browser does: the server counts the guess and admits the element, then the nodes evaluate it.
    const admit = async (request: Uint8Array) => {
      const reply = await post(this.server, '/oprf/admission', { request: Buffer.from(request).toString('base64url') });
      if (!reply.ok) throw new Error(`POST /oprf/admission answered ${reply.status}`);
      return ((await reply.json()) as { admission: string }).admission;
    };
    return (await evaluateWithNodes(set, tasks, { timeoutMs: 3000, admit })).outputs[0]!;
  }

  /** Protocol v3's round through the nodes, as the browser makes it (decision 058). */
  override v3Oprf(domain: OprfDomain, raw: string) {
    return nodesV3Round(viaHttp(this.server.url), domain, raw);
  }
}

beforeAll(async () => {
  root = tempDir('zeroid-threshold-');
  singleDir = path.join(root, 'single');
  // A data directory made in single-key mode, with one identity in it.
  const single = await startServer({ DATA_DIR: singleDir });
  expect((await postJson(single, '/register', { id_info: 'ID-OLD-1', bio_info: 'an old biometric' })).body).toMatchObject({
    'DID already generated': false,
  });
  await single.stop();
  // Its key, split 2-of-3 by the CLI into one data directory per node.
  const shareDirs = await splitKey({ DATA_DIR: singleDir }, path.join(root, 'shares'));
  nodes.push(...(await Promise.all(shareDirs.map((dir) => startOprfNode(dir)))));
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all(nodes.map(killOprfNode));
  await new Promise((resolve) => (liar ? liar.close(resolve) : resolve(undefined)));
  await releaseSnarkjs();
  removeTempDirs();
});

describe('threshold OPRF mode (2 of 3 nodes)', () => {
  it('serves a SQLite directory made in single-key mode: its old identities still verify, and no key is offered', async () => {
    const server = await startServer({ DATA_DIR: singleDir, ...thresholdEnv(nodes.map((n) => n.url)) });
    expect((await postJson(server, '/verify', { bio_info: 'an old biometric' })).body).toEqual({ 'Verification Result': 'Success' });
    expect((await postJson(server, '/verify', { bio_info: 'never registered' })).body).toEqual({ 'Verification Result': 'Failure' });
    expect((await postJson(server, '/register', { id_info: 'ID-OLD-1', bio_info: 'another biometric' })).body).toEqual({
      'DID already generated': true,
    });

    const published = (await (await fetch(`${server.url}/oprf/public-key`)).json()) as Record<string, unknown>;
    const singleKey = JSON.parse(readFileSync(path.join(singleDir, 'oprf-key.json'), 'utf8')) as { publicKey: string };
    expect(published).toEqual({
      suite: OPRF_SUITE,
      publicKey: singleKey.publicKey,
      threshold: 2,
      nodes: nodes.map((n) => n.url),
      admissionKey: Buffer.from(admissions.publicKey).toString('base64url'),
      // Protocol v3's group key: the nodes' v3 shares are of the single key's v3 key (decision 058).
      v3: {
        suite: SUITE_ID,
        publicKey: Buffer.from(babyJubjubSuite.publicKey(v3KeyFromV2(await loadOprfKey(singleDir, undefined)))).toString('base64url'),
      },
    });
    const refused = await post(server, '/oprf', { element: 'AAE' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('OPRF_THRESHOLD_MODE');
    const csp = (await fetch(`${server.url}/livez`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src 'self' ${nodes.map((n) => n.url).join(' ')};`);
    expect(server.output.join('')).toContain('still holds the whole OPRF key');
    await server.stop();
  }, 60_000);

  it('registers and verifies on PostgreSQL, raw and zero-knowledge, through a node killed mid-run, a lying node and too few nodes', async () => {
    const artifacts = await Artifacts.load();
    const server = await startServer({
      DATABASE_URL: postgres.url,
      DATA_DIR: path.join(root, 'pg-server'),
      ...thresholdEnv(nodes.map((n) => n.url)),
    });
    const zk = new ThresholdZkClient(server, artifacts);

    expect((await postJson(server, '/register', { id_info: 'ID-PG-1', bio_info: 'raw biometric one' })).body).toMatchObject({
      'DID already generated': false,
    });
    expect((await zk.register('ID-ZK-1', 'zk biometric one')).json()).toMatchObject({ 'DID already generated': false });
    expect((await zk.verify(await zk.prove('zk biometric one'))).json()).toEqual({ 'Verification Result': 'Success' });
    // The same people derive the same values whichever t nodes answer: the raw path sees the ZK identity.
    expect((await postJson(server, '/verify', { bio_info: 'zk biometric one' })).body).toEqual({ 'Verification Result': 'Success' });

    // Node 3 dies while verifications are in flight: every one still gets the right verdict.
    const inFlight = Array.from({ length: 8 }, (_, i) =>
      postJson(server, '/verify', { bio_info: i % 2 ? 'raw biometric one' : 'not registered' }).then((reply) => reply.body),
    );
    await killOprfNode(nodes[2]!);
    expect(await Promise.all(inFlight)).toEqual(
      Array.from({ length: 8 }, (_, i) => ({ 'Verification Result': i % 2 ? 'Success' : 'Failure' })),
    );
    expect((await postJson(server, '/register', { id_info: 'ID-PG-2', bio_info: 'raw biometric two' })).body).toMatchObject({
      'DID already generated': false,
    });
    expect((await postJson(server, '/verify', { bio_info: 'raw biometric two' })).body).toEqual({ 'Verification Result': 'Success' });

    // A liar takes node 3's place, with node 3's public key: its answers are left out, verdicts stay right.
    liar = await startLiar(nodes[2]!.port, readNodeKey(nodes[2]!));
    for (let i = 0; i < 3; i++) {
      expect((await postJson(server, '/verify', { bio_info: 'raw biometric two' })).body).toEqual({ 'Verification Result': 'Success' });
      expect((await postJson(server, '/verify', { bio_info: 'not registered' })).body).toEqual({ 'Verification Result': 'Failure' });
      // Raw registrations go to the nodes as one batch of two (bio and ID): the liar's batch is left out too.
      expect((await postJson(server, '/register', { id_info: `ID-PG-L${i}`, bio_info: `raw biometric L${i}` })).body).toMatchObject({
        'DID already generated': false,
      });
    }
    expect((await postJson(server, '/verify', { bio_info: 'raw biometric L2' })).body).toEqual({ 'Verification Result': 'Success' });
    // The browser's v3 round leaves the liar's answer out by its proof; the server checks the answers again.
    expect((await zk.register('ID-ZK-L', 'zk biometric liar')).json()).toMatchObject({ 'DID already generated': false });
    expect((await zk.verify(await zk.prove('zk biometric liar'))).json()).toEqual({ 'Verification Result': 'Success' });

    // Node 2 dies too: one honest node and a liar are fewer than t. 503 with a code, never a verdict.
    await killOprfNode(nodes[1]!);
    for (const [route, body] of [
      ['/verify', { bio_info: 'raw biometric two' }],
      ['/register', { id_info: 'ID-PG-3', bio_info: 'raw biometric three' }],
    ] as const) {
      const reply = await post(server, route, body);
      expect(reply.status).toBe(503);
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('OPRF_UNAVAILABLE');
    }
    await expect(zk.register('ID-ZK-2', 'zk biometric two')).rejects.toThrow();
    // Through the server's logger, structured (decision 053): index, URL and reason, never a value.
    expect(server.output.join('')).toMatch(
      /"node":3,"url":"http:\/\/127\.0\.0\.1:\d+","reason":"proof-failed"[^\n]*"msg":"OPRF nodes left out of an evaluation"/,
    );
    expect(server.output.join('')).not.toContain('raw biometric');

    // Node 2 is back: the registration refused above was not stored, so it is new now.
    nodes[1] = await startOprfNode(nodes[1]!.dataDir, { port: nodes[1]!.port });
    expect((await postJson(server, '/register', { id_info: 'ID-PG-3', bio_info: 'raw biometric three' })).body).toMatchObject({
      'DID already generated': false,
    });
    await server.stop();
  }, 120_000);

  it('refuses to start against nodes of another key, or listed out of order, and says what to fix', async () => {
    // A database whose recorded key is not the one the nodes share.
    const otherDatabase = await postgres.createDatabase();
    const storage = await openStorage({ databaseUrl: otherDatabase, dataDir: root, poolSize: 1, sqliteMaxSizeBytes: undefined });
    const { publicKey } = await generateOprfKeyPair();
    await checkKeyFingerprint(storage.keyFingerprints, { purpose: 'oprf', suite: OPRF_SUITE, publicKey });
    await storage.close();
    const urls = [nodes[0]!.url, nodes[1]!.url, `http://127.0.0.1:${nodes[2]!.port}`];
    const [mismatch, misordered] = await Promise.all([
      runServerUntilExit({ ...LEAN, DATABASE_URL: otherDatabase, DATA_DIR: path.join(root, 'other'), ...thresholdEnv(urls) }),
      runServerUntilExit({ ...LEAN, DATA_DIR: path.join(root, 'misordered'), ...thresholdEnv([urls[1]!, urls[0]!, urls[2]!]) }),
    ]);
    expect(mismatch.code, mismatch.output).toBe(1);
    expect(mismatch.output).toContain(
      'ZeroID refuses to start: the OPRF nodes in OPRF_NODES hold shares of another key than the one this database was created with',
    );
    expect(mismatch.output).toContain('Point OPRF_NODES at the nodes whose shares were split from this database');
    expect(misordered.code, misordered.output).toBe(1);
    expect(misordered.output).toContain(
      `OPRF_NODES lists ${urls[1]} at place 1, but that node holds share 2. List the nodes in share order`,
    );
  }, 60_000);
});

/** What node 3 published while it was alive, as its share file records it. */
function readNodeKey(node: OprfNodeProcess): string {
  const file = JSON.parse(readFileSync(path.join(node.dataDir, 'oprf-share.json'), 'utf8')) as Record<string, unknown>;
  const v3 = file.v3 as Record<string, unknown>;
  return JSON.stringify({
    suite: file.suite,
    index: file.index,
    publicKey: file.publicKey,
    threshold: file.threshold,
    groupPublicKey: file.groupPublicKey,
    v3: { suite: v3.suite, publicKey: v3.publicKey, groupPublicKey: v3.groupPublicKey },
  });
}

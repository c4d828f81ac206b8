import path from 'node:path';
import type { OprfDomain } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessDeriver } from '../src/identity/raw/raw-deriver.ts';
import { loadOprfKey } from '../src/oprf/oprf-key.ts';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { startHangingNode } from './hanging-node.ts';
import { releaseSnarkjs } from './real-proofs.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { postJson } from './support/post.ts';
import { killOprfNode, SERVER_SECRET_ENV, splitKey, startOprfNode, type OprfNodeProcess } from './threshold-processes.ts';
import { nodesV3Round } from './threshold-round-v3.ts';
import { viaHttp, ZkTestClient, type ProvingIdentity } from './zk-client.ts';

/**
 * A burst in threshold mode (decision 075), on real processes: a key split 2-of-3 by the CLI, three
 * node processes, and a threshold server on SQLite with the default node timeout (2 s), derivation
 * threads and queue. Sixty people register at once on the raw path, then sixty verify at once with
 * zero-knowledge proofs, their OPRF rounds through the server's admission and the nodes as the
 * browser makes them; again with one node that never answers; and, past a small queue, the requests
 * it cannot take are refused with 503 OPRF_BUSY and Retry-After, with nothing stored.
 */
const BURST = 60;
/** The web app's wait for a node's answer (apps/web/src/oprf/node-round-timeout-and-messages.ts). */
const BROWSER_NODE_TIMEOUT_MS = 10_000;

let root: string;
let privateKey: Uint8Array;
let artifacts: Artifacts;
const nodes: OprfNodeProcess[] = [];
const servers: ServerProcess[] = [];
let hanging: Awaited<ReturnType<typeof startHangingNode>> | undefined;

type Person = { id_info: string; bio_info: string };
const people = (label: string, count = BURST): Person[] =>
  Array.from({ length: count }, (_, i) => ({ id_info: `ID-${label}-${i}`, bio_info: `burst biometric ${label} ${i}` }));
/** The DID the single key gives this person: what a right registration answers. */
const expectedDid = async (person: Person) =>
  (await inProcessDeriver(privateKey).registration({ idInfo: person.id_info, bioInfo: person.bio_info })).v3.did;

const startServer = async (env: Record<string, string> = {}) => {
  const server = await startServerProcess({
    DATA_DIR: path.join(root, 'server'),
    ...SERVER_SECRET_ENV,
    OPRF_NODES: nodes.map((node) => node.url).join(','),
    OPRF_THRESHOLD: '2',
    ...env,
  });
  servers.push(server);
  return server;
};

/** The browser's zero-knowledge flow in Node, its v3 rounds sent to the nodes the server publishes. */
class ThresholdZkClient extends ZkTestClient {
  constructor(private readonly server: ServerProcess) {
    super(viaHttp(server.url), artifacts);
  }

  override v3Oprf(domain: OprfDomain, raw: string) {
    return nodesV3Round(viaHttp(this.server.url), domain, raw, { timeoutMs: BROWSER_NODE_TIMEOUT_MS });
  }
}

/** `group` registering at once on the raw path: each answer, as status and body. */
const registerAll = (server: ServerProcess, group: Person[]) => Promise.all(group.map((person) => postJson(server, '/register', person)));

/**
 * `group` verifying at once with zero-knowledge proofs: every OPRF round at once (admission, then
 * the nodes), each proof made in turn (the clients' own work, here on one machine), every proof sent
 * at once. The verdicts, in order.
 */
async function verifyAll(server: ServerProcess, group: Person[]): Promise<unknown[]> {
  const client = new ThresholdZkClient(server);
  const identities: ProvingIdentity[] = await Promise.all(group.map((person) => client.identityOf(person.bio_info)));
  const proofs = [];
  for (const identity of identities) proofs.push(await client.proveIdentity(identity));
  return Promise.all(proofs.map(async (proof) => (proof ? (await client.verify(proof)).json() : 'not a member')));
}

beforeAll(async () => {
  root = tempDir('zeroid-threshold-burst-');
  privateKey = await loadOprfKey(path.join(root, 'server'), undefined);
  const shareDirs = await splitKey({ DATA_DIR: path.join(root, 'server') }, path.join(root, 'shares'));
  nodes.push(...(await Promise.all(shareDirs.map((dir) => startOprfNode(dir)))));
  artifacts = await Artifacts.load();
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all(nodes.map(killOprfNode));
  await hanging?.close();
  await releaseSnarkjs();
  removeTempDirs();
});

describe('a burst in threshold mode (2 of 3 nodes)', () => {
  it('serves 60 concurrent raw registrations and 60 concurrent zero-knowledge verifications with every node up', async () => {
    const server = await startServer();
    const group = people('up');
    const replies = await registerAll(server, group);
    expect(replies).toEqual(
      await Promise.all(
        group.map(async (person) => ({ status: 200, body: { 'DID already generated': false, DID: await expectedDid(person) } })),
      ),
    );
    expect(await verifyAll(server, group)).toEqual(group.map(() => ({ 'Verification Result': 'Success' })));
    await server.stop();
  }, 600_000);

  it('beyond its queue refuses with 503 OPRF_BUSY and Retry-After, stores nothing refused, and answers the rest rightly', async () => {
    // One derivation at a time and one waiting: a burst of 20 overflows it.
    const server = await startServer({ OPRF_NODE_CONCURRENCY: '1', OPRF_NODE_QUEUE: '1' });
    const group = people('queue', 20);
    const responses = await Promise.all(
      group.map((person) =>
        fetch(`${server.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(person) }),
      ),
    );
    const answers = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: await response.json(),
      })),
    );
    const refused: Person[] = [];
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 200) {
        expect(answer.body).toEqual({ 'DID already generated': false, DID: await expectedDid(group[i]!) });
        continue;
      }
      expect(answer.status).toBe(503);
      expect((answer.body as { error: { code: string } }).error.code).toBe('OPRF_BUSY');
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      refused.push(group[i]!);
    }
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(group.length);
    // Nothing of a refused request was stored: each registers now, as new.
    for (const person of refused) {
      expect(await postJson(server, '/register', person)).toEqual({
        status: 200,
        body: { 'DID already generated': false, DID: await expectedDid(person) },
      });
    }
    await server.stop();
  }, 300_000);

  it('serves the same bursts through the other two when one node never answers', async () => {
    // Node 3 replaced by one that publishes its key and never answers an evaluation.
    const keyReply = await (await fetch(`${nodes[2]!.url}/oprf/public-key`)).text();
    await killOprfNode(nodes[2]!);
    hanging = await startHangingNode(nodes[2]!.port, keyReply);
    const server = await startServer();
    const group = people('hanging');
    const replies = await registerAll(server, group);
    expect(replies).toEqual(
      await Promise.all(
        group.map(async (person) => ({ status: 200, body: { 'DID already generated': false, DID: await expectedDid(person) } })),
      ),
    );
    expect(await verifyAll(server, group)).toEqual(group.map(() => ({ 'Verification Result': 'Success' })));
    expect(hanging.posts()).toBeGreaterThan(0); // it was asked, and the others answered for it
    await server.stop();
  }, 600_000);
});

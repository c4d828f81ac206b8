import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import { blindOprfInput, OPRF_ADMISSION_HEADER, type OprfDomain, type OprfNodeKeyReply } from '@zeroid/protocol';
import {
  babyJubjubSuite,
  blindQuery,
  decodeEvaluation,
  decodePoint,
  encodePoint,
  G,
  Point,
  SUITE_ID,
  v3KeyFromV2,
  verifyDleq,
  type ZkRegisterV3Body,
} from '@zeroid/protocol/v3';
import { runOprfCli } from '../src/cli/oprf-cli.ts';
import { keyFingerprint, V3_PURPOSE } from '../src/oprf/check-key-fingerprint.ts';
import { watchNodeKeys } from '../src/oprf/nodes/watch-node-keys.ts';
import { nodeSetFromThread, nodeSetToThread } from '../src/oprf/nodes/node-set-for-thread.ts';
import { v3ThresholdRound } from '../src/oprf/nodes/threshold-round-v3.ts';
import { loadOprfKey } from '../src/oprf/oprf-key.ts';
import { encodeV3Points, v3VerifiedBatch } from '../src/oprf/batch-v3.ts';
import { v3OutputsOverNodes } from '../src/identity/raw/outputs-over-nodes-v3.ts';
import { startOprfNodeProcess } from './oprf-node-process.ts';
import { freePort, type ServerProcess } from './server-process.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { admissions, NODE_ADMISSION_ENV, SERVER_SECRET_ENV } from './threshold-processes.ts';
import { viaInject, ZkTestClient } from './zk-client.ts';
import { nodesV3Round } from './threshold-round-v3.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';

/**
 * Threshold mode under protocol v3 (decision 058), on real node processes: a real server key split
 * 2-of-3 by the CLI (v3: `v3KeyFromV2` of it), three nodes on those files, a fourth on node 3's file
 * as written before v3 (no v3 share), and a server app in threshold mode whose node set is kept by
 * the real watcher on a real SQLite database.
 */
const root = tempDir('zeroid-threshold-v3-');
const GUESSES = 4;
let v3Key: Uint8Array;
let nodes: ServerProcess[] = [];
let oldNode: ServerProcess;
let app: TestApp;

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));
const v3Admitted = (request: Uint8Array) => ({ [OPRF_ADMISSION_HEADER]: admissions.issue(request, undefined, SUITE_ID) });
const post = (url: string, body: object, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
/** A node's POST /oprf (one point) or /oprf/batch (one or two) with suite v3. */
const evaluateV3 = (node: ServerProcess, points: Uint8Array, headers: Record<string, string> = v3Admitted(points)) =>
  points.length > 32
    ? post(`${node.url}/oprf/batch`, { request: b64(points), suite: SUITE_ID }, headers)
    : post(`${node.url}/oprf`, { element: b64(points), suite: SUITE_ID }, headers);
const batchV3 = (node: ServerProcess, points: Uint8Array, headers: Record<string, string> = v3Admitted(points)) =>
  post(`${node.url}/oprf/batch`, { request: b64(points), suite: SUITE_ID }, headers);
const evaluationOf = async (reply: Response) => fromB64(((await reply.json()) as { evaluation: string }).evaluation);
/** A node-key watcher's options for `urls` (2-of-3, read only when asked), as the server's, logging nowhere. */
const watching = (urls: string[]) => ({
  urls,
  threshold: 2,
  timeoutMs: 2_000,
  rereadMs: 60_000,
  log: { info: () => undefined, warn: () => undefined },
});
const keyOf = async (node: ServerProcess) => (await (await fetch(`${node.url}/oprf/public-key`)).json()) as OprfNodeKeyReply;

// A point of order 2, (0, −1): alone, or added to a subgroup point, it must never be evaluated.
const order2 = Point.fromAffine({ x: 0n, y: Point.Fp.neg(1n) });
const invalidPoints: [string, Uint8Array][] = [
  ['the identity', encodePoint(Point.ZERO)],
  ['a point of order 2', encodePoint(order2)],
  ['a mixed-order point', encodePoint(G.add(order2))],
  ['no point at all (all ones)', new Uint8Array(32).fill(0xff)],
  ['31 bytes', new Uint8Array(31).fill(1)],
  ['three points', encodeV3Points([G, G, G])],
];

beforeAll(async () => {
  const serverData = path.join(root, 'server');
  const key = await loadOprfKey(serverData, undefined);
  v3Key = v3KeyFromV2(key);
  const quiet = { print: () => undefined, printError: (line: string) => console.error(line) };
  expect(
    await runOprfCli(['split', '--threshold', '2', '--shares', '3', '--out', 'shares'], {
      env: { DATA_DIR: serverData },
      cwd: root,
      ...quiet,
    }),
  ).toBe(0);
  // Node 3's file as `split` wrote it before protocol v3: no v3 part.
  const old = JSON.parse(readFileSync(path.join(root, 'shares/node-3/oprf-share.json'), 'utf8')) as Record<string, unknown>;
  delete old.v3;
  mkdirSync(path.join(root, 'old-3'), { mode: 0o700 });
  writeFileSync(path.join(root, 'old-3/oprf-share.json'), JSON.stringify(old), { mode: 0o600 });

  // The app first: its start (checksumming the artifacts) holds this process's event loop for seconds,
  // which would leave the HTTP client holding sockets the nodes have closed meanwhile.
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  app = await startTestApp({
    env: { ...SERVER_SECRET_ENV, OPRF_NODES: ports.map((port) => `http://127.0.0.1:${port}`).join(','), OPRF_THRESHOLD: '2' },
  });
  const common = { ...NODE_ADMISSION_ENV, RATE_LIMIT_PER_MINUTE: '0' };
  [nodes, oldNode] = await Promise.all([
    Promise.all([
      startOprfNodeProcess({ ...common, DATA_DIR: path.join(root, 'shares/node-1') }, { port: ports[0] }),
      // Node 2 keeps a guess budget per client, told apart by X-Forwarded-For (it trusts this test as its proxy).
      startOprfNodeProcess(
        {
          ...NODE_ADMISSION_ENV,
          DATA_DIR: path.join(root, 'shares/node-2'),
          GUESSES_BEFORE_DELAY: String(GUESSES),
          TRUST_PROXY: '127.0.0.1',
        },
        { port: ports[1] },
      ),
      startOprfNodeProcess({ ...common, DATA_DIR: path.join(root, 'shares/node-3') }, { port: ports[2] }),
    ]),
    startOprfNodeProcess({ ...common, DATA_DIR: path.join(root, 'old-3') }),
  ]);
}, 180_000);

afterAll(async () => {
  await app?.destroy();
  await Promise.all([...nodes, oldNode].filter(Boolean).map((node) => node.stop()));
  removeTempDirs();
});

describe('threshold mode under protocol v3', () => {
  it('nodes publish v3 shares of v3KeyFromV2(k) whose Kᵢ interpolate to it, and each evaluates with a DLEQ proof against its Kᵢ', async () => {
    const replies = await Promise.all(nodes.map(keyOf));
    const groupKey = babyJubjubSuite.publicKey(v3Key);
    for (const [i, reply] of replies.entries()) {
      expect(reply.v3).toMatchObject({ suite: SUITE_ID, groupPublicKey: b64(groupKey) });
      expect(reply.index).toBe(i + 1);
    }
    const shares = replies.map(({ index, v3 }) => ({ index, publicKey: fromB64(v3!.publicKey) }));
    expect(() => babyJubjubSuite.checkPublicShares(groupKey, shares, 2)).not.toThrow();

    const { blinded } = blindQuery('bio', 'a biometric');
    const reply = await evaluateV3(nodes[0]!, encodePoint(blinded));
    expect(reply.status).toBe(200);
    const answer = decodeEvaluation(await evaluationOf(reply))!;
    const k1 = decodePoint(shares[0]!.publicKey)!;
    expect(verifyDleq(k1, blinded, answer.evaluated, answer.proof)).toBe(true);
    // The same answer is not node 2's: against K₂ its proof fails.
    expect(verifyDleq(decodePoint(shares[1]!.publicKey)!, blinded, answer.evaluated, answer.proof)).toBe(false);
  });

  it("evaluates a batch with one proof, and any two nodes combine to the single v3 key's outputs", async () => {
    const tasks = [
      { domain: 'bio', normalised: 'a biometric' },
      { domain: 'id', normalised: 'an id' },
    ] as const;
    const expected = await Promise.all(
      tasks.map(async (task) => bytesToHex(await babyJubjubSuite.evaluate(v3Key, task.domain, task.normalised))),
    );
    const replies = await Promise.all(nodes.map(keyOf));
    const set = {
      groupKey: decodePoint(fromB64(replies[0]!.v3!.groupPublicKey))!,
      shares: new Map(replies.map(({ index, v3 }) => [index, decodePoint(fromB64(v3!.publicKey))!])),
      threshold: 2,
    };
    const round = v3ThresholdRound(set, tasks);
    const answers = await Promise.all(
      nodes.map(async (node, i) => {
        const reply = await batchV3(node, round.request, { ...v3Admitted(round.request), 'x-forwarded-for': '198.51.100.1' });
        expect(reply.status).toBe(200);
        return { index: i + 1, evaluation: await evaluationOf(reply) };
      }),
    );
    // Z₁ ‖ Z₂ ‖ e ‖ s: one proof for both points, checked against the node's own Kᵢ only.
    expect(answers[0]!.evaluation).toHaveLength(32 + 96);
    const blinded = [decodePoint(round.request.subarray(0, 32))!, decodePoint(round.request.subarray(32))!];
    expect(v3VerifiedBatch(set.shares.get(1)!, blinded, answers[0]!.evaluation)).toHaveLength(2);
    expect(v3VerifiedBatch(set.shares.get(2)!, blinded, answers[0]!.evaluation)).toBeUndefined();
    expect(v3VerifiedBatch(set.shares.get(1)!, [...blinded].reverse(), answers[0]!.evaluation)).toBeUndefined();
    for (const pair of [
      [0, 1],
      [1, 2],
      [2, 0],
    ]) {
      const { outputs, rejected } = round.finalize(pair.map((i) => answers[i]!));
      expect(rejected).toEqual([]);
      expect(outputs.map(bytesToHex)).toEqual(expected);
    }
    // Node 1's answer under node 2's index is refused and named; a tampered proof too.
    expect(() => round.finalize([answers[0]!, { index: 2, evaluation: answers[0]!.evaluation }])).toThrow(
      expect.objectContaining({ rejected: [2] }) as Error,
    );
    const tampered = Uint8Array.from(answers[1]!.evaluation);
    tampered[100]! ^= 1;
    expect(() => round.finalize([answers[0]!, { index: 2, evaluation: tampered }])).toThrow(
      expect.objectContaining({ rejected: [2] }) as Error,
    );
  });

  it('admits v3 points only with a v3 admission, and v2 elements only with a v2 one', async () => {
    const points = encodeV3Points([blindQuery('id', 'admitted').blinded]);
    const v2Admission = { [OPRF_ADMISSION_HEADER]: admissions.issue(points) };
    const refused = await evaluateV3(nodes[0]!, points, v2Admission);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('ADMISSION_INVALID');
    expect((await evaluateV3(nodes[0]!, points)).status).toBe(200);
    // The reverse: a v3 admission over a real v2 element admits nothing at the v2 route.
    const v2Element = (await blindOprfInput(fromB64((await keyOf(nodes[0]!)).groupPublicKey), 'id', 'x')).request;
    const wrongSuite = await post(`${nodes[0]!.url}/oprf`, { element: b64(v2Element) }, v3Admitted(v2Element));
    expect(wrongSuite.status).toBe(403);
    expect(((await wrongSuite.json()) as { error: { code: string } }).error.code).toBe('ADMISSION_INVALID');
    expect(
      (await post(`${nodes[0]!.url}/oprf`, { element: b64(v2Element) }, { [OPRF_ADMISSION_HEADER]: admissions.issue(v2Element) })).status,
    ).toBe(200);
  });

  it('refuses invalid v3 points with 400 before the admission and before any guess is spent, at the nodes and at the server', async () => {
    const client = { 'x-forwarded-for': '198.51.100.7' };
    for (const [what, points] of invalidPoints) {
      // No admission at all: a 400, not a 403, so the gate comes first.
      const single = await evaluateV3(nodes[1]!, points, client);
      const batch = await batchV3(nodes[1]!, points, client);
      const admission = await app.app.inject({
        method: 'POST',
        url: '/oprf/admission',
        payload: { request: b64(points), suite: SUITE_ID },
      });
      for (const [route, status, body] of [
        ['node /oprf', single.status, await single.text()],
        ['node /oprf/batch', batch.status, await batch.text()],
        ['server /oprf/admission', admission.statusCode, admission.body],
      ] as const) {
        expect(status, `${what} at ${route}`).toBe(400);
        expect(body, `${what} at ${route}`).toContain('INVALID_ELEMENT');
      }
    }
    // Nothing was spent at node 2: this client still has its whole budget (a batch is two guesses).
    const two = encodeV3Points([blindQuery('bio', 'b').blinded, blindQuery('id', 'i').blinded]);
    const statuses = [];
    for (let i = 0; i < GUESSES / 2 + 1; i++) statuses.push((await batchV3(nodes[1]!, two, { ...v3Admitted(two), ...client })).status);
    expect(statuses).toEqual([...Array<number>(GUESSES / 2).fill(200), 429]);
  });

  it('the server binds the v3 group key, exposes current.v3, admits v3 points, and its raw-path outputs are the single v3 key’s', async () => {
    const state = app.services.oprfNodes!;
    const watcher = watchNodeKeys(state, watching(nodes.map((node) => node.url)));
    await watcher.firstRead(
      () => false,
      () => false,
    );
    expect(state.current!.v3).toBeUndefined(); // not bound to the database yet
    await watcher.bindV3(app.storage.keyFingerprints);
    const groupKey = babyJubjubSuite.publicKey(v3Key);
    const v3 = state.current!.v3!;
    expect(bytesToHex(encodePoint(v3.groupKey))).toBe(bytesToHex(groupKey));
    expect([...v3.shares.keys()]).toEqual([1, 2, 3]);
    expect(v3.threshold).toBe(2);
    expect(await app.storage.keyFingerprints.recorded(V3_PURPOSE)).toBe(
      keyFingerprint({ purpose: V3_PURPOSE, suite: SUITE_ID, publicKey: groupKey }),
    );

    // POST /oprf/admission with the suite: an admission the nodes take for exactly these v3 points.
    const points = encodeV3Points([blindQuery('bio', 'via the server').blinded]);
    const issued = await app.app.inject({ method: 'POST', url: '/oprf/admission', payload: { request: b64(points), suite: SUITE_ID } });
    expect(issued.statusCode).toBe(200);
    const { admission } = issued.json<{ admission: string }>();
    expect((await evaluateV3(nodes[0]!, points, { [OPRF_ADMISSION_HEADER]: admission })).status).toBe(200);
    // Not at the v2 route: those bytes are no ristretto255 element (400), or their admission is not a v2 one (403).
    const v2Route = await post(
      `${nodes[0]!.url}/oprf`,
      { element: b64(Uint8Array.from([0, 1, ...points])) },
      { [OPRF_ADMISSION_HEADER]: admission },
    );
    expect([400, 403]).toContain(v2Route.status);

    // The raw path's v3 outputs over the nodes (the set as a derivation thread receives it).
    const faults: unknown[] = [];
    const outputs = v3OutputsOverNodes(nodeSetFromThread(structuredClone(nodeSetToThread(state.current))), {
      timeoutMs: 2_000,
      admit: (request, suite) => admissions.issue(request, undefined, suite),
      onFaults: (left) => faults.push(...left),
    });
    const [bio, id] = await outputs.evaluateMany!([
      { domain: 'bio', normalised: 'raw bio' },
      { domain: 'id', normalised: 'raw id' },
    ]);
    expect(bytesToHex(bio!)).toBe(bytesToHex(await babyJubjubSuite.evaluate(v3Key, 'bio', 'raw bio')));
    expect(bytesToHex(id!)).toBe(bytesToHex(await babyJubjubSuite.evaluate(v3Key, 'id', 'raw id')));
    expect(faults).toEqual([]);

    // Node 3 replaced by its file from before v3: left out of v3 (named), still used for v2.
    const urls = [nodes[0]!.url, nodes[1]!.url, oldNode.url];
    const mixedState = { current: undefined } as { current: typeof state.current };
    const other = watchNodeKeys(mixedState, watching(urls));
    await other.firstRead(
      () => false,
      () => false,
    );
    await other.bindV3(app.storage.keyFingerprints);
    expect([...mixedState.current!.v3!.shares.keys()]).toEqual([1, 2]);
    expect(mixedState.current!.nodes.map((node) => [node.problem, node.v3Problem])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [undefined, 'no-v3-share'],
    ]);
    watcher.stop();
    other.stop();
  });

  it('accepts a zero-knowledge registration whose answers come from t real nodes, and refuses a wrong key, a node outside the set and a tampered proof', async () => {
    const client = new ZkTestClient(app.app, app.services.artifacts);
    // The browser's round (threshold-round-v3.ts): nodes 1, 2 and 3 asked, the first two that fit combined.
    const nodeRound = async (domain: OprfDomain, raw: string) => {
      const round = await nodesV3Round(viaInject(app.app), domain, raw);
      return { round, answers: round.answers! };
    };
    const [bio, id] = await Promise.all([nodeRound('bio', 'threshold biometric'), nodeRound('id', 'NP-058 Threshold')]);
    const proven = await client.proveRegistration('NP-058 Threshold', 'threshold biometric', { rounds: { bio: bio.round, id: id.round } });
    const withAnswers = (bioAnswers: typeof bio.answers): ZkRegisterV3Body => ({
      ...proven.body,
      bio: { ...proven.body.bio, answers: bioAnswers },
      id: { ...proven.body.id, answers: id.answers },
    });
    const register = async (body: ZkRegisterV3Body) => {
      const reply = await app.app.inject({ method: 'POST', url: '/register', payload: body });
      return { status: reply.statusCode, body: reply.json<Record<string, unknown> & { error?: { code: string } }>() };
    };

    // Node 1's answer replaced by a well-formed one under another key (its proof holds for that key only).
    const otherKey = (await babyJubjubSuite.generateKeyPair()).privateKey;
    const wrongKey = b64(await babyJubjubSuite.blindEvaluate(otherKey, fromB64(proven.body.bio.blinded)));
    // Node 2's true answer presented as node 9's, a node outside the set.
    const outside = [bio.answers[0]!, { index: 9, evaluation: bio.answers[1]!.evaluation }];
    // Node 2's answer with its proof's e changed.
    const tampered = fromB64(bio.answers[1]!.evaluation);
    tampered[40]! ^= 1;
    for (const [what, answers] of [
      ['another key', [{ index: 1, evaluation: wrongKey }, bio.answers[1]!]],
      ['node 9', outside],
      ['a tampered proof', [bio.answers[0]!, { index: 2, evaluation: b64(tampered) }]],
    ] as const) {
      const refused = await register(withAnswers([...answers]));
      expect([what, refused.status, refused.body.error?.code]).toEqual([what, 400, 'EVALUATION_REFUSED']);
    }
    // Nothing was consumed by the refusals: the honest body, with t real answers, registers.
    const accepted = await register(withAnswers(bio.answers));
    expect(accepted).toEqual({ status: 200, body: { 'DID already generated': false, DID: proven.registration.didKey.did } });
  }, 120_000);

  it('a node on a share file from before v3 loads, serves v2 only and says so in its log and /healthz', async () => {
    const reply = await keyOf(oldNode);
    expect(reply.index).toBe(3);
    expect(reply.v3).toBeUndefined();
    expect(await (await fetch(`${oldNode.url}/healthz`)).json()).toMatchObject({ status: 'ready', index: 3, v3: 'no-share' });
    expect(oldNode.output.join('')).toContain('serves protocol v2 only');
    const points = encodeV3Points([blindQuery('bio', 'old').blinded]);
    const refused = await evaluateV3(oldNode, points);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('OPRF_SUITE_UNAVAILABLE');
    expect(await (await fetch(`${nodes[0]!.url}/healthz`)).json()).toMatchObject({ v3: 'serving' });
  });
});

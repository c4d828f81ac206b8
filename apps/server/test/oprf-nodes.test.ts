import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import {
  blindThresholdOprfInput,
  checkPublicShares,
  OPRF_SUITE,
  OprfEvaluator,
  OPRF_ADMISSION_HEADER,
  type OprfNodeKeyReply,
  type OprfPublicShare,
} from '@zeroid/protocol';
import { runOprfCli } from '../src/cli/oprf-cli.ts';
import { loadOprfKey } from '../src/oprf/oprf-key.ts';
import { libsodiumReady } from '../src/oprf/libsodium.ts';
import { sodiumThresholdRound } from '../src/oprf/nodes/sodium-threshold-round.ts';
import { readShareFile } from '../src/oprf/oprf-share-store.ts';
import { runOprfNodeUntilExit, startOprfNodeProcess } from './oprf-node-process.ts';
import type { ServerProcess } from './server-process.ts';
import { admissionSigner } from '../src/oprf/oprf-admission-signer.ts';
import { invalidEncodings } from './ristretto255-invalid-encodings.ts';
import { admissions, NODE_ADMISSION_ENV } from './threshold-processes.ts';
import { nodeSlack } from '../src/limits/node-limits.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';

const root = tempDir('zeroid-oprf-nodes-');
const APP_ORIGIN = 'https://app.example';
const GUESSES = 4;
/** What a node lets an end user's client evaluate: the server's bucket and the refill of a reservation's life (decision 074). */
const NODE_GUESSES = GUESSES + nodeSlack({ admissionMaxAgeMs: 60_000, guessRefillMs: 900_000 });
/** A listed server's IPv6 address; its /64 neighbour is an ordinary client. */
const SERVER_V6 = '2001:db8::1';
let single: OprfEvaluator;
let nodes: ServerProcess[] = [];
let tamperedShare: Uint8Array;
let refusedStart: Promise<{ code: number | null; output: string }>;

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));
const keysOf = (publicShares: OprfPublicShare[]) => ({ groupPublicKey: single.publicKey, threshold: 2, publicShares });
/** POST /oprf with an admission for `request` (decision 032) unless `headers` says otherwise. */
const evaluate = (node: ServerProcess, request: Uint8Array, headers: Record<string, string> = admitted(request)) =>
  fetch(`${node.url}/oprf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ element: b64(request) }),
  });
const evaluateBatch = (node: ServerProcess, request: Uint8Array) =>
  fetch(`${node.url}/oprf/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...admitted(request) },
    body: JSON.stringify({ request: b64(request) }),
  });
const admitted = (request: Uint8Array, now?: number) => ({ [OPRF_ADMISSION_HEADER]: admissions.issue(request, now) });

// A 2-of-3 set from the server's real key file (under tsx: compiled-server.test.ts owns dist/ and
// checks the oprf-node bundle is built); node 2 treats this test (127.0.0.1) as a ZeroID server client, node 3 as an end user.
beforeAll(async () => {
  const serverData = path.join(root, 'server');
  single = new OprfEvaluator(await loadOprfKey(serverData, undefined));
  const quiet = { print: () => undefined, printError: (line: string) => console.error(line) };
  const env = { DATA_DIR: serverData };
  expect(await runOprfCli(['split', '--threshold', '2', '--shares', '3', '--out', 'shares'], { env, cwd: root, ...quiet })).toBe(0);
  // Node 1's file with node 2's share in it: started beside the good nodes, it must refuse.
  const tampered = path.join(root, 'tampered');
  cpSync(path.join(root, 'shares/node-1'), tampered, { recursive: true });
  const file = path.join(tampered, 'oprf-share.json');
  tamperedShare = (await readShareFile(path.join(root, 'shares/node-2/oprf-share.json'))).share;
  const body = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...body, share: b64(tamperedShare) }), { mode: 0o600 });
  refusedStart = runOprfNodeUntilExit({ ...NODE_ADMISSION_ENV, DATA_DIR: tampered });

  const common = { ...NODE_ADMISSION_ENV, CORS_ORIGINS: APP_ORIGIN, GUESSES_BEFORE_DELAY: String(GUESSES) };
  nodes = await Promise.all([
    startOprfNodeProcess({ ...common, DATA_DIR: path.join(root, 'shares/node-1') }),
    // Node 2 trusts this test as its proxy, so X-Forwarded-For names other clients (decision 033).
    startOprfNodeProcess({
      ...common,
      DATA_DIR: path.join(root, 'shares/node-2'),
      SERVER_CLIENTS: `127.0.0.1,${SERVER_V6}`,
      SERVER_CLIENT_PER_MINUTE: '50',
      TRUST_PROXY: '127.0.0.1',
    }),
    // Node 3 takes its share from OPRF_SHARE (the whole file, base64url), its DATA_DIR holding only counters.
    startOprfNodeProcess({
      ...common,
      DATA_DIR: path.join(root, 'node-3-counters'),
      OPRF_SHARE: readFileSync(path.join(root, 'shares/node-3/oprf-share.json')).toString('base64url'),
    }),
    // Node 1's share again, on libsodium's WebAssembly instead of the native addon (decision 033).
    startOprfNodeProcess({
      ...common,
      DATA_DIR: path.join(root, 'node-1-wasm-counters'),
      OPRF_SHARE: readFileSync(path.join(root, 'shares/node-1/oprf-share.json')).toString('base64url'),
      ZEROID_SODIUM_NATIVE: '0',
    }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  removeTempDirs();
});

describe('three OPRF node processes (2-of-3) split from a real server key', () => {
  let publicShares: OprfPublicShare[];

  it('publish public shares that interpolate to the group key, with CORS for the app origin only', async () => {
    const [one, two, three, oneOnWasm] = await Promise.all(
      nodes.map(async (node) => (await (await fetch(`${node.url}/oprf/public-key`)).json()) as OprfNodeKeyReply),
    );
    const replies = [one!, two!, three!];
    expect(oneOnWasm).toEqual(one);
    expect(replies.map(({ suite, index, threshold }) => [suite, index, threshold])).toEqual([
      [OPRF_SUITE, 1, 2],
      [OPRF_SUITE, 2, 2],
      [OPRF_SUITE, 3, 2],
    ]);
    for (const reply of replies) expect(reply.groupPublicKey).toBe(b64(single.publicKey));
    publicShares = replies.map(({ index, publicKey }) => ({ index, publicKey: fromB64(publicKey) }));
    checkPublicShares(single.publicKey, publicShares, 2);

    const preflight = (origin: string) =>
      fetch(`${nodes[0]!.url}/oprf`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight(APP_ORIGIN)).headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('give, through real HTTP, the single-key VOPRF output from any two nodes', async () => {
    const expected = bytesToHex(await single.evaluate('bio', 'a biometric'));
    const round = await blindThresholdOprfInput(keysOf(publicShares), 'bio', 'a biometric');
    const answers = await Promise.all(
      nodes.slice(0, 3).map(async (node, i) => {
        const reply = await evaluate(node, round.request);
        expect(reply.status).toBe(200);
        return { index: i + 1, evaluation: fromB64(((await reply.json()) as { evaluation: string }).evaluation) };
      }),
    );
    for (const pair of [
      [0, 1],
      [1, 2],
      [2, 0],
    ]) {
      const { output, rejected } = await round.finalize(pair.map((i) => answers[i]!));
      expect(rejected).toEqual([]);
      expect(bytesToHex(output)).toBe(expected);
    }
    // Node 1's answer is not node 2's: checked against K₂, it is left out and named.
    await expect(round.finalize([answers[0]!, { index: 2, evaluation: answers[0]!.evaluation }])).rejects.toMatchObject({ rejected: [2] });
  });

  it("evaluate a registration's two elements in one POST /oprf/batch with one proof: the single-key outputs (decision 027)", async () => {
    await libsodiumReady;
    const tasks = [
      { domain: 'bio', normalised: 'a biometric' },
      { domain: 'id', normalised: 'an id' },
    ] as const;
    const expected = await Promise.all(tasks.map(async ({ domain, normalised }) => bytesToHex(await single.evaluate(domain, normalised))));
    const round = sodiumThresholdRound(keysOf(publicShares), tasks);
    const answers = await Promise.all(
      nodes.slice(0, 2).map(async (node, i) => {
        const reply = await evaluateBatch(node, round.request);
        expect(reply.status).toBe(200);
        return { index: i + 1, evaluation: fromB64(((await reply.json()) as { evaluation: string }).evaluation) };
      }),
    );
    const { outputs, rejected } = round.finalize(answers);
    expect(rejected).toEqual([]);
    expect(outputs.map(bytesToHex)).toEqual(expected);
    // Three elements, or a batch on the single-element route, are refused (400) before anything is spent.
    const three = Uint8Array.from([0, 3, ...round.request.subarray(2), ...round.request.subarray(2, 34)]);
    expect((await evaluateBatch(nodes[0]!, three)).status).toBe(400);
    expect((await evaluate(nodes[0]!, round.request)).status).toBe(400);
  });

  it("refuse an end user past the node's own guess budget with the server's 429, but not a configured server", async () => {
    const { request } = await blindThresholdOprfInput(keysOf(publicShares), 'id', 'an ID');
    // A malformed element is refused before it spends anything.
    const malformed = await fetch(`${nodes[2]!.url}/oprf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ element: b64(new Uint8Array(34)) }),
    });
    expect(malformed.status).toBe(400);
    // The round above spent one evaluation at node 3; the bucket holds NODE_GUESSES, and each
    // element of a batch is one guess: 1 + 2 (a batch) + the rest, then refused.
    await libsodiumReady;
    const batch = sodiumThresholdRound(keysOf(publicShares), [
      { domain: 'bio', normalised: 'x' },
      { domain: 'id', normalised: 'y' },
    ]).request;
    expect((await evaluateBatch(nodes[2]!, batch)).status).toBe(200);
    const statuses: number[] = [];
    let refusal: Response | undefined;
    for (let i = 0; i < NODE_GUESSES - 2; i++) {
      const reply = await evaluate(nodes[2]!, request);
      statuses.push(reply.status);
      if (reply.status === 429) refusal = reply;
    }
    expect(statuses).toEqual([...Array<number>(NODE_GUESSES - 3).fill(200), 429]);
    expect(await refusal!.json()).toMatchObject({ error: { code: 'TOO_MANY_GUESSES' } });
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThan(0);

    // Node 2 counts this address as a ZeroID server: a per-minute allowance instead of a guess budget.
    for (let i = 0; i < GUESSES + 2; i++) expect((await evaluate(nodes[1]!, request)).status).toBe(200);
  });

  it('refuse every non-canonical encoding with the same 400 on the native addon and the WebAssembly, before anything is spent (decision 033)', async () => {
    const [native, , , wasm] = nodes;
    const both = async (element: Uint8Array) =>
      Promise.all(
        [native!, wasm!].map(async (node) => {
          const reply = await evaluate(node, Uint8Array.from([0, 1, ...element]));
          return { status: reply.status, body: await reply.text() };
        }),
      );
    for (const [kind, element] of invalidEncodings) {
      const [onNative, onWasm] = await both(element);
      expect(onNative, kind).toEqual({ status: 400, body: expect.stringContaining('"code":"INVALID_ELEMENT"') as string });
      expect(onWasm, kind).toEqual(onNative);
    }
    // The WebAssembly node is fresh: all 36 refusals spent nothing, so its whole budget is still there.
    const { request } = await blindThresholdOprfInput(keysOf(publicShares), 'bio', 'gate');
    const statuses = [];
    for (let i = 0; i <= NODE_GUESSES; i++) statuses.push((await evaluate(wasm!, request)).status);
    expect(statuses).toEqual([...Array<number>(NODE_GUESSES).fill(200), 429]);
  });

  it('evaluate only with an admission signed by a trusted server over these very elements, and spend nothing on a refusal (decision 032)', async () => {
    const node = nodes[1]!;
    const viaClient = { 'x-forwarded-for': '2001:db8:1::2' };
    const one = (await blindThresholdOprfInput(keysOf(publicShares), 'bio', 'one')).request;
    const other = (await blindThresholdOprfInput(keysOf(publicShares), 'bio', 'other')).request;
    const forger = admissionSigner(new Uint8Array(32).fill(9));
    const refusals: [string, Record<string, string>, string][] = [
      ['none', {}, 'ADMISSION_REQUIRED'],
      ['another key', { [OPRF_ADMISSION_HEADER]: forger.issue(one) }, 'ADMISSION_INVALID'],
      ["another request's", admitted(other), 'ADMISSION_INVALID'],
      ['expired', admitted(one, Date.now() - 61_000), 'ADMISSION_INVALID'],
      ['dated ahead', admitted(one, Date.now() + 120_000), 'ADMISSION_INVALID'],
      ['garbage', { [OPRF_ADMISSION_HEADER]: 'x'.repeat(96) }, 'ADMISSION_INVALID'],
    ];
    for (const [what, headers, code] of refusals) {
      const reply = await evaluate(node, one, { ...headers, ...viaClient });
      expect(reply.status, what).toBe(403);
      expect(((await reply.json()) as { error: { code: string } }).error.code, what).toBe(code);
    }
    // None of the refusals spent a guess: the client still has its whole budget, then 429.
    const statuses = [];
    for (let i = 0; i <= NODE_GUESSES; i++) statuses.push((await evaluate(node, one, { ...admitted(one), ...viaClient })).status);
    expect(statuses).toEqual([...Array<number>(NODE_GUESSES).fill(200), 429]);
  });

  it('names SERVER_CLIENTS by exact address: a listed IPv6 server gets its allowance, its /64 neighbour only the guess budget (decision 033)', async () => {
    const { request } = await blindThresholdOprfInput(keysOf(publicShares), 'id', 'exact');
    const from = (address: string) => ({ ...admitted(request), 'x-forwarded-for': address });
    for (let i = 0; i < GUESSES + 2; i++) expect((await evaluate(nodes[1]!, request, from(SERVER_V6))).status).toBe(200);
    const statuses = [];
    for (let i = 0; i <= NODE_GUESSES; i++) statuses.push((await evaluate(nodes[1]!, request, from('2001:db8::2'))).status);
    expect(statuses).toEqual([...Array<number>(NODE_GUESSES).fill(200), 429]);
  });

  it('keys every client without an IP address as one client, never as a listed server (decision 053)', async () => {
    // Through a trusted proxy, X-Forwarded-For can carry anything: "server 127.0.0.1" once took the
    // listed server's key (and its allowance, no guess budget), and each other word was a fresh client.
    const { request } = await blindThresholdOprfInput(keysOf(publicShares), 'id', 'not an address');
    const spoofed = ['server 127.0.0.1', `server ${SERVER_V6}`, 'garbage1', 'garbage2', 'unknown'];
    const statuses = [];
    for (let i = 0; i <= NODE_GUESSES + 1; i++) {
      const address = spoofed[i % spoofed.length]!;
      statuses.push((await evaluate(nodes[1]!, request, { ...admitted(request), 'x-forwarded-for': address })).status);
    }
    expect(statuses).toEqual([...Array<number>(NODE_GUESSES).fill(200), 429, 429]);
  });

  it('refuses to start with a share that does not match its published place, and with a readable share file', async () => {
    const refused = await refusedStart;
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('ZeroID OPRF node refuses to start');
    expect(refused.output).toContain("the share does not match its recorded publicKey (node 1's Kᵢ). Replace it with node 1's file");
    expect(refused.output).not.toContain(b64(tamperedShare));

    chmodSync(path.join(root, 'shares/node-3/oprf-share.json'), 0o644);
    await expect(readShareFile(path.join(root, 'shares/node-3/oprf-share.json'))).rejects.toThrow(/chmod 600/);
  });
});

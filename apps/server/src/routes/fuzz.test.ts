import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { G, SUITE_ID, deriveRegistration, encodePoint, randomScalar, signWithDid, v3RegistrationMessage } from '@zeroid/protocol/v3';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Property-based fuzzing of every endpoint through the real app: random JSON of every shape, huge
 * and empty strings, invalid UTF-8, `__proto__` and duplicate keys, wrong and missing content types,
 * truncated bodies, mutated proofs and OPRF elements. Whatever arrives: no 5xx, the server stays
 * healthy, no stored row changes except by an acknowledged registration, and nothing from a body
 * reaches the logs. FUZZ_RUNS raises the count (`npm run test:fuzz`).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const ROUTES = [
  '/register',
  '/verify',
  '/erase',
  '/oprf',
  '/oprf/admission',
  '/challenge',
  '/members',
  '/members?bucket=ab',
  '/credential-members',
  '/credential-members?bucket=ab',
  '/oprf/public-key',
  '/did/x',
  '/generateQRCode',
  '/healthz',
  '/nope',
];

let t: TestApp;
let validProofBody: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.inject({ method: 'POST', url: '/register', payload: { id_info: 'FUZZ-ID', bio_info: 'fuzz seed biometric' } });
  validProofBody = JSON.stringify({
    proof: {
      merkleTreeDepth: 1,
      merkleTreeRoot: t.registry.root,
      nullifier: '1',
      message: '2',
      scope: '2',
      points: ['1', '2', '3', '4', '5', '6', '7', '8'],
    },
  });
});
afterAll(async () => {
  await t.destroy();
});

const marker = fc.constant(null).map(() => `FZ${randomBytes(8).toString('hex')}`);

/** A request body as raw bytes, always carrying a marker we can look for in the logs. */
const body = marker.chain((m) =>
  fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify({ [m]: v })),
    fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify([m, v])),
    fc.record({ id_info: fc.string(), bio_info: fc.string() }).map((r) => JSON.stringify({ ...r, id_info: r.id_info + m })),
    fc.string({ unit: 'grapheme', maxLength: 200 }).map((s) => JSON.stringify({ bio_info: s + m })),
    fc.integer({ min: 16_000, max: 70_000 }).map((n) => JSON.stringify({ bio_info: m + 'x'.repeat(n) })),
    fc.constant(`{"bio_info":"${m}","bio_info":"${m}"}`),
    fc.constant(`{"__proto__":{"polluted":"${m}"},"bio_info":"x"}`),
    fc.constant(`{"constructor":{"prototype":{"${m}":1}}}`),
    fc.string({ maxLength: 300 }).map((s) => `${m}${s}`),
    fc
      .uint8Array({ maxLength: 200 })
      .map((bytes) =>
        Buffer.concat([Buffer.from(`{"bio_info":"${m}`), Buffer.from(bytes), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]).toString(
          'latin1',
        ),
      ),
    fc.nat({ max: 60 }).map((cut) => `{"id_info":"${m}","bio_info":"abc"}`.slice(0, cut)),
    fc
      .record({
        field: fc.constantFrom('merkleTreeDepth', 'merkleTreeRoot', 'nullifier', 'message', 'scope', 'points'),
        value: fc.jsonValue(),
      })
      .map(({ field, value }) => {
        const proof = JSON.parse(validProofBody) as { proof: Record<string, unknown> };
        proof.proof[field] = value;
        proof.proof.note = m;
        return JSON.stringify(proof);
      }),
    fc
      .uint8Array({ minLength: 0, maxLength: 80 })
      .map((bytes) => JSON.stringify({ element: Buffer.from(bytes).toString('base64url'), [m]: 1 })),
  ),
);

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
  // An HTTP request line always has a path; inject() cannot send an empty one.
  url: fc.oneof(
    fc.constantFrom(...ROUTES),
    fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    undefined,
  ),
  body,
});

describe('fuzzing every endpoint', () => {
  it(`answers ${RUNS} generated requests without a 5xx, a changed row or a logged body`, async () => {
    const countBefore = await t.storage.identities.count();
    let acknowledged = 0;
    const markers: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async ({ method, url, contentType, body }) => {
        const found = /FZ[0-9a-f]{16}/.exec(body);
        if (found) markers.push(found[0]);
        const reply = await t.app.inject({
          method: method as 'GET',
          url,
          headers: contentType ? { 'content-type': contentType } : {},
          payload: method === 'GET' ? undefined : Buffer.from(body, 'latin1'),
        });
        expect(reply.statusCode, `${method} ${url} → ${reply.statusCode} ${reply.body.slice(0, 200)}`).toBeLessThan(500);
        if (reply.statusCode === 200 && url === '/register' && reply.json<Record<string, unknown>>()['DID already generated'] === false)
          acknowledged++;
      }),
      { numRuns: RUNS },
    );

    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(await t.storage.identities.count()).toBe(countBefore + acknowledged);
    const logs = t.logs.join('');
    expect(markers.length).toBeGreaterThan(RUNS / 2);
    expect(markers.filter((m) => logs.includes(m))).toEqual([]);
  }, 600_000);
});

describe('fuzzing the v3 registration body (decision 056)', () => {
  const point = () => Buffer.from(encodePoint(G.multiply(randomScalar()))).toString('base64url');
  const paths = [
    'commitment',
    'idTag',
    'did',
    'challenge',
    'bio',
    'id',
    'bio.blinded',
    'id.blinded',
    'bio.answers',
    'id.answers',
    'proof',
    'proof.3',
    'didSignature',
    'extra',
  ];
  /** Values of the right shape that are still wrong, beside arbitrary JSON. */
  const value = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom('A'.repeat(43), '_'.repeat(43), 'A'.repeat(86), 'A'.repeat(128), '0'.repeat(64), 'f'.repeat(64), '0', '00', '-1'),
    fc.constantFrom(`${'9'.repeat(77)}`, '21888242871839275222246405745257275088548364400416034343698204186575808495617'),
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
    fc.uint8Array({ minLength: 96, maxLength: 96 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
    fc.array(
      fc.record({
        index: fc.integer({ min: -1, max: 300 }),
        evaluation: fc.uint8Array({ minLength: 96, maxLength: 96 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
      }),
      { maxLength: 4 },
    ),
  );

  it('answers every mutation of a well-formed, well-signed body with a 4xx, and registers nothing', async () => {
    const countBefore = await t.storage.identities.count();
    const registration = deriveRegistration(randomScalar(), randomScalar());
    const challenge = (await t.app.inject({ method: 'POST', url: '/challenge' })).json<{ challenge: string }>().challenge;
    const fields = { commitment: registration.commitment, idTag: registration.idTag, did: registration.didKey.did, challenge };
    const template = {
      ...fields,
      bio: { blinded: point() },
      id: { blinded: point() },
      proof: ['1', '2', '3', '4', '5', '6', '7', '8'],
      didSignature: signWithDid(v3RegistrationMessage(fields), registration.didKey.secretKey),
    };
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(paths, { minLength: 1, maxLength: 3 }),
        fc.array(value, { minLength: 3, maxLength: 3 }),
        async (chosen, values) => {
          const body = structuredClone(template) as Record<string, unknown>;
          chosen.forEach((path, i) => {
            const [head, tail] = path.split('.') as [string, string | undefined];
            if (tail === undefined) body[head] = values[i];
            else if (typeof body[head] === 'object' && body[head] !== null) (body[head] as Record<string, unknown>)[tail] = values[i];
          });
          const reply = await t.app.inject({ method: 'POST', url: '/register', payload: body });
          expect(reply.statusCode, `${JSON.stringify(chosen)} → ${reply.statusCode} ${reply.body.slice(0, 200)}`).toBeGreaterThanOrEqual(
            400,
          );
          expect(reply.statusCode, reply.body.slice(0, 200)).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS },
    );
    // And the v3 OPRF round, with any element.
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 96 }), async (bytes) => {
        const reply = await t.app.inject({
          method: 'POST',
          url: '/oprf',
          payload: { element: Buffer.from(bytes).toString('base64url') || 'A', suite: SUITE_ID },
        });
        expect(reply.statusCode, reply.body.slice(0, 200)).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
    expect(await t.storage.identities.count()).toBe(countBefore);
  }, 600_000);
});

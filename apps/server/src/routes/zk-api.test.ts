import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BN254_BASE_FIELD, SNARK_SCALAR_FIELD, blindOprfInput } from '@zeroid/protocol';
import { verifyProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { startTestApp, TEST_METRICS_TOKEN, type TestApp } from '../../test/test-app.ts';
import { ZkTestClient } from '../../test/zk-client.ts';
import { Fn, G, Point, SUITE_ID, decodePoint, encodePoint } from '@zeroid/protocol/v3';
import { Artifacts } from '../proofs/artifacts.ts';
import { newSessionSecret } from '../sessions/session-secret.ts';
import { terminateCurve } from '../../test/support/terminate-curve.ts';

const CAROL = { id: 'EF-555 Carol', bio: 'retina vessels 12 branch 7 fovea 3 disc 41' };
const DAVE = { id: 'GH-777 Dave', bio: 'palm crease 8 mount 2 thenar 66 line 9' };

let t: TestApp;
let client: ZkTestClient;
let validProof: SemaphoreProof;

beforeAll(async () => {
  t = await startTestApp();
  client = new ZkTestClient(t.app, await Artifacts.load());
  expect((await client.register(CAROL.id, CAROL.bio)).json()).toMatchObject({ 'DID already generated': false });
  const proof = await client.prove(CAROL.bio);
  expect(proof).toBeDefined();
  validProof = proof!;
});

afterAll(async () => {
  await t.destroy();
  await terminateCurve();
});

const verdict = async (proof: unknown) => {
  const reply = await client.verify(proof);
  expect(reply.statusCode, reply.body).toBeLessThan(500);
  return reply.statusCode === 200 ? reply.json<{ 'Verification Result': string }>()['Verification Result'] : reply.statusCode;
};

// The zero-knowledge registration (protocol v3) and its refusals: zk-registration-binding.test.ts.

describe('zero-knowledge verification (P4)', () => {
  it('accepts a valid proof once, and the replay fails', async () => {
    expect(await verdict(validProof)).toBe('Success');
    expect(await verdict(validProof)).toBe('Failure');
  });

  it('rejects a replay of an accepted proof with negated points, although it still verifies', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    expect(await verdict(proof)).toBe('Success');
    // (-A, -B, C) satisfies the same pairing equation: packed as [a0, a1, b01, b00, b11, b10, c0, c1].
    const q = BN254_BASE_FIELD;
    const p = proof.points.map(BigInt);
    const negated = [p[0]!, q - p[1]!, p[2]!, p[3]!, q - p[4]!, q - p[5]!, p[6]!, p[7]!].map(String);
    const mutated = { ...proof, points: negated as SemaphoreProof['points'] };
    expect(await verifyProof(mutated)).toBe(true);
    expect(await verdict(mutated)).toBe('Failure');
  });

  it('rejects a proof moved to another issued challenge', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    const other = await client.challenge();
    expect(await verdict({ ...proof, message: other, scope: other })).toBe('Failure');
  });

  it('rejects a proof for a challenge that was never issued, or with message and scope apart', async () => {
    const issued = await client.challenge();
    const proof = (await client.prove(CAROL.bio, '123456789'))!;
    expect(await verdict(proof)).toBe('Failure');
    expect(await verdict({ ...proof, message: issued })).toBe('Failure');
  });

  it('rejects a tampered public input', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    expect(await verdict({ ...proof, nullifier: (BigInt(proof.nullifier) + 1n).toString() })).toBe('Failure');
  });

  it('rejects a public input at or above the field modulus with a 400', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    expect(await verdict({ ...proof, nullifier: SNARK_SCALAR_FIELD.toString() })).toBe(400);
    expect(await verdict({ ...proof, nullifier: (BigInt(proof.nullifier) + SNARK_SCALAR_FIELD).toString() })).toBe(400);
    expect(await verdict({ ...proof, points: [...proof.points.slice(0, 7), BN254_BASE_FIELD.toString()] })).toBe(400);
  });

  it('rejects non-canonical numbers: leading zeros and hex', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    expect(await verdict({ ...proof, nullifier: `0${proof.nullifier}` })).toBe(400);
    expect(await verdict({ ...proof, nullifier: `0x${BigInt(proof.nullifier).toString(16)}` })).toBe(400);
  });

  it('rejects a root outside the history, and root 0', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    expect(await verdict({ ...proof, merkleTreeRoot: '12345' })).toBe('Failure');
    expect(await verdict({ ...proof, merkleTreeRoot: '0' })).toBe('Failure');
  });

  it('rejects depth 0 and 33 with a 400, and a depth we do not serve with a Failure', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    expect(await verdict({ ...proof, merkleTreeDepth: 0 })).toBe(400);
    expect(await verdict({ ...proof, merkleTreeDepth: 33 })).toBe(400);
    expect(await verdict({ ...proof, merkleTreeDepth: 16 })).toBe('Failure');
  });

  it('rejects a wrong number of points with a 400', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    expect(await verdict({ ...proof, points: proof.points.slice(0, 7) })).toBe(400);
    expect(await verdict({ ...proof, points: [...proof.points, '1'] })).toBe(400);
  });

  it('rejects a proof whose challenge has expired', async () => {
    const nonce = '987654321987654321';
    await t.storage.challenges.issue(nonce, new Date(Date.now() - 1000));
    const proof = (await client.prove(CAROL.bio, nonce))!;
    expect(await verdict(proof)).toBe('Failure');
  });

  it('gives exactly one Success among twenty parallel submissions of one proof', async () => {
    const proof = (await client.prove(CAROL.bio))!;
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => verdict(proof)));
    expect(verdicts.filter((v) => v === 'Success')).toHaveLength(1);
    expect(verdicts.filter((v) => v === 'Failure')).toHaveLength(19);
  });

  it('has no proof for an unregistered biometric: its commitment is not in its bucket', async () => {
    expect(await client.prove(DAVE.bio)).toBeUndefined();
  });
});

describe('the two modes interoperate', () => {
  it('registered through the raw API, verifiable with a proof', async () => {
    const raw = await t.app.inject({ method: 'POST', url: '/register', payload: { id_info: DAVE.id, bio_info: DAVE.bio } });
    expect(raw.json()).toMatchObject({ 'DID already generated': false });
    const proof = await client.prove(DAVE.bio);
    expect(await verdict(proof)).toBe('Success');
  });

  it('registered with a registration proof, verifiable through the raw API', async () => {
    const reply = await t.app.inject({ method: 'POST', url: '/verify', payload: { bio_info: CAROL.bio } });
    expect(reply.json()).toEqual({ 'Verification Result': 'Success' });
  });

  it('derives the same DID in both modes', async () => {
    const { didKey } = (await client.deriveV3(DAVE.id, DAVE.bio)).registration;
    expect((await client.register(DAVE.id, DAVE.bio)).json()).toEqual({ 'DID already generated': true });
    const record = await t.storage.identities.findByDid(didKey.did);
    expect(record?.did).toBe(didKey.did);
  });
});

describe('POST /oprf is a strict gate', () => {
  const oprf = (element: Uint8Array | string) =>
    t.app.inject({
      method: 'POST',
      url: '/oprf',
      payload: { element: typeof element === 'string' ? element : Buffer.from(element).toString('base64url') },
    });
  const request = (...elements: Uint8Array[]) => {
    const count = Buffer.alloc(2);
    count.writeUInt16BE(elements.length);
    return new Uint8Array(Buffer.concat([count, ...elements]));
  };
  const valid = async () => {
    const { blindOprfInput } = await import('@zeroid/protocol');
    const key = (await t.app.inject({ method: 'GET', url: '/oprf/public-key' })).json<{ publicKey: string }>().publicKey;
    return (await blindOprfInput(new Uint8Array(Buffer.from(key, 'base64url')), 'bio', 'x')).request;
  };

  it('evaluates one valid element', async () => {
    expect((await oprf(await valid())).statusCode).toBe(200);
  });

  it.each([
    ['the identity element', () => Promise.resolve(request(new Uint8Array(32)))],
    ['an off-curve encoding', () => Promise.resolve(request(new Uint8Array(32).fill(0xff)))],
    ['trailing bytes', async () => new Uint8Array([...(await valid()), 0])],
    ['two elements', async () => request((await valid()).subarray(2), (await valid()).subarray(2))],
    ['no element', () => Promise.resolve(request())],
  ])('rejects %s with a 400 within milliseconds', async (_name, make) => {
    const element = await make();
    const started = performance.now();
    const reply = await oprf(element);
    expect(reply.statusCode).toBe(400);
    expect(reply.json().error.code).toBe('INVALID_ELEMENT');
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('rejects an empty element and text that is not base64url by schema', async () => {
    for (const element of ['', 'not base64 !!']) {
      const reply = await oprf(element);
      expect(reply.statusCode).toBe(400);
      expect(reply.json().error.code).toBe('INVALID_REQUEST');
    }
  });
});

describe('POST /oprf under protocol v3 (decision 056)', () => {
  it('publishes the v3 key, evaluates one point under it with a DLEQ proof that holds, and refuses bad points before any guess', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '600', GUESSES_BEFORE_DELAY: '2' } });
    try {
      const onLimited = new ZkTestClient(limited.app, await Artifacts.load());
      const v3 = (await limited.app.inject({ method: 'GET', url: '/oprf/public-key' })).json<{ v3: unknown }>().v3;
      expect(v3).toEqual({
        suite: SUITE_ID,
        publicKey: Buffer.from(encodePoint(limited.services.oprfV3!.publicKey)).toString('base64url'),
      });
      // A v2 query sent to the v3 suite. Its 32 random-looking bytes are a Baby Jubjub point about one
      // time in thirty (60 of 2,000 drawn), and those the server rightly evaluates; the test takes one that is not.
      let ristretto: Uint8Array;
      do {
        const request = (await blindOprfInput(limited.oprf.publicKey, 'bio', 'x')).request;
        ristretto = request.subarray(request.length - 32);
      } while (decodePoint(ristretto) !== undefined);
      for (const element of [encodePoint(Point.ZERO), new Uint8Array(32).fill(0xff), new Uint8Array([...encodePoint(G), 0]), ristretto]) {
        const reply = await limited.app.inject({
          method: 'POST',
          url: '/oprf',
          payload: { element: Buffer.from(element).toString('base64url'), suite: SUITE_ID },
        });
        expect({ status: reply.statusCode, code: reply.json().error?.code }).toEqual({ status: 400, code: 'INVALID_ELEMENT' });
      }
      // The budget of two guesses is whole: two rounds are answered (their proofs checked), the third waits.
      await onLimited.v3Oprf('bio', 'budget one');
      await onLimited.v3Oprf('id', 'budget two');
      await expect(onLimited.v3Oprf('bio', 'budget three')).rejects.toThrow(/TOO_MANY_GUESSES/);
    } finally {
      await limited.destroy();
    }
  });

  it('charges a registration two guesses, so re-blinded rounds (B + s·G, Z + s·K) register no more than fresh ones (decision 061)', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '600', GUESSES_BEFORE_DELAY: '4' } });
    try {
      const onLimited = new ZkTestClient(limited.app, await Artifacts.load());
      // Two rounds at /oprf and the registration: four guesses, the whole budget.
      const first = await onLimited.proveRegistration('REBLIND-1', 'reblinded biometric');
      expect((await limited.app.inject({ method: 'POST', url: '/register', payload: first.body })).json()).toMatchObject({
        'DID already generated': false,
      });
      // The same evaluations moved by s: valid rounds nobody evaluated, which the table of used points
      // cannot recognise. They cost a registration's guesses all the same.
      const K = first.groupKey;
      const shift = (round: typeof first.bio, s: bigint) => ({
        ...round,
        query: { ...round.query, blind: Fn.create(round.query.blind + s), blinded: round.query.blinded.add(G.multiply(s)) },
        evaluated: round.evaluated.add(K.multiply(s)),
      });
      const again = await onLimited.proveRegistration('REBLIND-1', 'reblinded biometric', {
        rounds: { bio: shift(first.bio, 5n), id: shift(first.id, 7n) },
      });
      const reply = await limited.app.inject({ method: 'POST', url: '/register', payload: again.body });
      expect({ status: reply.statusCode, code: reply.json().error?.code }).toEqual({ status: 429, code: 'TOO_MANY_GUESSES' });
    } finally {
      await limited.destroy();
    }
  });
});

describe('metrics of the zero-knowledge path', () => {
  it('times pairing checks and counts blinded OPRF evaluations and verdicts', async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } })).body;
    expect(text).toMatch(/zeroid_proof_verification_seconds_count [1-9]/);
    expect(text).toMatch(/zeroid_oprf_evaluations_total\{kind="blinded"\} [1-9]/);
    expect(text).toMatch(/zeroid_verifications_total\{mode="zk",result="Success"\} [1-9]/);
    expect(text).toMatch(/zeroid_registrations_total\{mode="zk",outcome="new"\} [1-9]/);
  });
});

describe('cross-device sessions', () => {
  const secrets = new Map<string, string>();
  const newSession = async () => {
    const created = (await t.app.inject({ method: 'POST', url: '/sessions' })).json<{
      session: string;
      status: string;
      secret: string;
      link: string;
    }>();
    // The link the QR code holds, for the screen to show as text too (never the secret).
    expect(created.link).toBe(`${t.config.publicUrl}/user-verification?session=${created.session}`);
    secrets.set(created.session, created.secret);
    return created;
  };
  const status = async (session: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/sessions/${session}`, headers: { 'session-secret': secrets.get(session) ?? 'none' } })
    ).json<{
      status: string;
    }>().status;

  it('completes once with a proof bound to the session', async () => {
    const { session, status: initial } = await newSession();
    expect(initial).toBe('pending');
    const qr = await t.app.inject({ method: 'GET', url: `/generateQRCode?session=${session}` });
    expect(qr.headers['content-type']).toBe('image/png');
    const proof = await client.prove(CAROL.bio, undefined, session);
    expect(await verdictFor(proof, session)).toBe('Success');
    expect(await status(session)).toBe('awaiting-code');
    const again = await client.prove(CAROL.bio, undefined, session);
    expect(await verdictFor(again, session)).toBe('Failure');
    expect((await t.app.inject({ method: 'GET', url: `/generateQRCode?session=${session}` })).statusCode).toBe(404);
  });

  it('rejects a proof not bound to the session, and the session records the failure', async () => {
    const { session } = await newSession();
    const unbound = await client.prove(CAROL.bio);
    expect(await verdictFor(unbound, session)).toBe('Failure');
    const other = await newSession();
    const boundElsewhere = await client.prove(CAROL.bio, undefined, other.session);
    expect(await verdictFor(boundElsewhere, session)).toBe('Failure');
    expect(await status(other.session)).toBe('pending');
  });

  it('fails for an expired or unknown session', async () => {
    const expired = 'ab'.repeat(16);
    const { secret, secretHash } = newSessionSecret();
    await t.storage.sessions.create(expired, new Date(Date.now() - 1000), secretHash);
    secrets.set(expired, secret);
    expect(await status(expired)).toBe('expired');
    expect(await verdictFor(await client.prove(CAROL.bio, undefined, expired), expired)).toBe('Failure');
    const unknown = 'cd'.repeat(16);
    expect((await t.app.inject({ method: 'GET', url: `/sessions/${unknown}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/verify', payload: { bio_info: CAROL.bio, session: unknown } })).json()).toEqual({
      'Verification Result': 'Failure',
    });
  });

  it('completes with the raw body too, for devices that cannot prove', async () => {
    const { session } = await newSession();
    const reply = await t.app.inject({ method: 'POST', url: '/verify', payload: { bio_info: CAROL.bio, session } });
    // With the code the phone shows, for the screen's person to type there (decision 035).
    expect(reply.json()).toEqual({ 'Verification Result': 'Success', 'Confirmation Code': expect.stringMatching(/^[0-9]{6}$/) });
    expect(await status(session)).toBe('awaiting-code');
  });
});

async function verdictFor(proof: unknown, session: string) {
  const reply = await client.verify(proof, session);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ 'Verification Result': string }>()['Verification Result'];
}

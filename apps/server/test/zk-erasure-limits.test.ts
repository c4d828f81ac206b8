import { generateProof } from '@semaphore-protocol/proof';
import { Identity } from '@semaphore-protocol/identity';
import { deriveDidKey, MAX_SIGN_IN_SECTORS, signErasure } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASE_BODY_LIMIT, MAX_PROOF_JSON_BYTES } from '../src/http/body-limits.ts';
import { newClientMetadata } from '../src/openid/client-metadata.ts';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The limits around a zero-knowledge erasure (decision 055). A body made offline (any identity, registered or not) is replayed (decision 055,
 * finding 2): its sign-in proofs are Groth16-checked only for a challenge
 * that is issued, unused and unexpired, and a proof that fails its check keeps the reserved failure.
 * One real SQLite database, one registered sector, one real depth-1 proof (about a second).
 */
describe('a zero-knowledge erasure under attack and at its size', () => {
  let test: TestApp;
  let groth16Checks = 0;
  beforeAll(async () => {
    test = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '600', FAILED_VERIFICATIONS_BEFORE_DELAY: '2' } });
    const metadata = newClientMetadata({ id: 'site-a', redirectUris: ['http://localhost:18700/cb'], public: true });
    expect(await test.storage.oidc.addClient('site-a', JSON.stringify(metadata))).toBe(true);
    // The real verifier, counted: the count is what the server spent on Groth16 checks.
    const verifier = test.services.proofVerifier;
    const verify = verifier.verify.bind(verifier);
    verifier.verify = (proof) => {
      groth16Checks++;
      return verify(proof);
    };
  });
  afterAll(() => test?.destroy());

  it('checks no proof for a challenge nobody issued, and counts a proof that fails its check as a failed verification', async () => {
    const artifacts = await Artifacts.load();
    const identity = new Identity();
    const didKey = deriveDidKey(new Uint8Array(32).fill(7));
    const body = async (challenge: string, proof: object) => {
      const { fields, signatures } = signErasure(identity, didKey.secretKey, new Uint8Array(64).fill(9), {
        commitment: identity.commitment.toString(),
        did: didKey.did,
        challenge,
      });
      return { ...fields, signatures, signInProofs: [{ ...proof, message: challenge }] };
    };
    const erase = async (payload: object, remoteAddress: string) => {
      const reply = await test.app.inject({ method: 'POST', url: '/erase', payload, remoteAddress });
      return `${reply.statusCode} ${reply.json<{ error?: { code: string } }>().error?.code}`;
    };
    const { scopes } = (await test.app.inject({ method: 'GET', url: '/erase/sign-in-scopes' })).json<{ scopes: string[] }>();
    expect(scopes).toHaveLength(1);
    const made = '12345678901234567890';
    const proof = await generateProof(
      identity,
      { root: identity.commitment, leaf: identity.commitment, index: 0, siblings: [] },
      made,
      scopes[0]!,
      1,
      {
        wasm: artifacts.get('semaphore-1.wasm')!.path,
        zkey: artifacts.get('semaphore-1.zkey')!.path,
      },
    );

    // Made offline with a challenge nobody issued: refused before any proof is checked, as often as it comes.
    const offline = await body(made, proof);
    const replies = [];
    for (let i = 0; i < 6; i++) replies.push(await erase(offline, '198.51.100.1'));
    expect(replies).toEqual(Array(6).fill('400 CHALLENGE_UNUSABLE'));
    expect(groth16Checks).toBe(0);

    // With issued challenges the proof (bound to another message) is checked, refused, and each refusal
    // keeps its failure: after FAILED_VERIFICATIONS_BEFORE_DELAY of them the address waits.
    const issued = async () => (await test.app.inject({ method: 'POST', url: '/challenge' })).json<{ challenge: string }>().challenge;
    const forged = [];
    for (let i = 0; i < 3; i++) forged.push(await erase(await body(await issued(), proof), '198.51.100.2'));
    expect(forged).toEqual(['400 INVALID_PROOF', '400 INVALID_PROOF', '429 TOO_MANY_FAILURES']);
    expect(groth16Checks).toBe(2);
    // The read consumed nothing: the refused erasure's challenge is still usable for its one consumer.
    const challenge = await issued();
    expect(await erase(await body(challenge, proof), '198.51.100.3')).toBe('400 INVALID_PROOF');
    expect(await test.storage.challenges.consume(challenge)).toBe(true);
  }, 60_000);

  // Real proofs take about a second each, so the size is tested with the body's shape: proofs as long as
  // the schema lets a proof be (the deepest tree, every number at 77 digits), so a real one is never
  // longer. The body passes the size check and the schema and is refused for its signatures, a 400.
  it('takes a body with a sign-in proof per sector for up to MAX_SIGN_IN_SECTORS sectors, and refuses one byte more than its limit', async () => {
    const longest = (i: number) => ({
      merkleTreeDepth: 32,
      merkleTreeRoot: '2'.repeat(77),
      nullifier: '3'.repeat(77),
      message: '4'.repeat(77),
      scope: String(10n ** 76n + BigInt(i)),
      points: Array(8).fill('5'.repeat(77)),
    });
    expect(MAX_PROOF_JSON_BYTES).toBe(JSON.stringify(longest(0)).length);
    const identity = new Identity();
    const didKey = deriveDidKey(new Uint8Array(32).fill(8));
    const { fields, signatures } = signErasure(identity, didKey.secretKey, new Uint8Array(64).fill(9), {
      commitment: identity.commitment.toString(),
      did: didKey.did,
      challenge: '1',
    });
    const erase = async (body: string) => {
      const reply = await test.app.inject({
        method: 'POST',
        url: '/erase',
        payload: body,
        headers: { 'content-type': 'application/json' },
      });
      return `${reply.statusCode} ${reply.json<{ error: { code: string } }>().error.code}`;
    };
    const withProofs = (n: number) =>
      JSON.stringify({
        ...fields,
        signatures: { ...signatures, did: 'A'.repeat(86) },
        signInProofs: Array.from({ length: n }, (_, i) => longest(i)),
      });
    // Protocol v3's body (decision 056) carries one proof more, its own, and y_id in place of idProof.
    const v3WithProofs = (n: number) =>
      JSON.stringify({
        commitment: fields.commitment,
        did: fields.did,
        idOutput: '1'.repeat(77),
        challenge: '1',
        ownProof: longest(n),
        didSignature: 'A'.repeat(86),
        signInProofs: Array.from({ length: n }, (_, i) => longest(i)),
      });
    for (const sectors of [100, MAX_SIGN_IN_SECTORS]) {
      for (const body of [withProofs(sectors), v3WithProofs(sectors)]) {
        expect(body.length).toBeGreaterThan(64 * 1024);
        expect(body.length).toBeLessThanOrEqual(ERASE_BODY_LIMIT);
        expect(await erase(body)).toBe('400 INVALID_SIGNATURE');
      }
    }
    for (const full of [withProofs(MAX_SIGN_IN_SECTORS), v3WithProofs(MAX_SIGN_IN_SECTORS)]) {
      expect(await erase(full.padEnd(ERASE_BODY_LIMIT))).toBe('400 INVALID_SIGNATURE');
      expect(await erase(full.padEnd(ERASE_BODY_LIMIT + 1))).toBe('413 BODY_TOO_LARGE');
    }
  });
});

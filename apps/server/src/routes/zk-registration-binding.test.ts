import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identity } from '@semaphore-protocol/identity';
import { deriveDidKey, signRegistration } from '@zeroid/protocol';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ZkTestClient } from '../../test/zk-client.ts';
import { Artifacts } from '../proofs/artifacts.ts';

/**
 * What a zero-knowledge registration does NOT prove today (threat model, "Registration binding";
 * decision 016): nothing ties its commitment and ID tag to OPRF evaluations of one (ID, biometric)
 * pair. This test pins that limit so the documents cannot drift from the code: once a binding proof
 * lands, the registration below must be refused, and this test is replaced by one that shows it.
 */
const ERIN = { id: 'NP-404 Erin', bio: 'iris crypts 5 furrows 9 collarette 2' };

let t: TestApp;
let client: ZkTestClient;

beforeAll(async () => {
  t = await startTestApp();
  client = new ZkTestClient(t.app, await Artifacts.load());
});

afterAll(async () => {
  await t.destroy();
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
});

describe('zero-knowledge registration binding (not enforced yet: decision 016)', () => {
  it('refuses a taken ID to a client that follows the protocol', async () => {
    expect((await client.register(ERIN.id, ERIN.bio)).json()).toMatchObject({ 'DID already generated': false });
    expect((await client.register(ERIN.id, 'another biometric entirely')).json()).toEqual({ 'DID already generated': true });
  });

  it('accepts a commitment unrelated to any biometric under a made-up ID tag, which then verifies', async () => {
    // A client that never runs the OPRF: a random Semaphore secret, a random tag, a random DID key.
    // It may mean Erin's ID, which is taken; the server cannot tell, because it never sees the ID.
    const identity = new Identity(randomBytes(32));
    const didKey = deriveDidKey(randomBytes(64));
    const fields = {
      commitment: identity.commitment.toString(),
      idTag: randomBytes(32).toString('hex'),
      did: didKey.did,
      challenge: await client.challenge(),
    };
    const reply = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: { ...fields, signatures: signRegistration(identity, didKey.secretKey, fields) },
    });
    expect(reply.json()).toEqual({ 'DID already generated': false, DID: didKey.did });

    // A Success proves possession of a registered secret, not of a registered biometric.
    const proof = await client.proveIdentity(identity);
    expect(proof).toBeDefined();
    expect((await client.verify(proof)).json()).toEqual({ 'Verification Result': 'Success' });
  });
});

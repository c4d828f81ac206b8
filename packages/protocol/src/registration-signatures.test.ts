import { describe, expect, it } from 'vitest';
import { deriveIdentity } from './derive-identity.ts';
import { deriveDidKey } from './did-key.ts';
import { registrationMessage, signRegistration, verifyRegistration } from './registration-signatures.ts';
import { SNARK_SCALAR_FIELD } from './field.ts';

const alice = { identity: deriveIdentity(new Uint8Array(64).fill(1)), didKey: deriveDidKey(new Uint8Array(64).fill(1)) };
const mallory = { identity: deriveIdentity(new Uint8Array(64).fill(2)), didKey: deriveDidKey(new Uint8Array(64).fill(2)) };
const fields = { commitment: alice.identity.commitment.toString(), idTag: 'ab'.repeat(32), did: alice.didKey.did, challenge: '424242' };

describe('registration proof of possession', () => {
  const signatures = signRegistration(alice.identity, alice.didKey.secretKey, fields);

  it('verifies for the holder of both keys', () => {
    expect(verifyRegistration(fields, signatures)).toBe(true);
  });

  it.each([
    ['another challenge', { ...fields, challenge: '424243' }],
    ['another ID tag', { ...fields, idTag: 'cd'.repeat(32) }],
    ['another commitment', { ...fields, commitment: mallory.identity.commitment.toString() }],
    ['another DID', { ...fields, did: mallory.didKey.did }],
  ])('fails for %s', (_name, changed) => {
    expect(verifyRegistration(changed, signatures)).toBe(false);
  });

  it('fails when the Semaphore key is not the committed one, or the DID key signed nothing of ours', () => {
    const theirs = signRegistration(mallory.identity, alice.didKey.secretKey, fields);
    expect(verifyRegistration(fields, theirs)).toBe(false);
    const wrongDid = signRegistration(alice.identity, mallory.didKey.secretKey, fields);
    expect(verifyRegistration(fields, wrongDid)).toBe(false);
  });

  it('returns false, never throws, on garbage', () => {
    const garbage = { semaphore: { publicKey: ['1', '2'], signature: { R8: ['3', '4'], S: '5' } }, did: 'AAAA' } as const;
    expect(verifyRegistration(fields, garbage as never)).toBe(false);
    expect(verifyRegistration(fields, { ...signatures, did: '!!' })).toBe(false);
    expect(verifyRegistration({ ...fields, did: 'did:key:nope' }, signatures)).toBe(false);
  });

  it('signs a field element that binds every field', () => {
    const message = registrationMessage(fields);
    expect(message).toBeLessThan(SNARK_SCALAR_FIELD);
    expect(registrationMessage({ ...fields, challenge: '1' })).not.toBe(message);
  });
});

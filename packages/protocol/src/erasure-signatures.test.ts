import { base64urlnopad } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { deriveIdTag } from './derive-id-tag.ts';
import { deriveIdentity } from './derive-identity.ts';
import { deriveDidKey } from './did-key.ts';
import { signErasure, verifyErasure } from './erasure-signatures.ts';
import { signV2Registration } from '../test/v2-registration.ts';

const oprfBio = new Uint8Array(64).fill(1);
const oprfId = new Uint8Array(64).fill(7);
const alice = { identity: deriveIdentity(oprfBio), didKey: deriveDidKey(oprfBio) };
const mallory = { identity: deriveIdentity(new Uint8Array(64).fill(2)), didKey: deriveDidKey(new Uint8Array(64).fill(2)) };
const claim = { commitment: alice.identity.commitment.toString(), did: alice.didKey.did, challenge: '424242' };

describe('erasure proof (decision 022)', () => {
  const { fields, signatures } = signErasure(alice.identity, alice.didKey.secretKey, oprfId, claim);

  it("verifies for the holder of both keys and of the ID's OPRF output, and names the ID tag to erase", () => {
    expect(fields.idProof).toBe(base64urlnopad.encode(oprfId));
    expect(verifyErasure(fields, signatures)).toBe(deriveIdTag(oprfId));
  });

  it.each([
    ['another challenge', { ...fields, challenge: '424243' }],
    ['another ID (its OPRF output)', { ...fields, idProof: base64urlnopad.encode(new Uint8Array(64).fill(8)) }],
    ['another commitment', { ...fields, commitment: mallory.identity.commitment.toString() }],
    ['another DID', { ...fields, did: mallory.didKey.did }],
    ['an idProof that is no OPRF output', { ...fields, idProof: 'not-base64url!' }],
  ])('fails for %s', (_name, changed) => {
    expect(verifyErasure(changed, signatures)).toBeUndefined();
  });

  it('fails for keys that are not the claimed ones: knowing the ID alone signs nothing', () => {
    const theirs = signErasure(mallory.identity, mallory.didKey.secretKey, oprfId, claim);
    expect(verifyErasure(theirs.fields, theirs.signatures)).toBeUndefined();
  });

  it('never accepts a registration signature over the same values as an erasure (own domain)', () => {
    const registration = signV2Registration(alice.identity, alice.didKey.secretKey, { ...claim, idTag: deriveIdTag(oprfId) });
    expect(verifyErasure(fields, registration)).toBeUndefined();
  });
});

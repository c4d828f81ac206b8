import { describe, expect, it } from 'vitest';
import { deriveIdentity } from './derive-identity.ts';
import { deriveDidKey } from './did-key.ts';
import { verifyPossession, type RegistrationSignatures } from './registration-signatures.ts';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base64urlnopad } from '@scure/base';
import { didKeyPublicKey } from './did-key.ts';
import { signV2Registration, v2RegistrationMessage, v2RegistrationScalar, type ZkRegisterFields } from '../test/v2-registration.ts';

type Sig = RegistrationSignatures;
/** The order of Baby Jubjub's prime subgroup, in which EdDSA-Poseidon's S lives. */
const BABY_JUBJUB_ORDER = 2736030358979909402780800718157159386076813972158567259200215660948447373041n;
const FIXED_MESSAGE = '10195379301964696113432825513097584929013811200363656550806872992052711472601';
const inc = (decimal: string) => (BigInt(decimal) + 1n).toString();
const flipFirst = (b64: string) => (b64[0] === 'A' ? 'B' : 'A') + b64.slice(1);

const alice = { identity: deriveIdentity(new Uint8Array(64).fill(1)), didKey: deriveDidKey(new Uint8Array(64).fill(1)) };
const mallory = { identity: deriveIdentity(new Uint8Array(64).fill(2)), didKey: deriveDidKey(new Uint8Array(64).fill(2)) };
const malloryKey = mallory.identity.publicKey.map(String) as [string, string];
const fields = { commitment: alice.identity.commitment.toString(), idTag: 'ab'.repeat(32), did: alice.didKey.did, challenge: '424242' };
/** Possession checked over the message a v2 registration of `claimed` signed (every field bound into it). */
const verify = (claimed: ZkRegisterFields, signatures: Sig) => verifyPossession(v2RegistrationMessage(claimed), claimed, signatures);

describe('proof of possession of both keys', () => {
  const signatures = signV2Registration(alice.identity, alice.didKey.secretKey, fields);

  it('verifies for the holder of both keys', () => {
    expect(verify(fields, signatures)).toBe(true);
  });

  it.each([
    ['another challenge', { ...fields, challenge: '424243' }],
    ['another ID tag', { ...fields, idTag: 'cd'.repeat(32) }],
    ['another commitment', { ...fields, commitment: mallory.identity.commitment.toString() }],
    ['another DID', { ...fields, did: mallory.didKey.did }],
  ])('fails for %s', (_name, changed) => {
    expect(verify(changed, signatures)).toBe(false);
  });

  it('fails when the Semaphore key is not the committed one, or the DID key signed nothing of ours', () => {
    const theirs = signV2Registration(mallory.identity, alice.didKey.secretKey, fields);
    expect(verify(fields, theirs)).toBe(false);
    const wrongDid = signV2Registration(alice.identity, mallory.didKey.secretKey, fields);
    expect(verify(fields, wrongDid)).toBe(false);
  });

  it.each([
    [
      'a changed S',
      (sig: Sig) => ({
        ...sig,
        semaphore: { ...sig.semaphore, signature: { ...sig.semaphore.signature, S: inc(sig.semaphore.signature.S) } },
      }),
    ],
    [
      'S + the Baby Jubjub subgroup order (a malleated twin)',
      (sig: Sig) => ({
        ...sig,
        semaphore: {
          ...sig.semaphore,
          signature: { ...sig.semaphore.signature, S: (BigInt(sig.semaphore.signature.S) + BABY_JUBJUB_ORDER).toString() },
        },
      }),
    ],
    [
      'a changed R8',
      (sig: Sig) => ({
        ...sig,
        semaphore: {
          ...sig.semaphore,
          signature: { ...sig.semaphore.signature, R8: [inc(sig.semaphore.signature.R8[0]), sig.semaphore.signature.R8[1]] },
        },
      }),
    ],
    ['a swapped Semaphore public key', (sig: Sig) => ({ ...sig, semaphore: { ...sig.semaphore, publicKey: malloryKey } })],
    [
      'a Semaphore public key off the curve',
      (sig: Sig) => ({ ...sig, semaphore: { ...sig.semaphore, publicKey: [inc(sig.semaphore.publicKey[0]), sig.semaphore.publicKey[1]] } }),
    ],
    ['a flipped bit in the Ed25519 signature', (sig: Sig) => ({ ...sig, did: flipFirst(sig.did) })],
    ['a padded Ed25519 signature', (sig: Sig) => ({ ...sig, did: `${sig.did}==` })],
  ] as Array<[string, (sig: Sig) => Sig]>)('fails for %s', (_name, tamper) => {
    expect(verify(fields, tamper(signatures))).toBe(false);
  });

  it('returns false, never throws, on garbage', () => {
    for (const junk of [null, undefined, 7, 'sig', {}, { semaphore: null, did: 'AA' }, { semaphore: { publicKey: 'xy' }, did: 'AA' }]) {
      expect(verify(fields, junk as never)).toBe(false);
    }
    expect(verify({ ...fields, commitment: null } as never, signatures)).toBe(false);
    expect(verify({} as never, signatures)).toBe(false);
    const garbage = { semaphore: { publicKey: ['1', '2'], signature: { R8: ['3', '4'], S: '5' } }, did: 'AAAA' } as const;
    expect(verify(fields, garbage as never)).toBe(false);
    expect(verify(fields, { ...signatures, did: '!!' })).toBe(false);
    expect(verify({ ...fields, did: 'did:key:nope' }, signatures)).toBe(false);
  });

  it('signs the message bytes with the DID key, which anyone with the DID can check', () => {
    expect(ed25519.verify(base64urlnopad.decode(signatures.did), v2RegistrationMessage(fields), didKeyPublicKey(fields.did))).toBe(true);
  });

  it('builds its fixtures over the message v2 browsers signed (a known answer)', () => {
    const fixed = {
      commitment: '123',
      idTag: '0f'.repeat(32),
      did: 'did:key:z6MkmjY8GnV5i9YTDtPETC2uUAW6ejw3nk5mXF5yci5ab7th',
      challenge: '42',
    };
    expect(v2RegistrationScalar(fixed).toString()).toBe(FIXED_MESSAGE);
  });
});

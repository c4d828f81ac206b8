import { bytesToHex } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { describe, expect, it } from 'vitest';
import { ProtocolInputError } from '../errors.ts';
import { isFieldElement } from '../field.ts';
import { credentialLeaf } from './credential-leaf.ts';
import { CREDENTIAL_ID_TAG_LABEL, CREDENTIAL_LEAF_DS } from './credential-format.ts';
import { issuerPublicKey, parseIssuerKey } from './issuer-key.ts';

/**
 * The credential leaf of decision 086. The circuit's side (circomlib's Poseidon over the key it checked
 * the signature with and the secret it derived) is held to this function in
 * circuits/registration-credential.test.ts; here, its definition and a pinned vector.
 */
describe('credentialLeaf', () => {
  const university = issuerPublicKey(new Uint8Array(32).fill(1));
  const employer = issuerPublicKey(new Uint8Array(32).fill(2));

  it('is Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret), the label the ASCII of "zeroid/credential-leaf/v1" read big-endian', () => {
    const ascii = BigInt(`0x${bytesToHex(new TextEncoder().encode('zeroid/credential-leaf/v1'))}`);
    expect(CREDENTIAL_LEAF_DS).toBe(ascii);
    expect(CREDENTIAL_LEAF_DS).toBe(768293885226003153231021317016570757166115235676190814467633n);
    const { x, y } = parseIssuerKey(university)!;
    expect(credentialLeaf(university, 123456789n)).toBe(poseidon4([ascii, x, y, 123456789n]).toString());
    // Pinned, so that a change of label, order or arity cannot pass unnoticed (the circuit's test computes the same).
    expect(university).toBe('_lGG0Qj8U5QMNdHC9K9Ouy0gRazYFDtLwHGbrT85JCY');
    expect(credentialLeaf(university, 123456789n)).toBe('19255264650900130716939462987609705054861434005567309256103206132497865264580');
    expect(credentialLeaf(university, (1n << 250n) - 1n)).toBe(
      '6344118436142524504242744362368700251083880011490580236483762019340088189891',
    );
  });

  it('takes the key as printed or as its point, and is a canonical field element', () => {
    expect(credentialLeaf(parseIssuerKey(university)!, 42n)).toBe(credentialLeaf(university, 42n));
    expect(isFieldElement(credentialLeaf(university, 42n))).toBe(true);
  });

  it('differs with the issuer, with the secret, and from the credential ID tag of the same values', () => {
    const leaf = credentialLeaf(university, 42n);
    expect(credentialLeaf(employer, 42n)).not.toBe(leaf);
    expect(credentialLeaf(university, 43n)).not.toBe(leaf);
    const { x, y } = parseIssuerKey(university)!;
    expect(poseidon4([CREDENTIAL_ID_TAG_LABEL, x, y, 42n]).toString()).not.toBe(leaf);
  });

  it('refuses a key that is not an issuer key', () => {
    expect(() => credentialLeaf('not a key', 1n)).toThrow(ProtocolInputError);
    // The identity point (y = 1): canonical and on the curve, but no issuer's key.
    const identity = new Uint8Array(32);
    identity[0] = 1;
    expect(() => credentialLeaf(base64urlnopad.encode(identity), 1n)).toThrow(/not a valid Baby Jubjub public key/);
  });
});

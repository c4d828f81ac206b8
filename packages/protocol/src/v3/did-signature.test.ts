import { ed25519 } from '@noble/curves/ed25519.js';
import { base64urlnopad } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { didKeyPublicKey } from '../did-key.ts';
import { deriveRegistration } from './derive-registration.ts';
import { signWithDid } from './did-signature.ts';
import { v3ErasureMessage, v3RegistrationMessage } from './wire.ts';

describe('signWithDid', () => {
  const { didKey, commitment, idTag } = deriveRegistration(123n, 456n);
  const fields = { challenge: '42', commitment, idTag, did: didKey.did };

  it("verifies under the did:key's own public key, for that message only", () => {
    const signature = signWithDid(v3RegistrationMessage(fields), didKey.secretKey);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    const publicKey = didKeyPublicKey(didKey.did);
    expect(ed25519.verify(base64urlnopad.decode(signature), v3RegistrationMessage(fields), publicKey)).toBe(true);
    expect(ed25519.verify(base64urlnopad.decode(signature), v3RegistrationMessage({ ...fields, challenge: '43' }), publicKey)).toBe(false);
    const erasure = v3ErasureMessage({ challenge: '42', commitment, idOutput: '456', did: didKey.did });
    expect(ed25519.verify(base64urlnopad.decode(signature), erasure, publicKey)).toBe(false);
  });
});

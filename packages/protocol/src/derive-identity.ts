import { Identity } from '@semaphore-protocol/identity';
import { hkdfSecret } from './hkdf-secret.ts';

/**
 * The Semaphore v4 identity of a person, from the OPRF output of their biometric. Its private key is
 * HKDF(oprf(bio), "zeroid/semaphore/v1"); its commitment (Poseidon of the Baby Jubjub public key) is
 * the leaf in the group. Without the server's OPRF key, the commitment reveals nothing about the
 * biometric and cannot be recomputed from a guess offline.
 */
export function deriveIdentity(oprfBio: Uint8Array): Identity {
  return new Identity(hkdfSecret(oprfBio, 'zeroid/semaphore/v1'));
}

export { Identity };

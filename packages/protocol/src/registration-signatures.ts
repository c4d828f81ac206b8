import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { Identity } from '@semaphore-protocol/identity';
import { verifyDidSignature } from './did-key.ts';
import { SNARK_SCALAR_FIELD, isFieldElement } from './field.ts';
import { isDegenerateCommitment, isSemaphorePublicKey } from './semaphore-public-key.ts';

/**
 * Proof of possession of both keys behind an identity (the erasure body carries it; the closed v2
 * registration body did too). Numbers are canonical decimal strings.
 */
export interface RegistrationSignatures {
  semaphore: { publicKey: [string, string]; signature: { R8: [string, string]; S: string } };
  /** base64url Ed25519 signature over the same message bytes. */
  did: string;
}

/** Both signatures over `message` (the Semaphore one over it reduced into the field), unchecked. */
export function signPossession(identity: Identity, didSecretKey: Uint8Array, message: Uint8Array): RegistrationSignatures {
  const [x, y] = identity.publicKey;
  const signature = identity.signMessage(BigInt(`0x${bytesToHex(message)}`) % SNARK_SCALAR_FIELD);
  return {
    semaphore: {
      publicKey: [x.toString(), y.toString()],
      signature: { R8: [signature.R8[0].toString(), signature.R8[1].toString()], S: signature.S.toString() },
    },
    did: base64urlnopad.encode(ed25519.sign(message, didSecretKey)),
  };
}

/**
 * True only when the Semaphore signature over `message` (reduced into the field) verifies under a
 * public key whose commitment is `fields.commitment`, that key is a point of the prime-order subgroup
 * other than the identity (`isSemaphorePublicKey`; zk-kit's `verifySignature` checks only that it is
 * on the curve, and clears the cofactor, so a small-order key signs without any secret), and the
 * Ed25519 signature over `message` verifies under the key inside `fields.did`. The caller binds the
 * one-time challenge into `message`, so a captured signature is useless to replay. Malformed values
 * give false, never an exception.
 */
export function verifyPossession(
  message: Uint8Array,
  fields: { commitment: string; challenge: string; did: string },
  signatures: RegistrationSignatures,
): boolean {
  try {
    const { publicKey, signature } = signatures.semaphore;
    const numbers = [...publicKey, ...signature.R8, signature.S, fields.commitment, fields.challenge];
    if (!numbers.every(isFieldElement)) return false;
    const point: [bigint, bigint] = [BigInt(publicKey[0]), BigInt(publicKey[1])];
    if (!isSemaphorePublicKey(point) || isDegenerateCommitment(fields.commitment)) return false;
    if (Identity.generateCommitment(point).toString() !== fields.commitment) return false;
    const semaphoreOk = Identity.verifySignature(
      BigInt(`0x${bytesToHex(message)}`) % SNARK_SCALAR_FIELD,
      { R8: [BigInt(signature.R8[0]), BigInt(signature.R8[1])], S: BigInt(signature.S) },
      point,
    );
    if (!semaphoreOk) return false;
    return verifyDidSignature(fields.did, message, signatures.did);
  } catch {
    return false;
  }
}

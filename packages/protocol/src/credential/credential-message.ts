import { poseidon3 } from 'poseidon-lite/poseidon3';
import { hashText } from '../v3/hash-text.ts';
import { CREDENTIAL_SIGNATURE_DS } from './credential-format.ts';

/**
 * What an issuer signs (EdDSA-Poseidon on Baby Jubjub): m = Poseidon([CREDENTIAL_SIGNATURE_DS, t,
 * expiryDay]), t = `hashText(normalisedId)`, the same field element the registration circuit takes for
 * the ID's OPRF query. So a credential circuit checks the signature (circomlib's
 * EdDSAPoseidonVerifier) over the very t that gives the ID tag, for one Poseidon more, and never
 * hashes the text itself. The expiry is signed as a day number, 0 for never.
 */
export function credentialMessage(normalisedId: string, expiryDay: number): bigint {
  return poseidon3([CREDENTIAL_SIGNATURE_DS, hashText(normalisedId), BigInt(expiryDay)]);
}

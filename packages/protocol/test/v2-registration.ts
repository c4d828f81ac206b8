import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Identity } from '@semaphore-protocol/identity';
import { SNARK_SCALAR_FIELD } from '../src/field.ts';
import { signPossession, type RegistrationSignatures } from '../src/registration-signatures.ts';

/**
 * The values a protocol v2 registration body carried beside its signatures. The server refuses that
 * body since decision 056; tests still build it, to see it refused and to seed v2 rows.
 */
export interface ZkRegisterFields {
  commitment: string;
  idTag: string;
  did: string;
  challenge: string;
}

/**
 * The bytes both keys of a v2 registration signed: SHA-256 of "zeroid/register/v1", challenge,
 * commitment, ID tag and DID, joined by NUL bytes (none of the four values can hold a NUL).
 */
export function v2RegistrationMessage(fields: ZkRegisterFields): Uint8Array {
  return sha256(
    new TextEncoder().encode(['zeroid/register/v1', fields.challenge, fields.commitment, fields.idTag, fields.did].join('\u0000')),
  );
}

/** The same message reduced into the BN254 scalar field, as the Semaphore key signed it. */
export function v2RegistrationScalar(fields: ZkRegisterFields): bigint {
  return BigInt(`0x${bytesToHex(v2RegistrationMessage(fields))}`) % SNARK_SCALAR_FIELD;
}

/** A v2 registration's signatures of possession, as a v2 browser made them for `identity` and its DID key. */
export function signV2Registration(identity: Identity, didSecretKey: Uint8Array, fields: ZkRegisterFields): RegistrationSignatures {
  return signPossession(identity, didSecretKey, v2RegistrationMessage(fields));
}

import type { Identity } from '@semaphore-protocol/identity';
import { deriveDidKey } from './did-key.ts';
import { deriveIdTag } from './derive-id-tag.ts';
import { deriveIdentity } from './derive-identity.ts';

/** Everything one registration derives from the two OPRF outputs. */
export interface DerivedRegistration {
  /** The Semaphore identity: its private key proves membership later. Keep it in memory only. */
  identity: Identity;
  /** The identity's commitment, the group leaf, in canonical decimal (the only form we store or compare). */
  commitment: string;
  /** The did:key, with the Ed25519 key pair that signs for it. */
  didKey: { did: string; publicKey: Uint8Array; secretKey: Uint8Array };
  did: string;
  /** The ID tag, lowercase hex. */
  idTag: string;
}

/**
 * Runs every derivation of DESIGN §3 at once: the identity and DID from oprf(bio), the ID tag from
 * oprf(id). The labels keep the three secrets independent, so publishing the commitment, DID and tag
 * together reveals nothing about each other's keys, and nothing about the inputs without the server key.
 */
export function deriveAll(oprfBio: Uint8Array, oprfId: Uint8Array): DerivedRegistration {
  const identity = deriveIdentity(oprfBio);
  const didKey = deriveDidKey(oprfBio);
  return { identity, commitment: identity.commitment.toString(), didKey, did: didKey.did, idTag: deriveIdTag(oprfId) };
}

import { deriveNoisyDid, deriveNoisyIdentity, SEED_BYTES, xorBytes } from '@zeroid/protocol/noisy';
import { credentialLeaf } from '@zeroid/protocol/credential';
import type { NoisyIrisCode } from './read-noisy-bio.ts';
import type { AffinePoint } from '@zeroid/protocol/v3';
import { randomBytes } from 'node:crypto';
import type { RawDeriver } from '../identity/raw/raw-deriver.ts';
import { sodiumEd25519PublicKey } from '../oprf/libsodium.ts';
import type { NewIdentity, NoisyLocker, Storage } from '../storage/types.ts';

/** A raw registration whose biometric is a noisy template (decision 084). */
export interface NoisyRegistration {
  idInfo: string;
  issuer?: AffinePoint;
  /** The template's text, normalised: an exact identity registered from it before the flag was on is this person's. */
  bioInfo: string;
  template: NoisyIrisCode;
}

/**
 * Sample-then-lock on the raw path (decisions 077 and 084): a fresh random seed is sealed in every
 * locker the reading saw (seed ⊕ pad, keyed by the locker's number and tag) and random bytes of the
 * same size fill the masked ones, so the table does not show the mask. The identity is the seed's:
 * its Semaphore commitment and its DID, beside the ID's tag as the exact path derives it. The row and
 * its lockers are one transaction: a locker already stored (a second reading of a registered eye),
 * the ID's tag or a v2 identity holding it, or an exact identity registered from the same text, gives
 * "already registered" and writes nothing. The template and the seed leave no trace here: only the
 * row and the lockers are kept.
 */
export async function registerNoisy(
  { storage, deriver }: { storage: Storage; deriver: RawDeriver },
  request: NoisyRegistration,
  client: string,
): Promise<{ did: string; inserted: boolean }> {
  if (!deriver.noisy) throw new Error('Noisy biometrics need the server’s own OPRF key');
  const [{ slots, idTags }, exact] = await Promise.all([
    deriver.noisy({ template: request.template, idInfo: request.idInfo, issuer: request.issuer }, client),
    deriver.commitment(request.bioInfo, client),
  ]);
  const seed = new Uint8Array(randomBytes(SEED_BYTES));
  const lockers: NoisyLocker[] = slots.map((slot, index) =>
    slot
      ? { key: slot.key, seal: xorBytes(seed, slot.pad) }
      : { key: Uint8Array.of(index >> 8, index & 0xff, ...randomBytes(8)), seal: new Uint8Array(randomBytes(SEED_BYTES)) },
  );
  const { commitment, secretScalar } = deriveNoisyIdentity(seed);
  const did = deriveNoisyDid(seed, sodiumEd25519PublicKey);
  // The ID is one person's under either protocol version: a v2 identity holding its tag refuses it, as on the exact path.
  if (await storage.identities.holdsCommitmentOrTag({ commitment, idTag: idTags!.v2 })) return { did, inserted: false };
  // The same text registered as exact text before the flag was on (or by a server with it off): that
  // person is registered, and verifies through the exact derivation (`noisyCommitments`' caller).
  if (await storage.identities.holdsAnyCommitment([exact.v3, exact.v2])) return { did, inserted: false };
  const row: NewIdentity = { commitment, idTag: idTags!.v3, did, lockers };
  // A credential's identity is filed in the credential tree as on the exact path (decision 086).
  if (request.issuer) row.credentialLeaf = credentialLeaf(request.issuer, secretScalar);
  return { did, inserted: (await storage.identities.register(row)).inserted };
}

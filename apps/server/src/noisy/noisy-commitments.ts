import { bytesToHex } from '@noble/hashes/utils.js';
import { deriveNoisyIdentity, xorBytes } from '@zeroid/protocol/noisy';
import type { NoisyIrisCode } from './read-noisy-bio.ts';
import type { RawDeriver } from '../identity/raw/raw-deriver.ts';
import type { Storage } from '../storage/types.ts';

/**
 * The commitments a noisy reading opens (decision 084): every locker whose sampled bits the reading
 * repeats exactly holds the registered seed under the pad only that reading's OPRF output gives, so
 * its seal unseals to the seed, and the seed to the identity's commitment. Lockers of one person give
 * one seed; none opens for a reading beyond the genuine distance. The caller asks whether a
 * commitment is a registered leaf, in one read with the exact path's.
 */
export async function noisyCommitments(
  { storage, deriver }: { storage: Storage; deriver: RawDeriver },
  template: NoisyIrisCode,
  client: string,
): Promise<string[]> {
  if (!deriver.noisy) throw new Error('Noisy biometrics need the server’s own OPRF key');
  const { slots } = await deriver.noisy({ template }, client);
  const pads = new Map<string, Uint8Array>();
  for (const slot of slots) if (slot) pads.set(bytesToHex(slot.key), slot.pad);
  const stored = await storage.noisyLockers.find(slots.flatMap((slot) => (slot ? [slot.key] : [])));
  const seeds = new Set(stored.map(({ key, seal }) => bytesToHex(xorBytes(seal, pads.get(bytesToHex(key))!))));
  return [...seeds].map((seed) => deriveNoisyIdentity(Uint8Array.from(Buffer.from(seed, 'hex'))).commitment);
}

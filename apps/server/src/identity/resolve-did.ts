import { isDidKey } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';

/**
 * What the server knows of a DID: one of ours and registered, erased (decision 022: deactivated until
 * the same person registers again), or nothing. A string not shaped like our DIDs is never looked up.
 */
export async function resolveDid({ storage }: { storage: Storage }, did: string): Promise<'registered' | 'deactivated' | 'unknown'> {
  if (!isDidKey(did)) return 'unknown';
  if (await storage.identities.findByDid(did)) return 'registered';
  return (await storage.identities.isDeactivated(did)) ? 'deactivated' : 'unknown';
}

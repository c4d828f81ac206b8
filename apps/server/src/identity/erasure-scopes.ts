import type { Storage } from '../storage/types.ts';
import { sectorScopes } from '../openid/forget-sign-ins.ts';

/**
 * What a zero-knowledge erasure proves the person's pseudonyms at (decision 048): every sector's
 * scope, public as the sites are, so the browser can prove one per sector and the server forget them.
 */
export async function erasureScopes({ storage }: { storage: Storage }): Promise<string[]> {
  return sectorScopes(storage);
}

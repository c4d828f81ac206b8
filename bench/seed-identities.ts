import { randomBytes } from 'node:crypto';
import { Group } from '@semaphore-protocol/group';
import { base58 } from '@scure/base';
import type { Storage } from '../apps/server/src/storage/types.ts';
import { encodeTree } from '../apps/server/src/services/tree-snapshot.ts';

/**
 * Random stand-ins for registered identities, for scale measurements only: each commitment is a
 * random element of the BN254 scalar field (31 random bytes), not derived from any person, with a
 * random ID tag and a did:key-shaped random DID. The tree is hashed once here and saved as a
 * checkpoint, as a running server would, so the server's start-up is what gets measured.
 */
export function randomIdentities(count: number) {
  return Array.from({ length: count }, () => ({
    commitment: BigInt(`0x${randomBytes(31).toString('hex')}`).toString(),
    idTag: randomBytes(32).toString('hex'),
    did: `did:key:z6Mk${base58.encode(randomBytes(32))}`,
  }));
}

/** Appends `identities` to the database and to `group`, then records the root and a checkpoint. */
export async function seedIdentities(storage: Storage, group: Group, identities: ReturnType<typeof randomIdentities>) {
  for (let offset = 0; offset < identities.length; offset += 10_000) {
    await storage.identities.importBatch(identities.slice(offset, offset + 10_000));
  }
  group.addMembers(identities.map((i) => BigInt(i.commitment)));
  const root = group.root.toString();
  await storage.roots.record(group.size, root);
  await storage.checkpoints.save({ size: group.size, root, nodes: encodeTree(group) });
}

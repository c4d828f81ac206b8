import type { Storage } from '../storage/types.ts';
import type { Registry } from './member-tree.ts';

/**
 * What readiness asks of the data every request needs: storage answers, and the tree has caught up
 * with it. Throws what storage threw when it does not answer; the size and root are the caught-up tree's.
 */
export async function treeReadiness({ storage, registry }: { storage: Storage; registry: Registry }) {
  await storage.ping();
  await registry.catchUp();
  return { members: registry.size, root: registry.root };
}

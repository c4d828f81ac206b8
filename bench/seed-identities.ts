import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import { memberBucket } from '@zeroid/protocol';
import { BucketIndex, checkpointPieces, INDEXED_BUCKET_CHARS, PackedLeanIMT, savePagedCheckpoint, type Storage } from './server.ts';

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

/** The server's tree and bucket index of a seeded database, kept in step by the seeder. */
export class SeedTree {
  readonly tree = new PackedLeanIMT();
  readonly buckets = new BucketIndex();

  get size(): number {
    return this.tree.size;
  }

  add(commitments: string[]): void {
    this.tree.append(commitments.map((c) => BigInt(c)));
    for (const c of commitments) this.buckets.push(Number.parseInt(memberBucket(c, INDEXED_BUCKET_CHARS), 16));
  }
}

/** Appends `identities` to the database and to `seeded`, then records the root and a checkpoint. */
export async function seedIdentities(storage: Storage, seeded: SeedTree, identities: ReturnType<typeof randomIdentities>) {
  for (let offset = 0; offset < identities.length; offset += 10_000) {
    await storage.identities.importBatch(identities.slice(offset, offset + 10_000));
  }
  seeded.add(identities.map((i) => i.commitment));
  const root = seeded.tree.root.toString();
  await storage.roots.record(seeded.size, root);
  await savePagedCheckpoint(storage.checkpoints, { size: seeded.size, root, pieces: checkpointPieces(seeded.tree, seeded.buckets) });
}

import { Group } from '@semaphore-protocol/group';
import type { Storage } from '../storage/types.ts';

/**
 * The Semaphore group of every registered commitment, kept in memory as a LeanIMT and brought up to
 * date from the `identities` table, which is the source of truth. Any process sharing the database
 * calls `catchUp()` before answering a question about the tree, so a registration made by another
 * process is visible at once. Each root the tree passes through is recorded in the root history.
 */
export class Registry {
  private readonly group = new Group();
  private readonly indexByCommitment = new Map<string, number>();
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly storage: Storage) {}

  get size(): number {
    return this.group.size;
  }

  get depth(): number {
    return this.group.depth;
  }

  get root(): string {
    return this.group.size === 0 ? '0' : this.group.root.toString();
  }

  /** Serialised, so two concurrent catch-ups never append the same leaves twice. */
  catchUp(): Promise<void> {
    const run = this.pending.catch(() => undefined).then(() => this.appendNewLeaves());
    this.pending = run;
    return run;
  }

  indexOf(commitment: string): number | undefined {
    return this.indexByCommitment.get(commitment);
  }

  merkleProof(index: number) {
    return this.group.generateMerkleProof(index);
  }

  private async appendNewLeaves(): Promise<void> {
    const batchSize = 10_000;
    for (;;) {
      const commitments = await this.storage.identities.commitmentsFrom(this.group.size, batchSize);
      if (commitments.length === 0) return;
      const first = this.group.size;
      this.group.addMembers(commitments.map((c) => BigInt(c)));
      commitments.forEach((c, i) => this.indexByCommitment.set(c, first + i));
      await this.storage.roots.record(this.group.size, this.root);
      if (commitments.length < batchSize) return;
    }
  }
}

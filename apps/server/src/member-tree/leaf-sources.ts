import type { CheckpointRepository, RootRepository, Storage } from '../storage/types.ts';

/**
 * Where a tree's leaves come from (decision 088): the table it catches up from, in leaf order, its
 * erasure log, its root history and its checkpoints. The member tree reads `identities`, the
 * credential tree `credential_leaves`; each has tables of its own for the rest.
 */
export interface LeafSource {
  /** Leaves in tree order from `from` on, in canonical decimal; '0' for an erased one. */
  leavesFrom(from: number, limit: number): Promise<string[]>;
  /** The erasure log after `seq`, in order: the tree positions to set to zero. */
  erasuresAfter(seq: number): Promise<Array<{ seq: number; leafIndex: number }>>;
  /** How many leaves the table holds and the last erasure's seq, in one statement (decision 064). */
  changeMarks(): Promise<{ leafCount: number; lastErasure: number }>;
  roots: RootRepository;
  checkpoints: CheckpointRepository;
}

/** The member tree: every registered commitment, by leaf_index (decision 022 for its erasures). */
export function memberLeaves(storage: Storage): LeafSource {
  return {
    leavesFrom: (from, limit) => storage.identities.commitmentsFrom(from, limit),
    erasuresAfter: (seq) => storage.identities.erasuresAfter(seq),
    changeMarks: () => storage.identities.changeMarks(),
    roots: storage.roots,
    checkpoints: storage.checkpoints,
  };
}

/** The credential tree: one leaf per identity registered with a credential, by position (decision 088). */
export function credentialLeaves(storage: Storage): LeafSource {
  return {
    leavesFrom: (from, limit) => storage.credentialLeaves.leavesFrom(from, limit),
    erasuresAfter: async (seq) =>
      (await storage.credentialLeaves.erasuresAfter(seq)).map((erasure) => ({ seq: erasure.seq, leafIndex: erasure.position })),
    changeMarks: () => storage.credentialLeaves.changeMarks(),
    roots: storage.credentialRoots,
    checkpoints: storage.credentialCheckpoints,
  };
}

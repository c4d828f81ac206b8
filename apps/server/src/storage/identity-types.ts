// The identities table's contract: what a registration, a move from v2 and an erasure read and write.

/** One registered identity: only derived, OPRF-hardened values. Nothing raw is ever stored. */
export interface IdentityRecord {
  leafIndex: number;
  commitment: string;
  idTag: string;
  did: string;
  createdAt: Date;
}

/**
 * `reusedQuery`: one of the registration's blinded OPRF points was recorded before (decision 056), so
 * nothing was written: not the identity, not its other point.
 */
export type RegisterOutcome = { inserted: true; leafIndex: number } | { inserted: false; reusedQuery?: true };

/** What a move from v2 did: the v3 identity's leaf, the DID it replaced, how many other registrations it evicted; or why it did nothing. */
export type MoveOutcome =
  | { moved: true; leafIndex: number; replacedDid: string; evicted: number }
  | { moved: false; reason: 'no-v2-identity' | 'would-evict' | 'reused-query' };

/** An identity to insert; a v3 registration also names the blinded points it was proven from (`registration_queries`). */
export interface NewIdentity {
  commitment: string;
  idTag: string;
  did: string;
  /** Canonical encodings of the blinded points, each recorded once and for good, in the identity's transaction. */
  queries?: string[];
  /**
   * A noisy biometric's lockers (decision 084), written in the identity's transaction: any of them
   * already stored gives `{inserted: false}` and writes nothing.
   */
  lockers?: NoisyLocker[];
  /**
   * The credential leaf Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret) of an identity registered with a
   * credential (decision 086), a canonical decimal below the field modulus: the proof's third public
   * signal, or computed by the server on the raw path. Absent for a plain ID.
   */
  credentialLeaf?: string;
}

/** One locker of a noisy biometric (decision 084): its number ‖ tag (10 bytes), and its seal (16 bytes). */
export interface NoisyLocker {
  key: Uint8Array;
  seal: Uint8Array;
}

/** Noisy biometrics' lockers, as a verification reads them; registration writes them with the identity. */
export interface NoisyLockerRepository {
  /** The stored lockers among these keys. */
  find(keys: readonly Uint8Array[]): Promise<NoisyLocker[]>;
}

export interface IdentityRepository {
  /**
   * Inserts with the next gapless leaf_index, atomically. `{inserted: false}` when the commitment,
   * the ID tag or the DID is already registered. Safe under concurrency, across processes. With
   * `queries`, those are recorded first, in the same transaction: any of them recorded before gives
   * `{inserted: false, reusedQuery: true}` and writes nothing; else they stay recorded whether or not
   * the identity is new (its evaluations were spent either way).
   */
  register(identity: NewIdentity): Promise<RegisterOutcome>;
  /**
   * Appends many identities at the next leaf indexes in one transaction, for bulk imports and seeding.
   * Fails as a whole if any of them is already registered.
   */
  importBatch(identities: Array<{ commitment: string; idTag: string; did: string }>): Promise<void>;
  findByCommitment(commitment: string): Promise<IdentityRecord | undefined>;
  /**
   * Whether any of these commitments is a registered leaf, in one statement: one snapshot, so a move
   * from v2 to v3 committing meanwhile is seen wholly before or wholly after (decision 073).
   */
  holdsAnyCommitment(commitments: readonly string[]): Promise<boolean>;
  /**
   * True when a registered identity holds this commitment or this ID tag: the raw path's check that a
   * person's protocol v2 identity exists before it registers their v3 one (decision 056).
   */
  holdsCommitmentOrTag(identity: { commitment: string; idTag: string }): Promise<boolean>;
  findByDid(did: string): Promise<IdentityRecord | undefined>;
  /** Commitments ordered by leaf_index, from `fromIndex` on, for bringing a tree up to date; '0' for an erased leaf. */
  commitmentsFrom(fromIndex: number, limit?: number): Promise<string[]>;
  /**
   * Erases, in one transaction, the row that holds each of these commitment and ID tag pairs (a
   * person's identity under each protocol version they may hold, decision 073): the values become
   * NULL, each leaf is logged in `leaf_erasures` for every process's tree, each row's stored DID is
   * tombstoned (deactivated), and checkpoints holding a leaf are deleted (decision 022). The DID is
   * not matched: a zero-knowledge registrant names it, no proof of the texts binds it. `every` (the
   * default): false, and nothing written, unless every pair is one row's; `any`: erases the pairs
   * that are, false when none is.
   */
  erase(identities: ReadonlyArray<{ commitment: string; idTag: string }>, require?: 'every' | 'any'): Promise<boolean>;
  /**
   * A person's move from protocol v2 to v3 (decision 073), in one transaction: the row holding the
   * v2 commitment and v2 ID tag together is erased and the v3 identity inserted, so the person never
   * holds both, nor neither. A row already holding all three v3 values is the person's own and is
   * kept. Any other row holding one of the v3 values is erased with it when `evict` (the raw path,
   * which derived both versions from the same texts), else the move is refused (`would-evict`) and
   * nothing is erased. With `queries` (a zero-knowledge move), those are recorded first, as by `register`.
   */
  moveFromV2(move: { from: { commitment: string; idTag: string }; to: NewIdentity; evict: boolean }): Promise<MoveOutcome>;
  /**
   * After an erasure: makes the bytes it freed unreadable where the database can (decisions 034 and
   * 053). SQLite: a truncating WAL checkpoint, tried once before this resolves and again in the
   * background while a reader holds it off. PostgreSQL: a VACUUM of the erasure's tables, scheduled
   * in the background. Each completed scrub records the last erasure it covered (`scrub_marks`).
   */
  scrubErased(): Promise<void>;
  /** At start: scrubs as `scrubErased` does when the erasure log goes past the last scrub recorded (a crash cut it off). */
  scrubPendingErasures(): Promise<void>;
  /** The erasure log after `seq`, in order: the leaves to set to zero. */
  erasuresAfter(seq: number): Promise<Array<{ seq: number; leafIndex: number }>>;
  /** True when `did` was erased and not registered again. */
  isDeactivated(did: string): Promise<boolean>;
  count(): Promise<number>;
  /** The number of leaves of the tree, MAX(leaf_index) + 1: an index lookup, where `count()` scans. */
  leafCount(): Promise<number>;
  /**
   * Where the table and the erasure log stand, in one statement of two index lookups: `leafCount()`
   * and the last erasure's seq (0 for none). A tree that holds that many leaves and has applied that
   * erasure has nothing to read (decision 064).
   */
  changeMarks(): Promise<{ leafCount: number; lastErasure: number }>;
}

import type { IdentityRepository, NoisyLockerRepository } from './identity-types.ts';
import type { OidcRepository } from './oidc-types.ts';
import type { SessionRepository } from './session-types.ts';

// Each repository's contract, with the records it reads and writes; the larger ones in their own
// files, re-exported here so that `Storage` and every contract are imported from one place.
export type * from './identity-types.ts';
export type * from './oidc-types.ts';
export type * from './session-types.ts';

export interface RootRepository {
  /**
   * Records the root of the tree of `size` leaves, reached at `at` (ms since the epoch, default now);
   * idempotent, as several processes record the same.
   */
  record(size: number, root: string, at?: number): Promise<void>;
  /**
   * True for the current root, and for an older one that was superseded less than `windowMs` ago.
   * Never for '0' or a root we never had.
   */
  isAccepted(root: string, windowMs: number, now?: Date): Promise<boolean>;
  /**
   * The size of the tree `root` was recorded for (the newest such size), and whether it is accepted
   * (`isAccepted`) or stale: superseded `windowMs` ago or more. Undefined for '0' or a root we never had.
   */
  standing(root: string, windowMs: number, now?: Date): Promise<{ size: number; accepted: boolean } | undefined>;
  latest(): Promise<{ size: number; root: string } | undefined>;
  /** The root recorded for the tree of `size` leaves (the newest, if erasures changed it). */
  rootOf(size: number): Promise<string | undefined>;
  /** True when `root` was recorded for the tree of `size` leaves (before or after an erasure). */
  isRecorded(size: number, root: string): Promise<boolean>;
}

export interface ChallengeRepository {
  issue(nonce: string, expiresAt: Date, issuedAt?: Date): Promise<void>;
  /** Single use, atomically: true for exactly one caller, and only before expiry. */
  consume(nonce: string, now?: Date): Promise<boolean>;
  /**
   * True when `nonce` was issued, is unused and unexpired: a read that consumes nothing, so work that
   * a dead challenge would waste (the erasure's Groth16 checks, decision 055) is refused before it
   * runs. Only `consume` decides; a usable challenge can still be lost to a concurrent consumer.
   */
  isUsable(nonce: string, now?: Date): Promise<boolean>;
  /**
   * When a usable challenge (as `isUsable`) was issued and when it expires; `issuedAt` is undefined
   * for a challenge issued before migration 024. Undefined when the challenge is not usable.
   */
  times(nonce: string, now?: Date): Promise<{ issuedAt?: Date; expiresAt: Date } | undefined>;
  /** Deletes expired challenges, so the table cannot grow without bound. */
  purgeExpired(now?: Date): Promise<number>;
}

/** A snapshot of the whole member tree of `size` leaves: its root, and its nodes in binary pages (decision 025) or, for checkpoints saved before those, as text (`member-tree/tree-snapshot.ts`). */
export interface TreeCheckpoint {
  size: number;
  root: string;
  /** The nodes as text (older checkpoints), or a marker that they are in pages (`savePages`). */
  nodes: string;
}

export interface CheckpointRepository {
  /**
   * Records a checkpoint (for a paged one, after all its pages are saved) unless a leaf was erased
   * after erasure `erasuresSeen`: the tree would hold an erased leaf (decision 022). A refused paged
   * checkpoint's pages are deleted with it. Keeps only the newest few. True when recorded.
   */
  save(checkpoint: TreeCheckpoint, erasuresSeen?: number): Promise<boolean>;
  /** The newest snapshot of at most `maxSize` leaves. */
  latest(maxSize: number): Promise<TreeCheckpoint | undefined>;
  /**
   * Stores pages `first`, `first + 1`, … of the checkpoint of `size` leaves and this `root`; a page
   * already there stays. Keyed by the root too: an erasure changes a tree without changing its size,
   * and pages of two trees of one size must never mix (decision 022, decision 025).
   */
  savePages(size: number, root: string, first: number, pages: Uint8Array[]): Promise<void>;
  /** Pages `first` … `first + count - 1` of that checkpoint, in order (fewer if some are missing). */
  pages(size: number, root: string, first: number, count: number): Promise<Uint8Array[]>;
  /** Deletes the pages of a checkpoint that will not be recorded (its tree changed while they were written). */
  discardPages(size: number, root: string): Promise<void>;
}

/**
 * How a throttled key waits: none while it holds fewer than `allowance` attempts; then `delayMs`
 * after its last attempt, doubling with each further one up to `maxDelayMs`. Attempts are forgotten
 * once the key has had none for `forgetAfterMs`.
 */
export interface ThrottleRule {
  allowance: number;
  delayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

export interface AttemptRepository {
  /**
   * Counts one attempt under `key` in the fixed window starting at `windowStart` (a new window starts
   * the count again at 1); returns the count so far in that window. Atomic across processes.
   */
  countInWindow(key: string, windowStart: number, now?: number): Promise<number>;
  /** Takes back one attempt counted in the window starting at `windowStart` (a request that was refused later). */
  uncountInWindow(key: string, windowStart: number): Promise<void>;
  /**
   * Reserves `cost` attempts under `key` unless the key must still wait (`ThrottleRule`): one
   * statement, so no number of concurrent requests, from any number of processes, reserves more
   * than the rule allows. Returns the count after the reservation, or undefined when refused.
   */
  reserve(key: string, cost: number, now: number, rule: ThrottleRule): Promise<number | undefined>;
  /** Gives back `cost` reserved attempts (a verification that succeeded, or one refused later). */
  release(key: string, cost: number): Promise<void>;
  /** The attempts under `key` that are not yet forgotten. */
  attempts(key: string, now: number, forgetAfterMs: number): Promise<{ count: number; lastAt: number } | undefined>;
  /** Deletes counters untouched since `before`, so the table cannot grow without bound. */
  purgeIdle(before: number): Promise<number>;
  /**
   * Takes `cost` tokens from the bucket under `key` if it holds them (`TokenBucket`): one statement,
   * so concurrent takes from any number of processes never take more than the bucket held. A
   * refusal changes nothing; it says how long until the bucket holds `cost`, if nothing else is taken.
   */
  takeTokens(key: string, cost: number, now: number, bucket: TokenBucket): Promise<{ taken: true } | { taken: false; waitMs: number }>;
  /** Puts `cost` tokens back (never above a full bucket): they were taken for nothing that was evaluated. */
  giveBackTokens(key: string, cost: number, bucket: TokenBucket): Promise<void>;
  /** Stores a reservation of `units` under `key`, usable until `expiresAt`. */
  openReservation(key: string, units: number, expiresAt: number): Promise<void>;
  /** Draws `cost` units (0: only checks it is live) from the reservation under `key`, atomically; false when it lacks them or has expired. */
  drawReservation(key: string, cost: number, now: number): Promise<boolean>;
  /** Ends the reservation under `key` and returns the units it still held (0 when expired or unknown). */
  closeReservation(key: string, now: number): Promise<number>;
}

/**
 * A token bucket (GCRA): it holds at most `capacity` tokens and gains one every `refillMs`, so a
 * client may spend `capacity` at once and then one per `refillMs`. Stored as the time at which the
 * bucket is full again (in `last_at`), never as a count that must be kept in step with a clock.
 */
export interface TokenBucket {
  capacity: number;
  refillMs: number;
}

export interface KeyFingerprintRepository {
  /**
   * Records `fingerprint` for `purpose` if the database has none yet, and returns the one recorded
   * (this one, or the one another process recorded first). Atomic across processes.
   */
  adopt(purpose: string, fingerprint: string, now?: number): Promise<string>;
  /** The fingerprint recorded for `purpose`, if any (a threshold server picks the nodes' group key by it). */
  recorded(purpose: string): Promise<string | undefined>;
}

/**
 * The credential tree's leaves (decision 088), in position order: what every process's credential
 * tree catches up from. Written only by a registration with a credential and by an erasure.
 */
export interface CredentialLeafRepository {
  /** Leaves ordered by position, from `fromPosition` on; '0' for an erased one. */
  leavesFrom(fromPosition: number, limit?: number): Promise<string[]>;
  /** The credential tree's erasure log after `seq`, in order: the positions to set to zero. */
  erasuresAfter(seq: number): Promise<Array<{ seq: number; position: number }>>;
  /** How many leaves the table holds and the last erasure's seq (0 for none), in one statement. */
  changeMarks(): Promise<{ leafCount: number; lastErasure: number }>;
  /**
   * The positions of the credential leaves of these identities (their `leaf_index`), ordered by
   * position: a GET /credential-members bucket is the identities of a /members bucket (decision 088).
   * An identity with no credential leaf has no row; an erased one's row is there, its leaf '0'.
   */
  positionsOf(leafIndexes: readonly number[]): Promise<Array<{ position: number; leafIndex: number }>>;
}

export interface Storage {
  readonly dialect: 'sqlite' | 'postgres';
  readonly identities: IdentityRepository;
  readonly roots: RootRepository;
  /** The credential tree's leaves and its own root history (decision 088). */
  readonly credentialLeaves: CredentialLeafRepository;
  readonly credentialRoots: RootRepository;
  readonly credentialCheckpoints: CheckpointRepository;
  readonly challenges: ChallengeRepository;
  readonly checkpoints: CheckpointRepository;
  readonly sessions: SessionRepository;
  readonly attempts: AttemptRepository;
  readonly keyFingerprints: KeyFingerprintRepository;
  /** Sign in with ZeroID (decision 023). */
  readonly oidc: OidcRepository;
  /** Noisy biometrics, experimental (decision 084). */
  readonly noisyLockers: NoisyLockerRepository;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

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
  issue(nonce: string, expiresAt: Date): Promise<void>;
  /** Single use, atomically: true for exactly one caller, and only before expiry. */
  consume(nonce: string, now?: Date): Promise<boolean>;
  /**
   * True when `nonce` was issued, is unused and unexpired: a read that consumes nothing, so work that
   * a dead challenge would waste (the erasure's Groth16 checks, decision 055) is refused before it
   * runs. Only `consume` decides; a usable challenge can still be lost to a concurrent consumer.
   */
  isUsable(nonce: string, now?: Date): Promise<boolean>;
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

export type SessionStatus = 'pending' | 'success' | 'failure' | 'expired';

export interface StoredSession {
  id: string;
  status: SessionStatus;
  expiresAt: Date;
  /** SHA-256 (hex) of the creating screen's secret; null for sessions created before it existed. */
  secretHash: string | null;
  /** For a sign-in on a phone (decision 029): the authorization request (interaction id) it finishes. */
  signIn?: string;
  /** For a sign-in on a phone that succeeded: the pseudonym (`sub`) the phone's proof gave. */
  subject?: string;
  /** A success whose code the screen's person typed (decision 035): only then is it the screen's. */
  confirmed?: true;
  /** A phone has opened the pending session's link (decision 047: in the row, seen by every process). */
  phoneOpened?: true;
}

/** What a screen following a session may have to hear about: a phone opened it, or it completed. */
export type SessionChange = Pick<StoredSession, 'confirmed' | 'phoneOpened'> & { status: 'pending' | 'success' | 'failure' };

export interface SessionRepository {
  /** A new pending session; `signIn` ties it to one authorization request for good (decision 029). */
  create(id: string, expiresAt: Date, secretHash: string, signIn?: string): Promise<void>;
  /** The session and its status; a pending session past its expiry reads as 'expired'. */
  find(id: string, now?: Date): Promise<StoredSession | undefined>;
  /**
   * Which of these sessions have completed or been opened by a phone, and how, in one read: the
   * process's session watcher asks this for every session it follows, and most are still pending and
   * unopened, so the answer is usually small.
   */
  findChanged(ids: readonly string[]): Promise<Map<string, SessionChange>>;
  /**
   * A phone opened the pending session's link: marked once, in the row, so the screen hears "phone
   * connected" from whichever process follows it. True for the first mark only.
   */
  markOpened(id: string, now?: Date): Promise<boolean>;
  /**
   * Completes a pending, unexpired session: true for exactly one caller. A phone's sign-in stores its
   * `subject` in the same UPDATE, so the winner's pseudonym is the one the sign-in finishes with.
   */
  complete(
    id: string,
    status: 'success' | 'failure',
    now?: Date,
    outcome?: { subject?: string | undefined; confirmationHash?: string | undefined },
  ): Promise<boolean>;
  /**
   * The screen's person typed a confirmation code (decisions 035 and 047): checked only while fewer
   * than `maxAttempts` codes have been checked, the session succeeded and has not expired more than
   * `confirmableUntil` ms ago; checking and counting are one UPDATE, so concurrent guesses get no more
   * than `maxAttempts` checks between them. The right code is accepted once; the last allowed wrong
   * one fails the session. `attemptsLeft` is what may still be typed (0 once refused unchecked). The
   * pseudonym of a sign-in's session is cleared by the confirmation (the caller read it before).
   */
  confirm(
    id: string,
    confirmationHash: string,
    rule: { maxAttempts: number; confirmableUntil: number },
    now?: Date,
  ): Promise<{ confirmed: boolean; attemptsLeft: number }>;
  /** Fails the sessions holding one of these pseudonyms and clears it (an erasure, decision 036). */
  forgetSubjects(subjects: readonly string[]): Promise<void>;
  /**
   * Clears the pseudonyms of sessions expired `subjectsAfterMs` ago or more, and deletes sessions that
   * expired over an hour ago: the number of rows cleared or deleted.
   */
  purgeExpired(now?: Date, options?: { subjectsAfterMs?: number }): Promise<number>;
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
 * The OpenID provider's state (Sign in with ZeroID, decision 023): oidc-provider's artifacts, the
 * registered clients and the signing keys, shared by every process. Times are epoch milliseconds.
 */
export interface OidcRepository {
  upsert(
    model: string,
    id: string,
    payload: string,
    expiresAt: number,
    index: { grantId?: string | undefined; uid?: string | undefined; accountId?: string | undefined; clientId?: string | undefined },
  ): Promise<void>;
  /** The artifact, unless it expired; `consumedAt` once it was consumed. */
  find(model: string, id: string, now?: number): Promise<{ payload: string; consumedAt: number | undefined } | undefined>;
  findIdByUid(model: string, uid: string, now?: number): Promise<string | undefined>;
  /** Marks the artifact consumed: true for exactly one caller, in any number of processes. */
  consume(model: string, id: string, now?: number): Promise<boolean>;
  destroy(model: string, id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
  purgeExpired(now?: number): Promise<number>;
  /** Deletes every record naming one of these pseudonyms (an erasure, decision 036); the number deleted. */
  forgetAccounts(accountIds: readonly string[]): Promise<number>;
  /** Deletes every record of one pseudonym at one client (a logout); the number deleted. */
  forgetAccountAtClient(accountId: string, clientId: string): Promise<number>;
  /**
   * Registers a client (its metadata as JSON); false when the id is taken, by a client or by a
   * removed one, unless `reuseRemoved` gives a removed id to this client on purpose.
   */
  addClient(clientId: string, metadata: string, now?: number, options?: { reuseRemoved?: boolean }): Promise<boolean>;
  /** The client's metadata, unless it was removed. */
  findClient(clientId: string): Promise<string | undefined>;
  /** When the client with this id was removed, if it was. */
  clientRemovedAt(clientId: string): Promise<number | undefined>;
  /** The clients that are not removed. */
  listClients(): Promise<string[]>;
  /**
   * Every client ever registered, oldest first, removed ones too (their metadata keeps only
   * `client_id`, `redirect_uris` and `sector_identifier_uri`): who holds a sector (decision 049).
   */
  everyClient(): Promise<Array<{ clientId: string; metadata: string; removedAt?: number }>>;
  /**
   * Removes a client, keeping its id (decision 038) and what decides its sector (decision 049), and
   * deletes every record of it; false if there is none.
   */
  removeClient(clientId: string, now?: number): Promise<boolean>;
  /**
   * The keys of one purpose ('signing' or 'cookie'), newest first; `retireAt` for a key being retired,
   * `compromised` for one stored before migration 021 (decision 055).
   */
  keys(purpose: string): Promise<Array<{ kid: string; secret: string; createdAt: number; retireAt?: number; compromised?: true }>>;
  /** Adds a key; a kid that exists already is left as it is (two processes creating the first key). */
  addKey(purpose: string, kid: string, secret: string, now?: number): Promise<void>;
  /**
   * Replaces a key's stored secret, if it is still `from` (sealing a key an earlier version kept in
   * clear), and dates its retirement: true for exactly one caller, in any number of processes.
   */
  replaceKeySecret(kid: string, from: string, to: string, retireAt?: number): Promise<boolean>;
  /**
   * Dates the retirement of a compromised key not yet being retired (decision 055): true for exactly
   * one caller, in any number of processes.
   */
  retireCompromisedKey(kid: string, retireAt: number): Promise<boolean>;
  /** Deletes the keys whose retirement is due (decision 049); the number deleted. */
  removeRetiredKeys(now: number): Promise<number>;
  removeKey(kid: string): Promise<void>;
  /** The database's clock (epoch ms): what key dates are compared with, whichever host asks (decision 049). */
  clock(): Promise<number>;
  /**
   * After sign-in records were purged or forgotten, or a key retired: makes the freed bytes unreadable
   * where the database can (decision 049, as `IdentityRepository.scrubErased`). SQLite: a truncating
   * WAL checkpoint, done when this resolves. PostgreSQL: a VACUUM of those tables, in the background.
   */
  scrubFreed(): Promise<void>;
}

export interface Storage {
  readonly dialect: 'sqlite' | 'postgres';
  readonly identities: IdentityRepository;
  readonly roots: RootRepository;
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

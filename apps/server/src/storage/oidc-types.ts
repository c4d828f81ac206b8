// The OpenID provider's records: what oidc-provider stores through the adapter, its clients and its keys.

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

/**
 * Storage: plain repository factories over one Kysely instance, so SQLite (a file in DATA_DIR, the
 * embedded default) and PostgreSQL (DATABASE_URL, for several server processes) share every query.
 *
 * - `identities.leaf_index` is the leaf's position in the Merkle tree, whose leaves must be exactly
 *   0..n-1. It is a plain INTEGER key, not a sequence or autoincrement: a PostgreSQL sequence hands
 *   out values outside the transaction, so a rolled-back or conflicting insert burns a number and
 *   leaves a gap that no process can fill. Registration instead inserts `MAX(leaf_index) + 1` in the
 *   same statement.
 * - That read-then-write is only gapless if registrations take turns. SQLite has a single writer
 *   per file, so they do. PostgreSQL at READ COMMITTED would let two transactions read the same MAX;
 *   a transaction-scoped advisory lock (`pg_advisory_xact_lock`) makes them queue, across every
 *   process on the database, and is released by COMMIT or ROLLBACK, even if the process dies.
 *   SERIALIZABLE would also be correct but turns every race into an abort-and-retry.
 * - Times are epoch milliseconds in BIGINT columns, the same in both dialects (pg returns BIGINT
 *   as a string; the repositories convert).
 * - Errors that are the database's fault (unreachable, disk full, read-only) propagate; the server
 *   answers them with 503. Only a duplicate commitment, ID tag or DID becomes `{inserted: false}`.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { attemptRepository } from './repositories/attempt-repository.ts';
import { challengeRepository } from './repositories/challenge-repository.ts';
import { checkpointRepository, CREDENTIAL_TREE_CHECKPOINTS } from './repositories/checkpoint-repository.ts';
import { identityRepository } from './repositories/identity-repository.ts';
import { keyFingerprintRepository } from './repositories/key-fingerprint-repository.ts';
import { noisyLockerRepository } from './repositories/noisy-locker-repository.ts';
import { migrateToLatest } from './migrate-to-latest.ts';
import { oidcRepository } from './repositories/oidc-repository.ts';
import { rootRepository } from './repositories/root-repository.ts';
import { credentialLeafRepository } from './repositories/credential-leaf-repository.ts';
import type { Database } from './schema.ts';
import { sessionRepository } from './repositories/session-repository.ts';
import { openSqliteThread } from './sqlite/sqlite-thread.ts';
import { sqliteThreadDialect } from './sqlite/sqlite-thread-dialect.ts';
import type { Storage } from './types.ts';

export interface StorageOptions {
  /** postgres://… or postgresql://… (checked by the config) for PostgreSQL; absent for SQLite in dataDir. */
  databaseUrl?: string | undefined;
  /** Where `zeroid.sqlite` lives (created if missing). Unused with PostgreSQL. */
  dataDir: string;
  /** PostgreSQL connections in this process's pool (default 10). */
  poolSize?: number;
  /** SQLite only: the most the database file may grow to; past it writes fail (503) like on a full disk. */
  sqliteMaxSizeBytes?: number | undefined;
}

/** Opens the database, runs the numbered migrations and returns the repositories. */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const { databaseUrl } = options;
  const dialect = databaseUrl ? 'postgres' : 'sqlite';
  const thread = databaseUrl ? undefined : await openSqliteThread(options.dataDir, { maxSizeBytes: options.sqliteMaxSizeBytes });
  const db = new Kysely<Database>({
    dialect: thread ? sqliteThreadDialect(thread) : new PostgresDialect({ pool: postgresPool(databaseUrl ?? '', options.poolSize ?? 10) }),
  });
  // Kysely destroys only a driver that ran a query, so the thread is closed here.
  const close = async () => {
    await db.destroy();
    await thread?.close();
  };

  try {
    await migrateToLatest(db, dialect);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    dialect,
    identities: identityRepository(db, dialect),
    roots: rootRepository(db),
    credentialLeaves: credentialLeafRepository(db),
    credentialRoots: rootRepository(db, 'credential_roots'),
    credentialCheckpoints: checkpointRepository(db, dialect, CREDENTIAL_TREE_CHECKPOINTS),
    challenges: challengeRepository(db),
    checkpoints: checkpointRepository(db, dialect),
    sessions: sessionRepository(db),
    attempts: attemptRepository(db),
    keyFingerprints: keyFingerprintRepository(db),
    oidc: oidcRepository(db, dialect),
    noisyLockers: noisyLockerRepository(db),
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    close,
  };
}

/**
 * A pg pool that survives the database going away: a connection that PostgreSQL terminates (a
 * restart, a failover, a network cut) emits 'error', which would crash the process if unheard. The
 * pool drops that connection; the next query opens a new one, or fails and becomes a 503.
 */
function postgresPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', () => undefined);
  // A client that is checked out (between the statements of a transaction, say) has no pool listener:
  // its connection dying would be an unhandled 'error' event, and would end the process. The
  // statement in flight still fails, and the pool discards the broken client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

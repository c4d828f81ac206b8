import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import * as initial from './migrations/001-initial.ts';
import * as treeCheckpoints from './migrations/002-tree-checkpoints.ts';
import * as verificationSessions from './migrations/003-verification-sessions.ts';
import { sessionRepository } from './session-repository.ts';
import { checkpointRepository } from './checkpoint-repository.ts';
import { challengeRepository } from './challenge-repository.ts';
import { identityRepository } from './identity-repository.ts';
import { rootRepository } from './root-repository.ts';
import type { Database } from './schema.ts';
import type { Storage } from './types.ts';
import { openSqliteFile } from './sqlite-file.ts';

const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '002-tree-checkpoints': treeCheckpoints,
  '003-verification-sessions': verificationSessions,
};

export interface StorageOptions {
  /** postgres://… for PostgreSQL; absent for SQLite in dataDir. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL connections in this process's pool. */
  poolSize?: number;
}

/**
 * Opens the database, runs the numbered migrations and returns the repositories. One code path
 * through Kysely serves both dialects: SQLite (a file, the embedded default) and PostgreSQL (for
 * several server processes on one database). Migrations take Kysely's migration lock, so processes
 * starting together do not race.
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const dialect = options.databaseUrl ? 'postgres' : 'sqlite';
  const db = new Kysely<Database>({
    dialect: options.databaseUrl
      ? new PostgresDialect({ pool: postgresPool(options.databaseUrl, options.poolSize ?? 10) })
      : new SqliteDialect({ database: openSqliteFile(options.dataDir) }),
  });

  try {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('Database migration failed', { cause: error });
  } catch (error) {
    await db.destroy();
    throw error;
  }

  return {
    dialect,
    identities: identityRepository(db, dialect),
    roots: rootRepository(db),
    challenges: challengeRepository(db),
    checkpoints: checkpointRepository(db),
    sessions: sessionRepository(db),
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * A pg pool that survives the database going away: an idle connection that PostgreSQL terminates
 * (a restart, a failover) emits 'error' on the pool, which would crash the process if unheard. The
 * pool drops that connection; the next query opens a new one, or fails and becomes a 503.
 */
function postgresPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', () => undefined);
  return pool;
}

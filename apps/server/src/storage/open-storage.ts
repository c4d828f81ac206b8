import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import * as initial from './migrations/001-initial.ts';
import { challengeRepository } from './challenge-repository.ts';
import { identityRepository } from './identity-repository.ts';
import { rootRepository } from './root-repository.ts';
import type { Database } from './schema.ts';
import type { Storage } from './types.ts';

const migrations: Record<string, Migration> = { '001-initial': initial };

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
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 }) })
      : new SqliteDialect({ database: openSqliteFile(options.dataDir) }),
  });

  try {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    if (error) throw error;
  } catch (error) {
    await db.destroy();
    throw error;
  }

  return {
    dialect,
    identities: identityRepository(db, dialect),
    roots: rootRepository(db),
    challenges: challengeRepository(db),
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * WAL with synchronous=FULL: a registration acknowledged to a client has reached the disk, and
 * survives `kill -9` or power loss. Both are read back, so a build that ignores them fails at start.
 */
function openSqliteFile(dataDir: string): SQLite.Database {
  mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  const journalMode = database.pragma('journal_mode', { simple: true });
  const synchronous = database.pragma('synchronous', { simple: true });
  if (journalMode !== 'wal' || synchronous !== 2) {
    database.close();
    throw new Error(`SQLite must run with journal_mode=wal and synchronous=FULL (got ${String(journalMode)}, ${String(synchronous)})`);
  }
  return database;
}

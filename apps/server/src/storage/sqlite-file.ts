import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * WAL with synchronous=FULL: a registration acknowledged to a client has reached the disk, and
 * survives `kill -9` or power loss. Both are read back, so a build that ignores them fails at start.
 */
export function openSqliteFile(dataDir: string): SQLite.Database {
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

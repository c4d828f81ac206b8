import path from 'node:path';
import { SQLite } from '../sqlite/sqlite-driver.ts';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrations } from '../migrate-to-latest.ts';
import { openStorage } from '../open-storage.ts';
import { removeTempDirs, tempDir } from '../../../test/support/temp-dir.ts';

const dataDir = tempDir('zeroid-migration-006-');
afterAll(removeTempDirs);

it('deletes the counters keyed by SHA-256 of an address, and keeps the others', async () => {
  // A database as a release before 006 left it: migrated up to 004, with counters of both kinds.
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'zeroid.sqlite')) }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo('004-attempt-counters');
  expect(error).toBeUndefined();
  const file = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
  const insert = file.prepare('INSERT INTO attempt_counters (key, count, started_at, last_at) VALUES (?, 1, 0, 1)');
  insert.run('failed-verification:sha256-of-an-address');
  insert.run('failures:an-hmac');
  file.close();
  await db.destroy();

  const storage = await openStorage({ dataDir });
  expect(await storage.attempts.attempts('failed-verification:sha256-of-an-address', 1, 1_000)).toBeUndefined();
  expect(await storage.attempts.attempts('failures:an-hmac', 1, 1_000)).toEqual({ count: 1, lastAt: 1 });
  await storage.close();
});

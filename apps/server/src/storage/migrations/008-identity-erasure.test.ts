import path from 'node:path';
import { SQLite } from '../sqlite/sqlite-driver.ts';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrations } from '../migrate-to-latest.ts';
import { openStorage } from '../open-storage.ts';
import { removeTempDirs, tempDir } from '../../../test/support/temp-dir.ts';

const dataDir = tempDir('zeroid-migration-008-');
afterAll(removeTempDirs);

it('rebuilds identities and roots on SQLite keeping every row, UNIQUE values and the root index, then erases', async () => {
  // A database as a release before 008 left it: migrated up to 007, with identities and roots.
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'zeroid.sqlite')) }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo('007-key-fingerprints');
  expect(error).toBeUndefined();
  const file = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
  const insert = file.prepare('INSERT INTO identities (leaf_index, commitment, id_tag, did, created_at) VALUES (?, ?, ?, ?, ?)');
  for (let n = 0; n < 3; n++) insert.run(n, String(1000 + n), `tag-${n}`, `did:key:z6Mk${n}`, 5_000 + n);
  file.prepare('INSERT INTO roots (size, root, created_at) VALUES (?, ?, ?)').run(3, 'r3', 7_000);
  file.close();
  await db.destroy();

  const storage = await openStorage({ dataDir });
  expect(await storage.identities.commitmentsFrom(0)).toEqual(['1000', '1001', '1002']);
  expect(await storage.identities.findByDid('did:key:z6Mk2')).toMatchObject({ leafIndex: 2, idTag: 'tag-2', createdAt: new Date(5_002) });
  expect(await storage.identities.register({ commitment: '1001', idTag: 'new', did: 'did:key:z6Mknew' })).toEqual({ inserted: false });
  expect(await storage.roots.standing('r3', 60_000, new Date(8_000))).toEqual({ size: 3, accepted: true });
  expect(await storage.identities.erase([{ commitment: '1001', idTag: 'tag-1' }])).toBe(true);
  expect(await storage.identities.register({ commitment: '1001', idTag: 'tag-1', did: 'did:key:z6Mk1' })).toEqual({
    inserted: true,
    leafIndex: 3,
  });
  await storage.close();

  const after = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
  const indexes = after.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('identities', 'roots')").all();
  after.close();
  expect(indexes.map((i) => (i as { name: string }).name)).toContain('roots_root');
  // leaf_index is the rowid; commitment, id_tag and did each keep a UNIQUE index, and roots its (size, root) key.
  expect(indexes).toHaveLength(5);
});

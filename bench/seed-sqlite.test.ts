import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStorage, SQLite } from './server.ts';
import { seedRows } from './seed-rows.ts';
import { seedSqlite, STAGING_TABLE } from './seed-sqlite.ts';
import { removeTempDirs, tempDir } from '../apps/server/test/support/temp-dir.ts';

const root = tempDir('zeroid-seed-sqlite-');
afterAll(removeTempDirs);

const schemaOf = (file: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    return {
      schema: db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid').all(),
      migrations: db.prepare('SELECT name FROM kysely_migration ORDER BY name').all(),
      integrity: db.pragma('integrity_check', { simple: true }),
    };
  } finally {
    db.close();
  }
};

it("seeds rows with the server's exact schema, UNIQUE indexes that hold, and a staging step that resumes", async () => {
  const key = randomBytes(32);
  const dataDir = path.join(root, 'seeded');
  const fresh = path.join(root, 'fresh');
  await (await openStorage({ dataDir: fresh })).close();

  // A first run killed in step 1 left 700 rows in the staging file; the next one goes on from there.
  await (await openStorage({ dataDir })).close();
  const staging = new SQLite(':memory:');
  staging.exec(`ATTACH DATABASE '${path.join(dataDir, 'seed-staging.sqlite')}' AS staging`);
  staging.exec(STAGING_TABLE);
  const insert = staging.prepare('INSERT INTO staging.identities VALUES (?, ?, ?, ?, ?)');
  for (const row of seedRows(key, 0, 700)) insert.run(row.leafIndex, row.commitment.toString(), row.idTag, row.did, 1_000);
  staging.close();
  await seedSqlite(dataDir, key, 1_500, 1_000);
  expect(existsSync(path.join(dataDir, 'seed-staging.sqlite'))).toBe(false);
  const seeded = schemaOf(path.join(dataDir, 'zeroid.sqlite'));
  expect(seeded).toEqual({ ...schemaOf(path.join(fresh, 'zeroid.sqlite')), integrity: 'ok' });

  // Run again, it changes nothing; the server opens it without a migration and its UNIQUE rules hold.
  await seedSqlite(dataDir, key, 1_500, 1_000);
  const storage = await openStorage({ dataDir });
  try {
    expect(await storage.identities.leafCount()).toBe(1_500);
    const [row] = seedRows(key, 1_234, 1);
    expect(await storage.identities.findByDid(row!.did)).toMatchObject({ leafIndex: 1_234, idTag: row!.idTag, createdAt: new Date(1_000) });
    for (const duplicate of [
      { commitment: row!.commitment.toString(), idTag: 'new-tag', did: 'did:key:z6Mknew' },
      { commitment: '42', idTag: row!.idTag, did: 'did:key:z6Mknew' },
      { commitment: '42', idTag: 'new-tag', did: row!.did },
    ]) {
      expect(await storage.identities.register(duplicate)).toEqual({ inserted: false });
    }
    expect(await storage.identities.register({ commitment: '42', idTag: 'new-tag', did: 'did:key:z6Mknew' })).toEqual({
      inserted: true,
      leafIndex: 1_500,
    });
  } finally {
    await storage.close();
  }
});

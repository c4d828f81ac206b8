import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openStorage } from '../open-storage.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-migration-006-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('deletes the counters keyed by SHA-256 of an address, and keeps the others', async () => {
  let storage = await openStorage({ dataDir });
  await storage.attempts.countInWindow('failed-verification:sha256-of-an-address', 0, 1);
  await storage.attempts.countInWindow('failures:an-hmac', 0, 1);
  await storage.close();
  // As a database last migrated before 006 would be.
  const file = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
  file.prepare('DELETE FROM kysely_migration WHERE name = ?').run('006-forget-address-hashes');
  file.close();

  storage = await openStorage({ dataDir });
  expect(await storage.attempts.attempts('failed-verification:sha256-of-an-address', 1, 1_000)).toBeUndefined();
  expect(await storage.attempts.attempts('failures:an-hmac', 1, 1_000)).toEqual({ count: 1, lastAt: 1 });
  await storage.close();
});

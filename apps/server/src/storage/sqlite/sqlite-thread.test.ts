import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isStorageFailure } from '../storage-failure.ts';
import { openSqliteThread, type SqliteThread } from './sqlite-thread.ts';
import { removeTempDirs, tempDir } from '../../../test/support/temp-dir.ts';

let dataDir: string;
let thread: SqliteThread | undefined;
afterEach(async () => {
  await thread?.close();
  thread = undefined;
  removeTempDirs();
});
const open = async () => {
  dataDir = tempDir('zeroid-sqlite-thread-');
  return (thread = await openSqliteThread(dataDir));
};

describe('the SQLite thread', () => {
  it('runs statements in the order they were sent, and answers rows and changes', async () => {
    const sqlite = await open();
    await sqlite.query('CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT UNIQUE)', []);
    const inserts = await Promise.all(
      Array.from({ length: 20 }, (_, n) => sqlite.query('INSERT INTO t (n, v) VALUES (?, ?)', [n, `v${n}`])),
    );
    expect(inserts.map((r) => r.changes)).toEqual(Array.from({ length: 20 }, () => 1));
    expect(inserts.map((r) => Number(r.lastInsertRowid))).toEqual(Array.from({ length: 20 }, (_, n) => n));
    const { rows } = await sqlite.query('SELECT COUNT(*) AS c, MAX(v) AS top FROM t WHERE n >= ?', [10]);
    expect(rows).toEqual([{ c: 10, top: 'v19' }]);
  });

  it('keeps the SQLite error code across the thread, and stays usable after an error', async () => {
    const sqlite = await open();
    await sqlite.query('CREATE TABLE t (v TEXT UNIQUE)', []);
    await sqlite.query('INSERT INTO t (v) VALUES (?)', ['once']);
    await expect(sqlite.query('INSERT INTO t (v) VALUES (?)', ['once'])).rejects.toMatchObject({
      name: 'SqliteError',
      code: 'SQLITE_CONSTRAINT_UNIQUE',
    });
    await expect(sqlite.query('SELEC nonsense', [])).rejects.toMatchObject({ code: 'SQLITE_ERROR' });
    expect((await sqlite.query('SELECT COUNT(*) AS c FROM t', [])).rows).toEqual([{ c: 1 }]);
  });

  it('answers a storage failure (503), not a hang, once the thread is gone', async () => {
    const sqlite = await open();
    await sqlite.close();
    const error = await sqlite.query('SELECT 1', []).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SqliteThreadGoneError', code: 'ZEROID_STORAGE_UNAVAILABLE' });
    expect(isStorageFailure(error)).toBe(true);
  });

  it('fails to open with the reason, when the data directory cannot be made', async () => {
    dataDir = tempDir('zeroid-sqlite-thread-');
    const notADirectory = path.join(dataDir, 'file');
    writeFileSync(notADirectory, 'x');
    await expect(openSqliteThread(notADirectory)).rejects.toMatchObject({ code: 'EEXIST' });
  });
});

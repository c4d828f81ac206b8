import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLite } from './sqlite-driver.ts';
import { openSqliteFile } from './sqlite-file.ts';
import { removeTempDirs, tempDir } from '../../../test/support/temp-dir.ts';

afterAll(removeTempDirs);

describe('the SQLite file', () => {
  it('zeroes what it deletes (secure_delete), and rewrites once a database whose earlier erasures left bytes in free pages', () => {
    // A database as an earlier version left it: erasures made without secure_delete.
    const dataDir = tempDir('zeroid-sqlite-file-');
    const file = path.join(dataDir, 'zeroid.sqlite');
    const old = new SQLite(file);
    old.pragma('secure_delete = OFF');
    old.exec('CREATE TABLE leaf_erasures (seq INTEGER PRIMARY KEY, leaf_index INTEGER); INSERT INTO leaf_erasures VALUES (1, 0)');
    old.exec('CREATE TABLE identities (did TEXT)');
    old.prepare('INSERT INTO identities VALUES (?)').run('did:key:z6MkErasedBeforeSecureDelete');
    old.exec('DELETE FROM identities');
    old.close();
    expect(readFileSync(file).includes('z6MkErasedBeforeSecureDelete')).toBe(true);

    const reopened = openSqliteFile(dataDir);
    expect(reopened.pragma('secure_delete', { simple: true })).toBe(1);
    expect(reopened.pragma('user_version', { simple: true })).toBe(1);
    reopened.prepare('INSERT INTO identities VALUES (?)').run('did:key:z6MkErasedWithSecureDelete');
    reopened.exec('DELETE FROM identities');
    reopened.pragma('wal_checkpoint(TRUNCATE)');
    reopened.close();
    const bytes = readFileSync(file);
    expect(bytes.includes('z6MkErasedBeforeSecureDelete')).toBe(false);
    expect(bytes.includes('z6MkErasedWithSecureDelete')).toBe(false);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The folders this test file made (each file runs in its own module scope). */
const made: string[] = [];

/** A new empty folder under the system's temporary directory, deleted by `removeTempDirs`. */
export function tempDir(prefix = 'zeroid-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Deletes every folder `tempDir` made in this file (call it in `afterAll`, after the servers using them stopped). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A new empty folder under the system's temporary directory, the root of one spec file's own server
 * and node data directories. Remove it with `removeTempRoot` in the file's `afterAll`, once the
 * processes writing in it have stopped.
 */
export function tempRoot(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Deletes a folder `tempRoot` made, with everything in it. */
export function removeTempRoot(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

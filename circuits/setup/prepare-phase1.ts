import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileDigest } from './file-digest.ts';
import { powersOfTau, type Logger } from './snarkjs-setup.ts';

/**
 * Phase 1 as phase 2 needs it, with its Lagrange bases. A public ceremony's final file carries them
 * (`alreadyPrepared`, or its own hash pinned); a local one is prepared by snarkjs, which is
 * deterministic, so the result is cached in `cacheDir` and pinned by its SHA-256.
 * - With `pinned`, a cached file is used only if its hash is the pinned one; otherwise it is computed
 *   again, and the result must have the pinned hash.
 * - Without (starting phase 2), nothing cached is trusted: it is computed.
 * Computed into a temporary file and renamed into place: a cache is never half a file.
 * With `privateDir`, a cache hit is first copied there and the copy is hashed and returned, so the file
 * read later is the very one whose hash was checked (nothing can be swapped in between).
 */
export async function preparePhase1(
  phase1: string,
  cacheDir: string,
  {
    pinned,
    alreadyPrepared = false,
    log,
    privateDir,
  }: { pinned?: string | undefined; alreadyPrepared?: boolean; log?: Logger; privateDir?: string } = {},
): Promise<{ file: string; sha256: string }> {
  const own = await fileDigest(phase1);
  if (alreadyPrepared || pinned === own) {
    if (pinned !== undefined && pinned !== own)
      throw new Error(`phase1.ptau has SHA-256 ${own}, but the prepared phase 1 pinned is ${pinned}`);
    return { file: phase1, sha256: own };
  }
  mkdirSync(cacheDir, { recursive: true });
  const cached = path.join(cacheDir, `phase1-${own.slice(0, 16)}.prepared.ptau`);
  if (pinned !== undefined && existsSync(cached)) {
    const candidate = privateDir ? path.join(privateDir, path.basename(cached)) : cached;
    if (privateDir) copyFileSync(cached, candidate);
    if ((await fileDigest(candidate)) === pinned) return { file: candidate, sha256: pinned };
  }
  const temporary = privateDir ? path.join(privateDir, 'prepared.ptau.tmp') : `${cached}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  await powersOfTau.preparePhase2(phase1, temporary, log);
  const sha256 = await fileDigest(temporary);
  if (pinned !== undefined && sha256 !== pinned) {
    rmSync(temporary, { force: true });
    throw new Error(`phase1.ptau prepares to SHA-256 ${sha256}, not the pinned ${pinned}: phase 2 was not made from this phase 1`);
  }
  if (!privateDir) {
    renameSync(temporary, cached);
    return { file: cached, sha256 };
  }
  // The private file is what is read; the cache gets a copy of it for next time, written whole.
  const kept = path.join(privateDir, path.basename(cached));
  renameSync(temporary, kept);
  const cacheTemporary = `${cached}.${process.pid}.tmp`;
  copyFileSync(kept, cacheTemporary);
  renameSync(cacheTemporary, cached);
  return { file: kept, sha256 };
}

import type { Storage } from '../storage/types.ts';
import type { JobLog } from './job-log.ts';
import { purgeExpired } from './purge-expired.ts';

/**
 * Expired challenges, sessions and sign-in records and idle counters are useless; purge them every
 * `intervalMs` (PURGE_INTERVAL_SECONDS), once the database is attached, so no table grows without
 * bound and a full database frees itself (decision 037). Returns the function that stops it.
 */
export function schedulePurge(
  storage: Storage,
  { intervalMs, guessForgetMs, attached, log }: { intervalMs: number; guessForgetMs: number; attached: () => boolean; log: JobLog },
): () => void {
  const purge = setInterval(() => {
    if (!attached()) return;
    purgeExpired(storage, { guessForgetMs }).catch((error: unknown) =>
      log.warn({ err: { name: (error as Error).name, code: (error as { code?: unknown }).code } }, 'purge failed'),
    );
  }, intervalMs);
  purge.unref();
  return () => clearInterval(purge);
}

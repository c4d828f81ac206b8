import type { Storage } from './storage/types.ts';
import { CONFIRMATION_GRACE_MS } from './sessions/session-confirmation.ts';

/**
 * Deletes what has outlived its use, so that no table grows without bound and no sign-in history
 * outlives its lifetimes (decisions 023, 036 and 037): expired challenges; the pseudonym of a
 * sign-in's session once it can no longer be confirmed, and the session an hour after its expiry;
 * idle attempt counters; and every expired record of the OpenID provider (interactions, codes,
 * sessions, grants, tokens), their freed bytes scrubbed. Run on schedule by the server (PURGE_INTERVAL_SECONDS).
 */
export async function purgeExpired(storage: Storage, options: { failedVerificationForgetMs: number }, now = Date.now()): Promise<void> {
  const [, sessions, , records] = await Promise.all([
    storage.challenges.purgeExpired(new Date(now)),
    storage.sessions.purgeExpired(new Date(now), { subjectsAfterMs: CONFIRMATION_GRACE_MS }),
    storage.attempts.purgeIdle(now - options.failedVerificationForgetMs),
    storage.oidc.purgeExpired(now),
  ]);
  // The pseudonyms just purged leave the files too, as an erasure's do (decision 049): on SQLite a
  // truncating checkpoint (secure_delete zeroed them in the pages), on PostgreSQL a VACUUM.
  if (sessions + records > 0) await storage.oidc.scrubFreed();
}

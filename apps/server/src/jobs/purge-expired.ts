import type { Storage } from '../storage/types.ts';
import { CONFIRMATION_GRACE_MS } from '../sessions/session-confirmation.ts';

/**
 * Deletes what has outlived its use, so that no table grows without bound and no sign-in history
 * outlives its lifetimes (decisions 023, 036 and 037): expired challenges; the pseudonym of a
 * sign-in's session once it can no longer be confirmed, and the session an hour after its expiry;
 * idle attempt counters; and every expired record of the OpenID provider (interactions, codes,
 * sessions, grants, tokens). Run on schedule by the server (PURGE_INTERVAL_SECONDS).
 */
export async function purgeExpired(storage: Storage, options: { guessForgetMs: number }, now = Date.now()): Promise<void> {
  await Promise.all([
    storage.challenges.purgeExpired(new Date(now)),
    storage.sessions.purgeExpired(new Date(now), { subjectsAfterMs: CONFIRMATION_GRACE_MS }),
    storage.attempts.purgeIdle(now - options.guessForgetMs),
    storage.oidc.purgeExpired(now),
  ]);
}

import { randomBytes } from 'node:crypto';
import type { Storage } from '../storage/types.ts';
import { newSessionSecret } from './session-secret.ts';

/**
 * A new cross-device session (decisions 007 and 012): 16 random bytes, hex, pending until
 * `now + config.sessionTtlMs`, with its secret returned once (only its hash is stored). A sign-in screen passes
 * its interaction id, which ties the session to that authorization request for good (decision 029).
 */
export async function createSession({ storage, config }: { storage: Storage; config: { sessionTtlMs: number } }, signIn?: string) {
  const id = randomBytes(16).toString('hex');
  const { secret, secretHash } = newSessionSecret();
  const expiresAt = new Date(Date.now() + config.sessionTtlMs);
  await storage.sessions.create(id, expiresAt, secretHash, signIn);
  return { session: id, status: 'pending' as const, expiresAt: expiresAt.toISOString(), secret };
}

import type { Storage } from '../storage/types.ts';
import { reportSessionFailure } from './settle-session.ts';

/**
 * The phone's cancel, or a biometric it found not registered: the session fails now, so the screen
 * stops waiting (`reportSessionFailure`). Undefined when there is no such session.
 */
export async function failOnPhone({ storage }: { storage: Storage }, id: string) {
  const session = await storage.sessions.find(id);
  if (!session) return undefined;
  await reportSessionFailure(storage, session.id);
  return { session: session.id, open: false, expiresAt: session.expiresAt.toISOString() };
}

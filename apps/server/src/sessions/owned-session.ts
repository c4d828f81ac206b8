import { sessionSecretRequired } from '../problem.ts';
import type { Storage } from '../storage/types.ts';
import { sessionSecretMatches } from './session-secret.ts';

/**
 * The session, for the screen that created it: undefined when there is no such session, a 403 when
 * `secret` is not its secret. Only the holder of the secret reads a session's outcome (decision 012);
 * the phone, which holds only the link, never does.
 */
export async function ownedSession({ storage }: { storage: Storage }, id: string, secret: string | undefined) {
  const session = await storage.sessions.find(id);
  if (!session) return undefined;
  if (!sessionSecretMatches(session.secretHash, secret)) throw sessionSecretRequired();
  return session;
}

import { Problem } from '../problem.ts';
import type { Storage } from '../storage/types.ts';
import { ownedSession } from './owned-session.ts';
import { confirmSession, wrongCode } from './session-confirmation.ts';

/**
 * The phone showed a code when it completed the session; the person at the screen that holds the
 * session's secret types it here, and only then does the screen move on (decision 035). A phone the
 * person does not hold completes nothing they see. Undefined when there is no such session; a wrong
 * code with tries left is a 400, the last wrong one fails the session.
 */
export async function confirmOnScreen({ storage }: { storage: Storage }, id: string, secret: string | undefined, code: string) {
  const session = await ownedSession({ storage }, id, secret);
  if (!session) return undefined;
  if (session.signIn !== undefined || session.status !== 'success') {
    throw new Problem(409, 'SESSION_NOT_CONFIRMABLE', 'This session has no phone verification waiting to be confirmed.');
  }
  const { confirmed, attemptsLeft } = await confirmSession(storage, session.id, code);
  if (!confirmed && attemptsLeft > 0) throw wrongCode(attemptsLeft);
  return { session: session.id, confirmed, attemptsLeft };
}

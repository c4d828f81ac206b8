import type Provider from 'oidc-provider';
import { currentProvider } from '../openid/current-provider.ts';
import { findSignInRequest } from '../openid/sign-in-request.ts';
import type { Storage } from '../storage/types.ts';

/** What opening a session on a phone needs: the sessions, and the OpenID provider a sign-in waits at. */
export interface OpenOnPhoneServices {
  storage: Storage;
  openidProvider: () => Promise<Provider>;
}

/**
 * The phone's view of a session: whether it still waits, never its outcome; for a sign-in (decision
 * 029), the site that asks, which the phone names before the person proves anything. A sign-in whose
 * request has expired or was answered on the screen is no longer open either. An open session is
 * marked opened, so the screen says "phone connected" before the verdict (decision 043), from
 * whichever process follows it. Undefined when there is no such session.
 */
export async function openOnPhone(
  { storage, openidProvider }: OpenOnPhoneServices,
  id: string,
  log: { error(details: object, message: string): void },
) {
  const session = await storage.sessions.find(id);
  if (!session) return undefined;
  const signIn =
    session.signIn === undefined ? undefined : await findSignInRequest(await currentProvider(openidProvider, log), session.signIn);
  const open = session.status === 'pending' && (session.signIn === undefined || signIn !== undefined);
  if (open && !session.phoneOpened) await storage.sessions.markOpened(session.id);
  return {
    session: session.id,
    open,
    expiresAt: session.expiresAt.toISOString(),
    ...(signIn ? { signIn: { site: signIn.site } } : {}),
  };
}

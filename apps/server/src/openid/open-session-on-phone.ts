import type Provider from 'oidc-provider';
import { currentProvider } from './current-provider.ts';
import { findSignInRequest } from './sign-in-request.ts';
import type { Storage } from '../storage/types.ts';

/** What opening a session on a phone needs: the sessions, and the OpenID provider a sign-in waits at. */
export interface OpenSessionOnPhoneServices {
  storage: Storage;
  openidProvider: () => Promise<Provider>;
}

/**
 * The phone's view of a session: whether it still waits, never its outcome; for a sign-in (decision
 * 029), the site that asks (here, beside the sign-in requests, so that openid/ uses sessions/ and never
 * the other way round), which the phone names before the person proves anything, and whether it asks
 * which organisation vouches for the person's ID (decision 089). A sign-in whose
 * request has expired or was answered on the screen is no longer open either. An open session is
 * marked opened, so the screen says "phone connected" before the verdict (decision 043), from
 * whichever process follows it. Undefined when there is no such session.
 */
export async function openSessionOnPhone(
  { storage, openidProvider }: OpenSessionOnPhoneServices,
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
    ...(signIn ? { signIn: { site: signIn.site, asksCredential: signIn.asksCredential } } : {}),
  };
}

import type Provider from 'oidc-provider';
import { sessionNotFound } from '../problem.ts';
import type { Storage } from '../storage/types.ts';
import { currentProvider } from './current-provider.ts';
import { findSignInRequest, type SignInRequest } from './sign-in-request.ts';

/** What the phone's side of a sign-in needs: the sessions, and the OpenID provider the request waits at. */
export interface PhoneSignInServices {
  storage: Storage;
  openidProvider: () => Promise<Provider>;
}

const notOpen = () => sessionNotFound('signIn');

/** The authorization request a pending session waits to complete (decision 029); a 404 when it no longer waits. */
export async function openPhoneSignIn(
  { storage, openidProvider }: PhoneSignInServices,
  id: string,
  log: { error(details: object, message: string): void },
): Promise<SignInRequest> {
  const session = await storage.sessions.find(id);
  if (session?.status !== 'pending' || session.signIn === undefined) throw notOpen();
  const signIn = await findSignInRequest(await currentProvider(openidProvider, log), session.signIn);
  if (!signIn) throw notOpen();
  return signIn;
}

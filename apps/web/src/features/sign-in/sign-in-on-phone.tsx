import { useCallback } from 'react';
import type { SignInReply } from '@zeroid/protocol';
import { createSignInSession, finishSignInSession } from '../../shared/api-client.ts';
import { SessionQrCode } from '../qr/session-qr-code.tsx';

/**
 * Sign in with ZeroID on a phone (decision 029): the sign-in screen shows a QR code for a
 * cross-device session tied to its authorization request. The phone names the site and proves for
 * its sector; when the session completes, this screen (which holds the request's cookie and the
 * session's secret) finishes the login and goes back to the site, with a code or access_denied.
 */
export function SignInOnPhone({
  uid,
  onLeave,
  onError,
}: {
  uid: string;
  onLeave: (reply: SignInReply) => void;
  onError: (message: string) => void;
}) {
  const create = useCallback(() => createSignInSession(uid), [uid]);
  const onSettled = useCallback(
    (session: string, secret: string) => {
      finishSignInSession(uid, session, secret).then(onLeave, (failure: Error) => onError(failure.message));
    },
    [uid, onLeave, onError],
  );
  return (
    <div className="sign-in-on-phone" data-testid="sign-in-on-phone">
      <SessionQrCode create={create} onSettled={onSettled} />
    </div>
  );
}

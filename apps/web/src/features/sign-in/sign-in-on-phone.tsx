import { useCallback } from 'react';
import type { SignInReply } from '@zeroid/protocol';
import { createSignInSession, finishSignInSession } from '../../shared/api-client.ts';
import { SessionQrCode, type FinishSession } from '../../shared/session-qr/session-qr-code.tsx';

/**
 * Sign in with ZeroID on a phone (decision 029): the sign-in screen shows a QR code for a
 * cross-device session tied to its authorization request. The phone names the site and proves for
 * its sector, then shows a code; once the person has typed it here (decision 035), this screen
 * (which holds the request's cookie and the session's secret) finishes the login and goes back to
 * the site, with a code or access_denied.
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
  const finish = useCallback<FinishSession>(
    async (session, secret, code) => {
      const reply = await finishSignInSession(uid, session, secret, code).catch((failure: Error) => {
        // A wrong code is for the code's form to show; anything else ends this attempt.
        if (code === undefined) onError(failure.message);
        throw failure;
      });
      onLeave(reply);
    },
    [uid, onLeave, onError],
  );
  return (
    <div className="sign-in-on-phone" data-testid="sign-in-on-phone">
      <SessionQrCode create={create} finish={finish} scrollIntoView />
    </div>
  );
}

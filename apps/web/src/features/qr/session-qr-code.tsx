import { useCallback, useEffect, useState } from 'react';
import type { CreatedSessionReply, SessionReply } from '@zeroid/protocol';
import { sessionCode } from '@zeroid/protocol/session-code';
import { createSession, fetchQrCode, watchSession } from '../../shared/api-client.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { routes } from '../../shared/paths.ts';
import { useSafeNavigate } from '../../shared/use-safe-navigate.ts';

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/**
 * A one-time verification session as a QR code (fetched from the server as binary, shown as a data
 * URL), with a countdown and the short code the phone shows too. When a phone completes it, this
 * screen moves on by itself. The session's secret stays in this effect's memory: it is what lets
 * this screen, and no other, read the outcome. The sign-in screen (decision 029) passes its own
 * way to create the session and to finish once it has completed.
 */
export function SessionQrCode({
  create = createSession,
  onSettled,
}: {
  create?: () => Promise<CreatedSessionReply>;
  onSettled?: (session: string, secret: string) => void;
} = {}) {
  const navigate = useSafeNavigate();
  const [session, setSession] = useState<SessionReply>();
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<string>();
  const [now, setNow] = useState(() => Date.now());
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    let stopWatching: (() => void) | undefined;
    setSrc(undefined);
    setError(undefined);
    create()
      .then(async (created) => {
        const image = await fetchQrCode(created.session);
        if (!live) return;
        setSession({ session: created.session, status: created.status, expiresAt: created.expiresAt });
        setSrc(image);
        stopWatching = watchSession(created.session, created.secret, (update) => {
          setSession(update);
          if (onSettled && (update.status === 'success' || update.status === 'failure')) {
            stopWatching?.();
            onSettled(created.session, created.secret);
            return;
          }
          if (update.status === 'success') navigate(routes.authorised, { state: { verified: true } });
          if (update.status === 'failure') navigate(routes.invalidDid);
        });
      })
      .catch((failure: unknown) => live && setError(failure instanceof Error ? failure.message : 'Could not create a QR code.'));
    return () => {
      live = false;
      stopWatching?.();
    };
  }, [attempt, navigate, create, onSettled]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const renew = useCallback(() => setAttempt((n) => n + 1), []);
  const remaining = session ? Date.parse(session.expiresAt) - now : 0;
  const expired = session !== undefined && (session.status === 'expired' || remaining <= 0);

  return (
    <>
      <p>Scan this code with your phone to verify there. This screen continues by itself.</p>
      {session?.phoneConnected && !expired ? (
        <p className="connected" role="status">
          <span className="spinner" aria-hidden="true" />
          Phone connected, waiting for it to verify…
        </p>
      ) : null}
      {src && !expired ? <img className="qr" src={src} width={320} height={320} alt="QR code for the verification link" /> : null}
      {session && !expired ? (
        <p className="session-code">
          Code: <strong>{sessionCode(session.session)}</strong>. Your phone shows the same code: check that they match.
        </p>
      ) : null}
      {session && !expired ? (
        <p className="countdown" role="timer" aria-live="off">
          Expires in {clock(remaining)}
        </p>
      ) : null}
      {expired ? (
        <div className="notice" role="status">
          <p>This QR code has expired.</p>
          <button type="button" className="primary" onClick={renew}>
            New code
          </button>
        </div>
      ) : null}
      {!src && !error && !expired ? (
        <p className="progress" role="status">
          <span className="spinner" aria-hidden="true" />
          Loading the QR code…
        </p>
      ) : null}
      <ErrorAlert message={error} />
    </>
  );
}

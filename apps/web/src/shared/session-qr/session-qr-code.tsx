import { useCallback, useEffect, useRef, useState } from 'react';
import type { CreatedSessionReply, SessionReply } from '@zeroid/protocol';
import { confirmSession, createSession, fetchQrCode, watchSession } from '../api-client.ts';
import { ErrorAlert } from '../error-alert.tsx';
import { routes } from '../paths.ts';
import { useSafeNavigate } from '../use-safe-navigate.ts';
import { ConfirmationCodeForm } from './confirmation-code-form.tsx';
import { PhoneLink } from './phone-link.tsx';

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** What a screen does once its session is settled: `code` is what its person typed, undefined when the phone failed. */
export type FinishSession = (session: string, secret: string, code: string | undefined) => Promise<void>;

/**
 * A one-time verification session as a QR code (fetched from the server as binary, shown as a data
 * URL), with a countdown. When a phone fails it, this screen moves on by itself; when a phone
 * succeeds, the phone shows a code that the person here must type before this screen moves on
 * (decision 035). The session's secret stays in this effect's memory: it is what lets this screen,
 * and no other, read the outcome. The sign-in screen (decision 029) passes its own way to create the
 * session and to finish it.
 */
export function SessionQrCode({
  create = createSession,
  finish,
  scrollIntoView = false,
}: {
  create?: () => Promise<CreatedSessionReply>;
  finish?: FinishSession;
  /** Scroll the code into view once it shows: it is what the person came for, below the screen's own form. */
  scrollIntoView?: boolean;
} = {}) {
  const navigate = useSafeNavigate();
  const [session, setSession] = useState<SessionReply>();
  const [link, setLink] = useState<string>();
  const [proved, setProved] = useState<{ session: string; secret: string }>();
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<string>();
  const [now, setNow] = useState(() => Date.now());
  const [attempt, setAttempt] = useState(0);

  // A plain verification: on to the outcome page, once the code matched.
  const finishHere = useCallback<FinishSession>(
    async (id, secret, code) => {
      if (code === undefined) return navigate(routes.invalidDid);
      if ((await confirmSession(id, secret, code)).confirmed) navigate(routes.authorised, { state: { verified: true } });
      else navigate(routes.invalidDid);
    },
    [navigate],
  );
  const settle = useRef(finish ?? finishHere);
  settle.current = finish ?? finishHere;

  useEffect(() => {
    let live = true;
    let stopWatching: (() => void) | undefined;
    setSrc(undefined);
    setLink(undefined);
    setError(undefined);
    setProved(undefined);
    create()
      .then(async (created) => {
        const image = await fetchQrCode(created.session);
        if (!live) return;
        setSession({ session: created.session, status: created.status, expiresAt: created.expiresAt });
        // The clock restarts with the code: a tick up to a second old made a 5:00 code read 5:01.
        setNow(Date.now());
        setSrc(image);
        setLink(created.link);
        stopWatching = watchSession(created.session, created.secret, (update) => {
          setSession(update);
          // A phone verified: the code it shows, typed here, makes the success this screen's (decision 035).
          if (update.status === 'awaiting-code') {
            stopWatching?.();
            setProved({ session: created.session, secret: created.secret });
          }
          if (update.status === 'failure') {
            stopWatching?.();
            settle.current(created.session, created.secret, undefined).catch((failure: Error) => live && setError(failure.message));
          }
        });
      })
      .catch((failure: unknown) => live && setError(failure instanceof Error ? failure.message : 'Could not create a QR code.'));
    return () => {
      live = false;
      stopWatching?.();
    };
  }, [attempt, create]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const renew = useCallback(() => setAttempt((n) => n + 1), []);
  const remaining = session ? Date.parse(session.expiresAt) - now : 0;
  const expired = session !== undefined && !proved && (session.status === 'expired' || remaining <= 0);

  if (proved) return <ConfirmationCodeForm onConfirm={(code) => settle.current(proved.session, proved.secret, code)} />;

  return (
    <>
      {expired ? (
        <p data-testid="qr-lead">
          The link in this code has expired: a phone can no longer verify with it. Make a new code, then scan that one.
        </p>
      ) : (
        <p>Scan this code with your phone to verify there. This screen continues once you type the code your phone then shows.</p>
      )}
      {session?.phoneConnected && !expired ? (
        <p className="connected" role="status">
          <span className="spinner" aria-hidden="true" />
          Phone connected, waiting for it to verify…
        </p>
      ) : null}
      {src && !expired ? (
        <img
          className="qr"
          src={src}
          width={320}
          height={320}
          alt="QR code for the verification link"
          onLoad={scrollIntoView ? (event) => event.currentTarget.scrollIntoView({ block: 'nearest' }) : undefined}
        />
      ) : null}
      {session && !expired ? (
        <p className="countdown" role="timer" aria-live="off">
          This code expires in {clock(remaining)}
        </p>
      ) : null}
      {link && !expired ? <PhoneLink link={link} /> : null}
      {expired ? (
        <div className="notice" role="status">
          <p>This QR code has expired.</p>
          <p>A code works for a few minutes only, so that nobody can use an old one. Make a new one to go on.</p>
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

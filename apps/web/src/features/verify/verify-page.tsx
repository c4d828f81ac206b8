import { useEffect, useState, type FormEvent } from 'react';
import type { SessionOpenReply } from '@zeroid/protocol';
import { MESSAGES } from '@zeroid/protocol/messages';
import { Link, useLocation, useSearchParams } from 'react-router';
import { sessionOpen } from '../../shared/api-client.ts';
import { prepareProver, verify } from './verify.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { routes, tryAgainState } from '../../shared/paths.ts';
import { useSafeNavigate } from '../../shared/use-safe-navigate.ts';
import { BIOMETRIC_FIELD_ID, BiometricForm } from '../../shared/biometric-form.tsx';
import { useFieldProblems } from '../../shared/use-field-problems.ts';
import { usePendingCall } from '../../shared/use-pending-call.ts';
import { PhoneSignIn } from './phone-sign-in.tsx';
import { forgetRetryInput, keepForRetry, retryInput } from './retry-input.ts';

export function VerifyPage() {
  const navigate = useSafeNavigate();
  const session = useSearchParams()[0].get('session') ?? undefined;
  // "Try again" after a failed verification: the same text, back in the field.
  const tryAgain = (useLocation().state as Partial<typeof tryAgainState> | null)?.tryAgain === true;
  const [bioInfo, setBioInfo] = useState(() => (tryAgain ? retryInput() : undefined) ?? '');
  useEffect(() => forgetRetryInput(), []);
  const { pending, progress, error, setError, retryIn, run } = usePendingCall();
  const { problems, check, clear } = useFieldProblems({ bioInfo: { label: 'The biometric data', id: BIOMETRIC_FIELD_ID } });
  // A sign-in screen's QR code (decision 029): the site that asks.
  const [signIn, setSignIn] = useState<SessionOpenReply['signIn']>();
  // The server says this session has expired or was used: verifying for it could only fail, and would
  // say the person is not registered. The screen offers verifying on this device instead.
  const [sessionClosed, setSessionClosed] = useState(false);

  // The prover and its artifacts load while the biometric is typed (decision 043).
  useEffect(() => prepareProver('high'), []);

  // Opened from another screen's QR code: say so, and say at once if that session is no longer open.
  useEffect(() => {
    // The same screen without the session ("Verify on this device instead"): nothing of it stays.
    setSessionClosed(false);
    setError(undefined);
    if (!session) return;
    let current = true;
    sessionOpen(session).then(
      (reply) => {
        if (!current) return;
        setSignIn(reply.signIn);
        if (reply.open) return;
        setSessionClosed(true);
        setError('This verification link has expired or was already used. Ask for a new QR code.');
      },
      () => current && setError('This verification link is not valid. Ask for a new QR code.'),
    );
    return () => {
      current = false;
    };
  }, [session]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sessionClosed || !check({ bioInfo })) return;
    const done = await run((onProgress) => verify({ bioInfo, session }, onProgress), 'Verification failed. Please try again.');
    // Another screen's session: its person types this phone's code there (decision 035).
    if (done) {
      const { outcome, confirmationCode } = done.value;
      const verified = outcome === 'Success';
      if (!verified) keepForRetry(bioInfo);
      navigate(verified ? routes.authorised : routes.invalidDid, {
        state: { verified, ...(confirmationCode ? { confirmationCode } : {}) },
      });
    }
  }

  if (session && signIn && !error) return <PhoneSignIn session={session} site={signIn.site} asksCredential={signIn.asksCredential} />;

  return (
    <section className="card">
      <h1>{MESSAGES.verificationHeading}</h1>
      {session && sessionClosed ? (
        <p className="lead" data-testid="session-lead">
          The link you opened can no longer complete the verification on the other screen: it has expired or was already used. Scan a new QR
          code there, or verify on this device.
        </p>
      ) : null}
      {session && !sessionClosed ? <p className="lead">You are completing a verification started on another screen.</p> : null}
      <BiometricForm
        bioInfo={bioInfo}
        onBioInfo={(value) => {
          setBioInfo(value);
          clear('bioInfo');
        }}
        onSubmit={(event) => void submit(event)}
        pending={pending}
        progress={progress}
        problem={problems.bioInfo}
        notReady={retryIn > 0 || sessionClosed}
      />
      <ErrorAlert message={error} retryIn={retryIn} />
      {sessionClosed ? (
        <p className="other-device">
          <Link to={routes.verify}>Verify on this device instead</Link>
        </p>
      ) : null}
      {session ? null : (
        <p className="other-device">
          Your biometric is on your phone? <Link to={routes.qr}>Verify on another device</Link>: this screen shows a QR code, and your phone
          verifies.
        </p>
      )}
    </section>
  );
}

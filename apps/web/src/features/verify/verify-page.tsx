import { useEffect, useState, type FormEvent } from 'react';
import type { SessionOpenReply } from '@zeroid/protocol';
import { MESSAGES } from '@zeroid/protocol/messages';
import { useSearchParams } from 'react-router';
import { sessionOpen } from '../../shared/api-client.ts';
import { verify, warmUpProver } from '../prover/submit-verification.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { routes } from '../../shared/paths.ts';
import { useSafeNavigate } from '../../shared/use-safe-navigate.ts';
import { BiometricForm } from '../../shared/biometric-form.tsx';
import { usePendingCall } from '../../shared/use-pending-call.ts';
import { PhoneSignIn } from '../sign-in/phone-sign-in.tsx';

export function VerifyPage() {
  const navigate = useSafeNavigate();
  const session = useSearchParams()[0].get('session') ?? undefined;
  const [bioInfo, setBioInfo] = useState('');
  const { pending, progress, error, setError, run } = usePendingCall();
  // A sign-in screen's QR code (decision 029): the site that asks.
  const [signIn, setSignIn] = useState<SessionOpenReply['signIn']>();

  // Start the prover's worker before the button is pressed.
  useEffect(() => warmUpProver(), []);

  // Opened from another screen's QR code: say so, and say at once if that session is no longer open.
  useEffect(() => {
    if (!session) return;
    sessionOpen(session).then(
      (reply) => {
        setSignIn(reply.signIn);
        if (!reply.open) setError('This verification link has expired or was already used. Ask for a new QR code.');
      },
      () => setError('This verification link is not valid. Ask for a new QR code.'),
    );
  }, [session]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await run((onProgress) => verify({ bioInfo, session }, onProgress), 'Verification failed. Please try again.');
    // Another screen's session: its person types this phone's code there (decision 035).
    if (done) {
      const { outcome, confirmationCode } = done.value;
      navigate(outcome === 'Success' ? routes.authorised : routes.invalidDid, confirmationCode && { confirmationCode });
    }
  }

  if (session && signIn && !error) return <PhoneSignIn session={session} site={signIn.site} />;

  return (
    <section className="card">
      <h1>{MESSAGES.verificationHeading}</h1>
      {session ? <p className="lead">You are completing a verification started on another screen.</p> : null}
      <BiometricForm
        bioInfo={bioInfo}
        onBioInfo={setBioInfo}
        onSubmit={(event) => void submit(event)}
        pending={pending}
        progress={progress}
      />
      <ErrorAlert message={error} />
    </section>
  );
}

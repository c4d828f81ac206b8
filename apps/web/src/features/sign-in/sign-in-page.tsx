import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import type { SignInDetailsReply, SignInReply } from '@zeroid/protocol';
import { usePendingCall } from '../../shared/use-pending-call.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { BiometricForm } from '../../shared/biometric-form.tsx';
import { SignInOnPhone } from './sign-in-on-phone.tsx';
import { signInDetails } from './sign-in-details.ts';

/** The prover loads with this screen's code, not with the welcome page. */
const prover = () => import('../prover/prover-client.ts');

/**
 * Sign in with ZeroID (decision 023): the verification screen for a site's authorization request.
 * It names the site; the proof is made here, in the prover worker, for the site's scope; the site
 * receives only the pseudonym (the proof's nullifier) and never the biometric, the ID or the DID.
 */
export function SignInPage() {
  const uid = useParams().uid ?? '';
  const [details, setDetails] = useState<SignInDetailsReply>();
  const [bioInfo, setBioInfo] = useState('');
  const { pending, progress, error, setError, run } = usePendingCall();
  // Decision 029: verify on a phone instead, through a cross-device session.
  const [onPhone, setOnPhone] = useState(false);

  useEffect(() => {
    void prover().then((p) => p.prepareSignIn());
    signInDetails(uid).then(setDetails, (failure: Error) => setError(failure.message));
  }, [uid]);

  const leave = useCallback((reply: SignInReply) => globalThis.location.assign(reply.redirectTo), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!details) return;
    // On success the page goes back to the site: it stays pending on the way out.
    await run(
      async (onProgress) => {
        const proof = await (
          await prover()
        ).signInInBrowser({ bioInfo, uid, scope: details.scope, challenge: details.challenge }, onProgress);
        onProgress({ stage: 'sending' });
        leave(
          proof === undefined
            ? await requestJson<SignInReply>(apiUrls.signInCancel(uid), { method: 'POST' })
            : await requestJson<SignInReply>(apiUrls.signInProof(uid), { method: 'POST', body: { proof, challenge: details.challenge } }),
        );
      },
      'Verification failed. Please try again.',
      { leaving: true },
    );
  }

  async function cancel() {
    try {
      leave(await requestJson<SignInReply>(apiUrls.signInCancel(uid), { method: 'POST' }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Please go back to the site.');
    }
  }

  return (
    <section className="card">
      <h1>{MESSAGES.verificationHeading}</h1>
      {details ? (
        <p className="lead" data-testid="sign-in-site">
          Sign in to <strong>{details.site.name}</strong> ({details.site.host}). It receives only a pseudonym for this site: not your ID,
          not your biometric, not your DID.
        </p>
      ) : null}
      <BiometricForm
        bioInfo={bioInfo}
        onBioInfo={setBioInfo}
        onSubmit={(event) => void submit(event)}
        pending={pending}
        progress={progress}
        notReady={!details}
      >
        <button type="button" disabled={pending || !details} onClick={() => void cancel()}>
          Cancel
        </button>
      </BiometricForm>
      {details && !onPhone ? (
        <button type="button" disabled={pending} onClick={() => setOnPhone(true)}>
          Verify on my phone instead
        </button>
      ) : null}
      {details && onPhone ? <SignInOnPhone uid={uid} onLeave={leave} onError={setError} /> : null}
      <ErrorAlert message={error} />
    </section>
  );
}

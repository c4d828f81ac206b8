import { useEffect, useState, type FormEvent } from 'react';
import { MESSAGES } from '@zeroid/protocol/messages';
import type { PhoneSignInDetailsReply, PhoneSignInReply } from '@zeroid/protocol';
import { usePendingCall } from '../../shared/use-pending-call.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { BiometricForm } from '../../shared/biometric-form.tsx';
import { ConfirmationCode } from '../../shared/confirmation-code.tsx';
import { credentialOutcome } from '../../shared/credential-outcome.ts';
import { CredentialRequest } from '../../shared/credential-request.tsx';
import { whatTheSiteReceives } from '../../shared/what-the-site-receives.ts';

const prover = () => import('../../prover/prover-client.ts');

/**
 * A proof the site accepted comes with the code the other screen's person types there (decision 035),
 * and, when the site asked which organisation vouches for the person's ID, what it will be told (decision 089).
 */
type Outcome = { confirmationCode: string; credentialNote: string | undefined } | 'not-signed-in';

/**
 * Sign in with ZeroID on a phone (decision 029): opened from the QR code of a sign-in screen. It names
 * the site that asks before anything is proved; the proof is for that site's sector and bound to its
 * authorization request. An accepted proof gives a code, which the person types on the other screen
 * (decision 035): only then does that screen go back to the site, so a relayed QR code does not sign
 * the person in on someone else's screen. A biometric that is not registered, or Cancel, fails the
 * session: the site gets access_denied.
 */
export function PhoneSignIn({
  session,
  site,
  asksCredential,
}: {
  session: string;
  site: { name: string; host: string };
  asksCredential: boolean;
}) {
  const [bioInfo, setBioInfo] = useState('');
  const { pending, progress, error, setError, run } = usePendingCall();
  const [outcome, setOutcome] = useState<Outcome>();
  // Decision 089: ticked because the site asked; the person unticks it to sign in without telling.
  const [shareCredential, setShareCredential] = useState(true);

  // The worker and the proving artifacts load while the biometric is typed, the credential's too when the site asks.
  useEffect(
    () =>
      void prover().then((p) => {
        p.prepareSignIn();
        if (asksCredential) p.prepareSignInCredential();
      }),
    [asksCredential],
  );

  const fail = async () => {
    await requestJson(apiUrls.sessionFailure(session), { method: 'POST' });
    setOutcome('not-signed-in');
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async (onProgress) => {
      const details = await requestJson<PhoneSignInDetailsReply>(apiUrls.phoneSignIn(session));
      const { uid, scope, challenge, asksCredential } = details;
      const proofs = await (
        await prover()
      ).signInInBrowser({ bioInfo, uid, scope, challenge, asksCredential, shareCredential }, onProgress);
      onProgress({ stage: 'sending' });
      if (proofs === undefined) return fail();
      const { proof } = proofs;
      const reply = await requestJson<PhoneSignInReply>(apiUrls.phoneSignIn(session), {
        method: 'POST',
        body: proofs.credential === 'shared' ? { proof, challenge, credentialProof: proofs.credentialProof } : { proof, challenge },
      });
      setOutcome(
        reply.result === 'Success' && reply.confirmationCode
          ? { confirmationCode: reply.confirmationCode, credentialNote: credentialOutcome(proofs, site.name) }
          : 'not-signed-in',
      );
    }, 'Verification failed. Please try again.');
  }

  async function cancel() {
    try {
      await fail();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Please go back to the other screen.');
    }
  }

  if (outcome === 'not-signed-in') {
    return (
      <section className="card">
        <h1>Not verified</h1>
        <p className="notice" role="status" data-testid="phone-sign-in-outcome">
          {site.name} was told that you did not sign in.
        </p>
      </section>
    );
  }
  if (outcome) {
    return (
      <section className="card">
        <h1>Verified</h1>
        <ConfirmationCode code={outcome.confirmationCode}>
          <span data-testid="phone-sign-in-outcome">To finish signing in to {site.name}, type this code on the other screen:</span>
        </ConfirmationCode>
        {outcome.credentialNote ? (
          <p className="notice" role="status" data-testid="sign-in-credential-outcome">
            {outcome.credentialNote}
          </p>
        ) : null}
      </section>
    );
  }

  return (
    <section className="card">
      <h1>{MESSAGES.verificationHeading}</h1>
      <p className="lead" data-testid="sign-in-site">
        Sign in to <strong>{site.name}</strong> ({site.host}) on the other screen. {whatTheSiteReceives(asksCredential)}
      </p>
      {asksCredential ? (
        <CredentialRequest site={site.name} share={shareCredential} onShare={setShareCredential} disabled={pending} />
      ) : null}
      <BiometricForm
        bioInfo={bioInfo}
        onBioInfo={setBioInfo}
        onSubmit={(event) => void submit(event)}
        pending={pending}
        progress={progress}
      >
        <button type="button" className="secondary" disabled={pending} onClick={() => void cancel()}>
          Cancel
        </button>
      </BiometricForm>
      <ErrorAlert message={error} />
    </section>
  );
}

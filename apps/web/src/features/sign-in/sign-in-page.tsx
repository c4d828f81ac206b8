import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { SignInDetailsReply, SignInProofReply, SignInReply } from '@zeroid/protocol';
import { usePendingCall } from '../../shared/use-pending-call.ts';
import { cancelSignIn, reportSignInFailure, sendSignInProof } from '../../shared/api-client.ts';
import { ApiError } from '../../shared/http.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { BiometricForm } from '../../shared/biometric-form.tsx';
import { isPhone } from '../../shared/is-phone.ts';
import { SignInOnPhone } from './sign-in-on-phone.tsx';
import { freshSignInDetails, signInDetails } from './sign-in-details.ts';
import { afterMissedTry } from './sign-in-tries.ts';
import { CredentialRequest } from '../../shared/credential-request.tsx';
import { whatTheSiteReceives } from '../../shared/what-the-site-receives.ts';
import { credentialOutcome } from '../../shared/credential-outcome.ts';
import { timelineMark } from '../../shared/timeline-mark.ts';
import { routes } from '../../shared/paths.ts';

/** The prover loads with this screen's code, not with the welcome page. */
const prover = () => import('../../prover/prover-client.ts');

/** A try that did not sign the person in: its message is what the screen shows (the input stays). */
class MissedTry extends Error {}

/**
 * Sign in with ZeroID (decision 023): the verification screen for a site's authorization request.
 * It names the site; the proof is made here, in the prover worker, for the site's scope; the site
 * receives only the pseudonym (the proof's nullifier) and never the biometric, the ID or the DID.
 *
 * A biometric that is not recognised keeps the person here (decision 051): "not recognised, try
 * again", the input as typed, a fresh challenge from the server for the next try. Every try counts
 * against the client's guess budget on the server; only Cancel, or the screen's tries running out,
 * sends the site access_denied.
 */
export function SignInPage() {
  const uid = useParams().uid ?? '';
  const [details, setDetails] = useState<SignInDetailsReply>();
  // The challenge of the next try: the details' first, then each missed try's fresh one.
  const [challenge, setChallenge] = useState<string>();
  const [missed, setMissed] = useState(0);
  const [bioInfo, setBioInfo] = useState('');
  const { pending, progress, error, setError, retryIn, run } = usePendingCall();
  // Decision 029: verify on a phone instead, through a cross-device session; pointless on the phone itself.
  const [onPhone, setOnPhone] = useState(false);
  const [phoneHere] = useState(isPhone);
  // Decision 089: whether the person lets a site that asks be told who vouches for their ID (ticked
  // because the site asked; kept across tries), and what this try found, said before leaving.
  const [shareCredential, setShareCredential] = useState(true);
  const [credentialNote, setCredentialNote] = useState<string>();

  useEffect(() => {
    timelineMark('sign-in-screen');
    void prover().then((p) => p.prepareSignIn());
    signInDetails(uid).then(
      (reply) => {
        setDetails(reply);
        setChallenge(reply.challenge);
        if (reply.asksCredential) void prover().then((p) => p.prepareSignInCredential());
      },
      (failure: Error) => setError(failure.message),
    );
  }, [uid]);

  const leave = useCallback((reply: SignInReply) => globalThis.location.assign(reply.redirectTo), []);

  /** Back to the site, or another try with the server's fresh challenge. */
  async function settle(reply: SignInProofReply) {
    if ('redirectTo' in reply) return leave(reply);
    setCredentialNote(undefined);
    setChallenge(reply.challenge);
    const tries = missed + 1;
    setMissed(tries);
    const next = afterMissedTry(tries);
    if (next.giveUp) return leave(await cancelSignIn(uid));
    throw new MissedTry(next.message);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!details || !challenge) return;
    timelineMark('sign-in-submitted');
    setCredentialNote(undefined);
    const { asksCredential } = details;
    // On success the page goes back to the site: it stays pending on the way out.
    await run(
      async (onProgress) => {
        const proofs = await (
          await prover()
        ).signInInBrowser({ bioInfo, uid, scope: details.scope, challenge, asksCredential, shareCredential }, onProgress);
        onProgress({ stage: 'sending' });
        timelineMark('sign-in-proved');
        setCredentialNote(proofs && credentialOutcome(proofs, details.site.name));
        const reply =
          proofs === undefined
            ? reportSignInFailure(uid)
            : sendSignInProof(uid, proofs.proof, challenge, proofs.credential === 'shared' ? proofs.credentialProof : undefined);
        await settle(
          await reply.catch(async (failure: unknown) => {
            setCredentialNote(undefined);
            // A stale proof (the group changed meanwhile) spent its challenge: the next try needs another.
            // A refused credential proof (400) spends none.
            if (failure instanceof ApiError && failure.status === 409) setChallenge((await freshSignInDetails(uid)).challenge);
            throw failure;
          }),
        );
      },
      'Verification failed. Please try again.',
      { leaving: true },
    );
  }

  async function cancel() {
    try {
      leave(await cancelSignIn(uid));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Please go back to the site.');
    }
  }

  return (
    <section className="card sign-in">
      <h1>{details ? `Sign in to ${details.site.name}` : 'Sign in'}</h1>
      {details ? (
        <p className="lead" data-testid="sign-in-site">
          Sign in to <strong>{details.site.name}</strong> ({details.site.host}). {whatTheSiteReceives(details.asksCredential)}
        </p>
      ) : null}
      {details?.asksCredential ? (
        <CredentialRequest site={details.site.name} share={shareCredential} onShare={setShareCredential} disabled={pending} />
      ) : null}
      <BiometricForm
        bioInfo={bioInfo}
        onBioInfo={setBioInfo}
        onSubmit={(event) => void submit(event)}
        pending={pending}
        progress={progress}
        notReady={!details || retryIn > 0}
      >
        <button type="button" className="secondary" disabled={pending || !details} onClick={() => void cancel()}>
          Cancel
        </button>
        {details && !onPhone && !phoneHere ? (
          <button type="button" className="secondary" disabled={pending} onClick={() => setOnPhone(true)}>
            Verify on my phone instead
          </button>
        ) : null}
      </BiometricForm>
      {credentialNote ? (
        <p className="notice" role="status" data-testid="sign-in-credential-outcome">
          {credentialNote}
        </p>
      ) : null}
      <ErrorAlert message={error} retryIn={retryIn} />
      {/* The sign-in is gone (expired, completed) or unreachable: no site to go back to from here, so the start. */}
      {!details && error ? (
        <p className="other-device">
          <Link to={routes.home}>Back to the start</Link>
        </p>
      ) : null}
      {details && onPhone ? <SignInOnPhone uid={uid} onLeave={leave} onError={setError} /> : null}
    </section>
  );
}

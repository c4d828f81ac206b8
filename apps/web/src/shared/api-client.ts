import type {
  CreatedSessionReply,
  SessionConfirmReply,
  SessionOpenReply,
  SessionReply,
  SignInProofReply,
  SignInReply,
  SignInRetryReply,
  WireCredentialSignInProof,
} from '@zeroid/protocol';
import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { requestBlob, requestJson } from './http.ts';
import { apiUrls } from './paths.ts';

/**
 * A cross-device verification session, for a phone to complete. Its secret is what lets this screen,
 * and only this screen, read the outcome: keep it in memory, never in the QR code.
 */
export function createSession(): Promise<CreatedSessionReply> {
  return requestJson<CreatedSessionReply>(apiUrls.sessions(), { method: 'POST' });
}

/**
 * Sign in with ZeroID (decision 023): the proof for the site, with the credential's proof when the site
 * asked and one was found (decision 089); back to the site, or another try (decision 051).
 */
export function sendSignInProof(
  uid: string,
  proof: SemaphoreProof,
  challenge: string,
  credentialProof?: WireCredentialSignInProof,
): Promise<SignInProofReply> {
  const body = credentialProof === undefined ? { proof, challenge } : { proof, challenge, credentialProof };
  return requestJson<SignInProofReply>(apiUrls.signInProof(uid), { method: 'POST', body });
}

/** The biometric is not registered (found before anything was proven): counted, and another try (decision 051). */
export function reportSignInFailure(uid: string): Promise<SignInRetryReply> {
  return requestJson<SignInRetryReply>(apiUrls.signInFailure(uid), { method: 'POST' });
}

/** Cancel, or no tries left: back to the site with access_denied. */
export function cancelSignIn(uid: string): Promise<SignInReply> {
  return requestJson<SignInReply>(apiUrls.signInCancel(uid), { method: 'POST' });
}

/** Sign in with ZeroID on a phone (decision 029): a session tied to this sign-in screen's authorization request. */
export function createSignInSession(uid: string): Promise<CreatedSessionReply> {
  return requestJson<CreatedSessionReply>(apiUrls.signInSessions(uid), { method: 'POST' });
}

/**
 * Once the phone has finished: where this screen goes (back to the site, with a code or
 * access_denied). A phone that succeeded showed a code, which this screen's person typed (decision 035).
 */
export function finishSignInSession(uid: string, id: string, secret: string, code?: string): Promise<SignInReply> {
  return requestJson<SignInReply>(apiUrls.signInSessionFinish(uid, id), {
    method: 'POST',
    headers: { 'session-secret': secret },
    body: code === undefined ? {} : { code },
  });
}

/** The code the phone showed, typed on this screen: the verification counts here only once it matches (decision 035). */
export function confirmSession(id: string, secret: string, code: string): Promise<SessionConfirmReply> {
  return requestJson<SessionConfirmReply>(apiUrls.sessionConfirm(id), {
    method: 'POST',
    headers: { 'session-secret': secret },
    body: { code },
  });
}

/** The outcome, for the screen holding the session's secret. */
export function sessionStatus(id: string, secret: string): Promise<SessionReply> {
  return requestJson<SessionReply>(apiUrls.session(id), { headers: { 'session-secret': secret } });
}

/** The phone's view of a session it holds only the link of: whether it still waits. */
export function sessionOpen(id: string): Promise<SessionOpenReply> {
  return requestJson<SessionOpenReply>(apiUrls.sessionOpen(id));
}

/**
 * Follows a session until it completes or expires: Server-Sent Events, or polling every two seconds
 * where EventSource is missing or the stream breaks. Returns a function that stops watching.
 */
export function watchSession(id: string, secret: string, onChange: (reply: SessionReply) => void): () => void {
  let stopped = false;
  let poll: ReturnType<typeof setInterval> | undefined;
  const startPolling = () => {
    poll ??= setInterval(() => {
      sessionStatus(id, secret).then(
        (reply) => !stopped && onChange(reply),
        () => undefined,
      );
    }, 2000);
  };
  let source: EventSource | undefined;
  if (typeof EventSource === 'function') {
    source = new EventSource(apiUrls.sessionEvents(id, secret));
    source.addEventListener('status', (event) => !stopped && onChange(JSON.parse((event as MessageEvent<string>).data) as SessionReply));
    source.onerror = () => {
      source?.close();
      if (!stopped) startPolling();
    };
  } else {
    startPolling();
  }
  return () => {
    stopped = true;
    source?.close();
    if (poll) clearInterval(poll);
  };
}

/** The verification-link QR code, fetched as binary and turned into a data URL for an <img>. */
export async function fetchQrCode(session?: string): Promise<string> {
  const blob = await requestBlob(apiUrls.qrCode(session));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new Error('Could not read the QR image.'));
    reader.readAsDataURL(blob);
  });
}

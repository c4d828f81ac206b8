import type { CreatedSessionReply, RegisterReply, SessionOpenReply, SessionReply, VerifyReply } from '@zeroid/protocol';
import { DID_ALREADY_GENERATED, VERIFICATION_RESULT } from '@zeroid/protocol/messages';
import { config } from './config.ts';
import { requestBlob, requestJson } from './http.ts';
import { apiUrls } from './paths.ts';

export type RegisterOutcome = { alreadyRegistered: true } | { alreadyRegistered: false; did: string };
export type VerifyOutcome = 'Success' | 'Failure';
export type Progress =
  { stage: 'deriving' } | { stage: 'downloading'; loaded: number; total: number } | { stage: 'proving' } | { stage: 'sending' };

/** Loads the browser prover only when a call needs it: the welcome page stays small. */
const prover = () => import('../features/prover/prover-client.ts');

/**
 * Registers an identity. In the default "browser" mode the ID and biometric are derived and signed
 * here and only derived values are sent; in "server" mode the specification's raw body is sent.
 */
export async function register(input: { idInfo: string; bioInfo: string }, onProgress?: (p: Progress) => void): Promise<RegisterOutcome> {
  const reply =
    config.proving === 'browser'
      ? await (await prover()).registerInBrowser(input, onProgress)
      : await requestJson<RegisterReply>(apiUrls.register(), { method: 'POST', body: { id_info: input.idInfo, bio_info: input.bioInfo } });
  console.log(reply);
  return reply[DID_ALREADY_GENERATED] ? { alreadyRegistered: true } : { alreadyRegistered: false, did: reply.DID };
}

/** Verifies a biometric: a zero-knowledge proof in "browser" mode, the raw body in "server" mode. */
export async function verify(
  input: { bioInfo: string; session?: string | undefined },
  onProgress?: (p: Progress) => void,
): Promise<VerifyOutcome> {
  const reply =
    config.proving === 'browser'
      ? await (await prover()).verifyInBrowser(input, onProgress)
      : await requestJson<VerifyReply>(apiUrls.verify(), {
          method: 'POST',
          body: input.session === undefined ? { bio_info: input.bioInfo } : { bio_info: input.bioInfo, session: input.session },
        });
  return reply[VERIFICATION_RESULT] === 'Success' ? 'Success' : 'Failure';
}

/** Starts the prover's worker ahead of time, so the first verification does not wait for it. */
export function warmUpProver(): void {
  if (config.proving === 'browser') void prover().then((p) => p.warmUp());
}

/**
 * A cross-device verification session, for a phone to complete. Its secret is what lets this screen,
 * and only this screen, read the outcome: keep it in memory, never in the QR code.
 */
export function createSession(): Promise<CreatedSessionReply> {
  return requestJson<CreatedSessionReply>(apiUrls.sessions(), { method: 'POST' });
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

import type { RegisterReply, VerifyReply } from '@zeroid/protocol';
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
export async function verify(input: { bioInfo: string }, onProgress?: (p: Progress) => void): Promise<VerifyOutcome> {
  const reply =
    config.proving === 'browser'
      ? await (await prover()).verifyInBrowser(input, onProgress)
      : await requestJson<VerifyReply>(apiUrls.verify(), { method: 'POST', body: { bio_info: input.bioInfo } });
  return reply[VERIFICATION_RESULT] === 'Success' ? 'Success' : 'Failure';
}

/** Starts the prover's worker ahead of time, so the first verification does not wait for it. */
export function warmUpProver(): void {
  if (config.proving === 'browser') void prover().then((p) => p.warmUp());
}

/** The verification-link QR code, fetched as binary and turned into a data URL for an <img>. */
export async function fetchQrCode(): Promise<string> {
  const blob = await requestBlob(apiUrls.qrCode());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new Error('Could not read the QR image.'));
    reader.readAsDataURL(blob);
  });
}

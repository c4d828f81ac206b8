import type { RegisterReply } from '@zeroid/protocol';
import { DID_ALREADY_GENERATED } from '@zeroid/protocol/messages';
import { config } from '../../shared/config.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import type { Progress } from '../../shared/progress.ts';

export type RegisterOutcome = { alreadyRegistered: true } | { alreadyRegistered: false; did: string };

/** Loads the browser prover only when a call needs it: the welcome page stays small. */
const prover = () => import('./prover-client.ts');

/**
 * Registers an identity. In the default "browser" mode the ID and biometric are derived and signed
 * here and only derived values are sent; in "server" mode the specification's raw body is sent.
 */
export async function register(input: { idInfo: string; bioInfo: string }, onProgress?: (p: Progress) => void): Promise<RegisterOutcome> {
  onProgress?.(config.proving === 'browser' ? { stage: 'starting' } : { stage: 'sending' });
  const reply =
    config.proving === 'browser'
      ? await (await prover()).registerInBrowser(input, onProgress)
      : await requestJson<RegisterReply>(apiUrls.register(), { method: 'POST', body: { id_info: input.idInfo, bio_info: input.bioInfo } });
  console.log(reply);
  return reply[DID_ALREADY_GENERATED] ? { alreadyRegistered: true } : { alreadyRegistered: false, did: reply.DID };
}

/**
 * Starts the prover's worker and the registration circuit's download as the registration screen
 * opens, so the proof does not wait for them after the button (decision 043's rule, for v3's
 * registration proof). Nothing in server mode.
 */
export function prepareRegistrationProver(): void {
  if (config.proving === 'browser') void prover().then((p) => p.prepareRegistration());
}

import type { Verdict, VerifyReply } from '@zeroid/protocol';
import { CONFIRMATION_CODE, VERIFICATION_RESULT } from '@zeroid/protocol/messages';
import { config } from '../../shared/config.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import type { Progress } from '../../shared/progress.ts';

export type VerifyOutcome = Verdict;

/** Loads the browser prover only when a call needs it: the welcome page stays small. */
const prover = () => import('../../prover/prover-client.ts');

/**
 * Verifies a biometric: a zero-knowledge proof in "browser" mode, the raw body in "server" mode. A
 * verification that completed another screen's session comes with the code that screen's person
 * must type there (decision 035).
 */
export async function verify(
  input: { bioInfo: string; session?: string | undefined },
  onProgress?: (p: Progress) => void,
): Promise<{ outcome: VerifyOutcome; confirmationCode?: string | undefined }> {
  onProgress?.(config.proving === 'browser' ? { stage: 'starting' } : { stage: 'sending' });
  const reply =
    config.proving === 'browser'
      ? await (await prover()).verifyInBrowser(input, onProgress)
      : await requestJson<VerifyReply>(apiUrls.verify(), {
          method: 'POST',
          body: input.session === undefined ? { bio_info: input.bioInfo } : { bio_info: input.bioInfo, session: input.session },
        });
  return { outcome: reply[VERIFICATION_RESULT] === 'Success' ? 'Success' : 'Failure', confirmationCode: reply[CONFIRMATION_CODE] };
}

/**
 * Starts the prover's worker and what a proof needs (the circuit and proving key above all) ahead of
 * the button, so the first verification does not wait for them (decision 043). Nothing in server mode.
 */
export function prepareProver(priority: RequestPriority): void {
  if (config.proving === 'browser') void prover().then((p) => p.prepare(priority));
}

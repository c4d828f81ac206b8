import type { EraseReply } from '@zeroid/protocol';
import { ERASURE_RESULT } from '@zeroid/protocol/messages';
import { config } from '../../shared/config.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import type { Progress } from '../../shared/progress.ts';
import { FLOW_GUESSES, withReservation } from '../../oprf/with-reservation.ts';

/**
 * Erases an identity: true when it was erased. In the default "browser" mode the ID and biometric
 * are derived and signed here; in "server" mode the raw body is sent, as for registration.
 */
export async function erase(input: { idInfo: string; bioInfo: string }, onProgress: (p: Progress) => void): Promise<boolean> {
  onProgress(config.proving === 'browser' ? { stage: 'starting' } : { stage: 'sending' });
  const reply =
    config.proving === 'browser'
      ? await withReservation(FLOW_GUESSES.erase, async () => (await import('./prove-erasure.ts')).proveErasure(input, onProgress))
      : await requestJson<EraseReply>(apiUrls.erase(), { method: 'POST', body: { id_info: input.idInfo, bio_info: input.bioInfo } });
  return reply[ERASURE_RESULT] === 'Success';
}

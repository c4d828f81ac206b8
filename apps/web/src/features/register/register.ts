import type { RegisterReply } from '@zeroid/protocol';
import { DID_ALREADY_GENERATED, REPLACED_DID } from '@zeroid/protocol/messages';
import { config } from '../../shared/config.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import type { Progress } from '../../shared/progress.ts';

export type RegisterOutcome =
  | { alreadyRegistered: true }
  | { alreadyRegistered: false; did: string; replacedDid?: string }
  /** A move from v2 on this device would evict another registration (decision 073): the page offers `moveOnServer`. */
  | { alreadyRegistered: false; moveRefused: string };

/** Loads the browser prover only when a call needs it: the welcome page stays small. */
const prover = () => import('../../prover/prover-client.ts');

/**
 * Registers an identity. In the default "browser" mode the ID and biometric are derived and signed
 * here and only derived values are sent; in "server" mode the specification's raw body is sent. A
 * person who holds a protocol v2 identity moves it to v3 either way (decision 073): the reply names
 * the DID it replaced.
 */
export async function register(input: { idInfo: string; bioInfo: string }, onProgress?: (p: Progress) => void): Promise<RegisterOutcome> {
  onProgress?.(config.proving === 'browser' ? { stage: 'starting' } : { stage: 'sending' });
  if (config.proving !== 'browser') return moveOnServer(input);
  const reply = await (await prover()).registerInBrowser(input, onProgress);
  console.log(reply);
  if ('moveRefused' in reply) return { alreadyRegistered: false, moveRefused: reply.message };
  return outcomeOf(reply);
}

/**
 * The specification's raw registration: the server receives the ID and biometric once, derives, and
 * drops them. For a v2 holder whose move on this device was refused, it is the move that evicts
 * registrations made under their texts (decision 073).
 */
export async function moveOnServer(input: { idInfo: string; bioInfo: string }): Promise<RegisterOutcome> {
  const reply = await requestJson<RegisterReply>(apiUrls.register(), {
    method: 'POST',
    body: { id_info: input.idInfo, bio_info: input.bioInfo },
  });
  console.log(reply);
  return outcomeOf(reply);
}

function outcomeOf(reply: RegisterReply): RegisterOutcome {
  if (reply[DID_ALREADY_GENERATED]) return { alreadyRegistered: true };
  return REPLACED_DID in reply
    ? { alreadyRegistered: false, did: reply.DID, replacedDid: reply[REPLACED_DID] }
    : { alreadyRegistered: false, did: reply.DID };
}

/**
 * Starts the prover's worker and the registration circuit's download as the registration screen
 * opens, so the proof does not wait for them after the button (decision 043's rule, for v3's
 * registration proof). Nothing in server mode.
 */
export function prepareRegistrationProver(): void {
  if (config.proving === 'browser') void prover().then((p) => p.prepareRegistration());
}

import type { SignInDetailsReply } from '@zeroid/protocol';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';

let asked: { uid: string; reply: Promise<SignInDetailsReply> } | undefined;

/**
 * The site, scope and one-time challenge of sign-in `uid`, asked for once per page: the route's
 * loader asks while the screen's code loads (decision 028), and the screen takes the same answer.
 */
export function signInDetails(uid: string): Promise<SignInDetailsReply> {
  if (asked?.uid !== uid) asked = { uid, reply: requestJson<SignInDetailsReply>(apiUrls.signInDetails(uid)) };
  return asked.reply;
}

/** What a sign-in screen needs before it renders: its details, and the prover worker with its artifacts. */
export function startSignIn(uid: string): void {
  signInDetails(uid).catch(() => undefined); // the screen shows the failure
  void import('../prover/prover-client.ts').then((prover) => prover.prepareSignIn());
}

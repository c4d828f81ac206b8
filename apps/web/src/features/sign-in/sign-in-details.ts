import type { SignInDetailsReply } from '@zeroid/protocol';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { timelineMark } from '../../shared/timeline-mark.ts';

let asked: { uid: string; reply: Promise<SignInDetailsReply> } | undefined;

/**
 * The site, scope and one-time challenge of sign-in `uid`, asked for once per page: the route's
 * loader asks while the screen's code loads (decision 028), and the screen takes the same answer.
 */
export function signInDetails(uid: string): Promise<SignInDetailsReply> {
  if (asked?.uid !== uid) {
    const reply = requestJson<SignInDetailsReply>(apiUrls.signInDetails(uid));
    reply.then(
      () => timelineMark('sign-in-details'),
      () => undefined,
    );
    asked = { uid, reply };
  }
  return asked.reply;
}

/** The details again, with a fresh one-time challenge (after a stale proof spent the last one). */
export function freshSignInDetails(uid: string): Promise<SignInDetailsReply> {
  return requestJson<SignInDetailsReply>(apiUrls.signInDetails(uid));
}

/** What a sign-in screen needs before it renders: its details, and the prover worker with its artifacts. */
export function startSignIn(uid: string): void {
  timelineMark('sign-in-loader');
  signInDetails(uid).catch(() => undefined); // the screen shows the failure
  void import('../../prover/prover-client.ts').then((prover) => prover.prepareSignIn());
}

/**
 * Tries a sign-in screen gives a person before it tells the site they did not sign in (decision
 * 051): the failed verifications the server allows a client before its throttle makes each further
 * one wait (FAILED_VERIFICATIONS_BEFORE_DELAY, 5), so a person who starts afresh never waits on the
 * screen. The server's limits, not this count, are what bound guessing: a refusal with Retry-After
 * (a client that failed elsewhere first) is counted down on the screen, and Cancel stays open.
 */
export const SIGN_IN_TRIES = 5;

/** After the `missed`-th try that did not sign the person in: another try, or back to the site. */
export function afterMissedTry(missed: number): { giveUp: true } | { giveUp: false; message: string } {
  const left = SIGN_IN_TRIES - missed;
  if (left <= 0) return { giveUp: true };
  return { giveUp: false, message: `Not recognised, try again. ${left} ${left === 1 ? 'try' : 'tries'} left.` };
}

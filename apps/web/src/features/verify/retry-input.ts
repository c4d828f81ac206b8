/**
 * The biometric of the last verification that failed, so that "Try again" on /invalid-did brings it
 * back and the person retries with the same text. It stays in this page's memory only: never in the
 * history's state or in storage, which outlive the page. The verification screen takes it as it opens
 * and forgets it at once, whether or not it was opened by "Try again".
 */
let kept: string | undefined;

/** Keeps the biometric of a verification that failed, for one "Try again". */
export function keepForRetry(bioInfo: string): void {
  kept = bioInfo;
}

/** What `keepForRetry` kept; it is forgotten by `forgetRetryInput`. */
export function retryInput(): string | undefined {
  return kept;
}

/** Forgets the kept biometric. */
export function forgetRetryInput(): void {
  kept = undefined;
}

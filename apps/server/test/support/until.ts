import { setTimeout as sleep } from 'node:timers/promises';

export interface UntilOptions {
  /** What is awaited, for the error; the check's source otherwise. */
  what?: string;
  /** Give up after this long. */
  timeoutMs?: number;
  /** How long to wait between checks. */
  everyMs?: number;
}

/**
 * Waits until `check` holds, checking every `everyMs`; a check that throws counts as not yet (a
 * server still starting refuses connections). Resolves with how long it took, for a test's report;
 * throws after `timeoutMs`, naming what it awaited. A bound on a wait, never a timed assertion.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  { what = check.toString(), timeoutMs = 30_000, everyMs = 5 }: UntilOptions = {},
): Promise<number> {
  const started = Date.now();
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(everyMs);
  }
  return Date.now() - started;
}

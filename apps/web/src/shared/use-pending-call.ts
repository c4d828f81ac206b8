import { useEffect, useRef, useState } from 'react';
import { ApiError } from './http.ts';
import type { Progress } from './progress.ts';

/** The server's "Please try again in 30 seconds.": the screen counts down instead. */
const FIXED_WAIT = /\s*Please try again in \d+ seconds?\.$/;

/**
 * The state every screen with a slow call shares: whether the call is pending (its button disabled),
 * how far it has gone (the progress line), and the error it ended with (the inputs are left as they
 * are). `run` starts `call` unless one is already running (a second click in the same frame
 * included) or a lockout is counting down, clears the last error and progress first, and turns a
 * failure into the error shown: the thrown Error's message, else `failed`.
 *
 * A refusal with Retry-After (too many failed verifications, say) gives `retryIn`, the seconds left,
 * counted down each second: the screen shows it and keeps its button disabled until it reaches 0,
 * when the message goes too.
 *
 * Resolves `{ value }` with the call's value when it succeeded, undefined when it failed or did not
 * start. With `leaving`, a call that succeeds leaves the screen
 * (a redirect to another site), so it stays pending: the button never comes back on the way out.
 */
export function usePendingCall() {
  const [pending, setPending] = useState(false);
  const [progress, setProgress] = useState<Progress>();
  const [error, setError] = useState<string>();
  const [retryAt, setRetryAt] = useState<number>();
  const [now, setNow] = useState(() => Date.now());
  const running = useRef(false);

  useEffect(() => {
    if (retryAt === undefined) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= retryAt) {
        setRetryAt(undefined);
        setError(undefined);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [retryAt]);

  const retryIn = retryAt === undefined ? 0 : Math.max(0, Math.ceil((retryAt - now) / 1000));

  async function run<T>(
    call: (onProgress: (progress: Progress) => void) => Promise<T>,
    failed: string,
    { leaving = false } = {},
  ): Promise<{ value: T } | undefined> {
    if (running.current || retryIn > 0) return undefined;
    running.current = true;
    setPending(true);
    setError(undefined);
    setProgress(undefined);
    try {
      const value = await call(setProgress);
      if (!leaving) settle();
      return { value };
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : failed;
      if (failure instanceof ApiError && failure.retryAfterSeconds) {
        setError(message.replace(FIXED_WAIT, ''));
        setNow(Date.now());
        setRetryAt(Date.now() + failure.retryAfterSeconds * 1000);
      } else {
        setError(message);
      }
      settle();
      return undefined;
    }
  }

  function settle() {
    running.current = false;
    setPending(false);
  }

  return { pending, progress, error, setError, retryIn, run };
}

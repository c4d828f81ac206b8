import { useRef, useState } from 'react';
import type { Progress } from './progress.ts';

/**
 * The state every screen with a slow call shares: whether the call is pending (its button disabled),
 * how far it has gone (the progress line), and the error it ended with (the inputs are left as they
 * are). `run` starts `call` unless one is already running (a second click in the same frame
 * included), clears the last error and progress first, and turns a failure into the error shown:
 * the thrown Error's message, else `failed`.
 *
 * Resolves `{ value }` with the call's value when it succeeded, undefined when it failed or did not
 * start. With `leaving`, a call that succeeds leaves the screen
 * (a redirect to another site), so it stays pending: the button never comes back on the way out.
 */
export function usePendingCall() {
  const [pending, setPending] = useState(false);
  const [progress, setProgress] = useState<Progress>();
  const [error, setError] = useState<string>();
  const running = useRef(false);

  async function run<T>(
    call: (onProgress: (progress: Progress) => void) => Promise<T>,
    failed: string,
    { leaving = false } = {},
  ): Promise<{ value: T } | undefined> {
    if (running.current) return undefined;
    running.current = true;
    setPending(true);
    setError(undefined);
    setProgress(undefined);
    try {
      const value = await call(setProgress);
      if (!leaving) settle();
      return { value };
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : failed);
      settle();
      return undefined;
    }
  }

  function settle() {
    running.current = false;
    setPending(false);
  }

  return { pending, progress, error, setError, run };
}

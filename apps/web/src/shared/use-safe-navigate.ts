import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';

/**
 * navigate() (with the page's state, if any), with the specification's behaviour on failure: a console warning
 * "Unhandled Navigation Error" and nothing shown to the person.
 */
export function useSafeNavigate(): (to: string, options?: { state?: unknown }) => void {
  const navigate = useNavigate();
  return useCallback(
    (to: string, options?: { state?: unknown }) => {
      try {
        void Promise.resolve(navigate(to, options)).catch(() => console.warn(MESSAGES.navigationError));
      } catch {
        console.warn(MESSAGES.navigationError);
      }
    },
    [navigate],
  );
}

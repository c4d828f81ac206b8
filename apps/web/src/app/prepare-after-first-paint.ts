import { prepareProver } from '../features/verify/verify.ts';
import { routes } from '../shared/paths.ts';

/**
 * Once the first screen is painted and the browser is idle, fetches what a first verification waits
 * for (decision 043): the verification and registration screens' code, then the prover's worker and,
 * at low priority, its circuit and proving key. At 1.6 Mbps those take some 10 s, about what a first
 * visitor spends reading the welcome page and typing. Not when the person asked to save data, and
 * not on a site's sign-in screen (decision 050): its own loader has started the prover at high
 * priority, and two screens' code it will not show would only compete with the worker's start on
 * the critical path of the sign-in (the bench's profile showed them loading while it started).
 */
export function prepareAfterFirstPaint(): void {
  if ((navigator as { connection?: { saveData?: boolean } }).connection?.saveData === true) return;
  if (location.pathname.startsWith(routes.signInPrefix)) return;
  const start = () => {
    void import('../features/verify/verify-page.tsx').catch(() => undefined);
    void import('../features/register/register-page.tsx').catch(() => undefined);
    prepareProver('low');
  };
  const whenIdle = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(start, { timeout: 1000 }) : setTimeout(start, 200);
  // Two frames: the first screen has been painted once the second begins.
  requestAnimationFrame(() => requestAnimationFrame(whenIdle));
}

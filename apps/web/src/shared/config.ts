/**
 * The web app's settings, in one place.
 * - backendUrl: where the API lives; by default the page's own origin (the server serves both).
 * - proving: "browser" derives and proves here, so the raw ID and biometric never leave the page;
 *   "server" sends the specification's raw bodies, for devices too weak to prove.
 */
export type ProvingMode = 'browser' | 'server';

function provingMode(): ProvingMode {
  const stored = globalThis.localStorage?.getItem('zeroid.proving');
  const chosen = stored ?? (import.meta.env.VITE_PROVING as string | undefined);
  return chosen === 'server' ? 'server' : 'browser';
}

export const config = {
  backendUrl: ((import.meta.env.VITE_BACKEND_URL as string | undefined) || globalThis.location.origin).replace(/\/+$/, ''),
  get proving(): ProvingMode {
    return provingMode();
  },
};

import type { Artifacts } from '../artifacts.ts';

/** The verification key of the v3 registration proof (decision 056), by its name in a `Groth16Claim`. */
export const REGISTRATION_V3_KEY = 'registration-v3';

/**
 * The key of a Semaphore proof of `depth`: `semaphore-<depth>`. Throws on anything but an integer, so
 * no value a client sends can name another circuit's key.
 */
export function semaphoreKeyName(depth: unknown): string {
  if (!Number.isSafeInteger(depth)) throw new TypeError('a tree depth is an integer');
  return `semaphore-${depth as number}`;
}

/**
 * Key name → path of every checksummed Groth16 verification key we verify against: Semaphore's
 * `semaphore-<depth>.json` for every depth we serve, and `registration-v3.vkey.json`.
 */
export function verificationKeyPaths(artifacts: Artifacts): Record<string, string> {
  const paths: Record<string, string> = {};
  for (let depth = 1; depth <= 32; depth++) {
    const key = artifacts.get(`semaphore-${depth}.json`);
    if (key) paths[semaphoreKeyName(depth)] = key.path;
  }
  const registration = artifacts.get(`${REGISTRATION_V3_KEY}.vkey.json`);
  if (registration) paths[REGISTRATION_V3_KEY] = registration.path;
  return paths;
}

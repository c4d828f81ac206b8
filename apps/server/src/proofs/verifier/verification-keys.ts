import type { Artifacts } from '../artifacts.ts';

/** The verification key of the v3 registration proof (decision 056), by its name in a `Groth16Claim`. */
export const REGISTRATION_V3_KEY = 'registration-v3';

/** The verification key of a registration proven with a credential (decision 085). */
export const REGISTRATION_CREDENTIAL_KEY = 'registration-credential';

/**
 * The verification key of the sign-in proof that shows a credential's issuer (decision 087):
 * `keys[SIGN_IN_CREDENTIAL_KEY]` of `verificationKeys`, which the proof verifier's threads hold, so
 * `proofVerifier.verifyClaim(signInCredentialClaim(proof, binding))` checks one in the same batches as
 * sign-in proofs.
 */
export const SIGN_IN_CREDENTIAL_KEY = 'sign-in-credential';

/**
 * The key of a Semaphore proof of `depth`: `semaphore-<depth>`. Throws on anything but an integer, so
 * no value a client sends can name another circuit's key.
 */
export function semaphoreKeyName(depth: unknown): string {
  if (!Number.isSafeInteger(depth)) throw new TypeError('a tree depth is an integer');
  return `semaphore-${depth as number}`;
}

/**
 * Key name → text of every pinned Groth16 verification key we verify against: Semaphore's
 * `semaphore-<depth>.json` for every depth we serve, `registration-v3.vkey.json` and
 * `registration-credential.vkey.json` and `sign-in-credential.vkey.json`. The text is
 * the bytes checked at start (`Artifacts.load`), handed to the verifier threads as they start: no
 * thread reads a key from disk (decision 072).
 */
export async function verificationKeys(artifacts: Artifacts): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  for (let depth = 1; depth <= 32; depth++) {
    const key = artifacts.get(`semaphore-${depth}.json`);
    if (key) keys[semaphoreKeyName(depth)] = (await key.read()).toString('utf8');
  }
  const registration = artifacts.get(`${REGISTRATION_V3_KEY}.vkey.json`);
  if (registration) keys[REGISTRATION_V3_KEY] = (await registration.read()).toString('utf8');
  const credential = artifacts.get(`${REGISTRATION_CREDENTIAL_KEY}.vkey.json`);
  if (credential) keys[REGISTRATION_CREDENTIAL_KEY] = (await credential.read()).toString('utf8');
  const signIn = artifacts.get(`${SIGN_IN_CREDENTIAL_KEY}.vkey.json`);
  if (signIn) keys[SIGN_IN_CREDENTIAL_KEY] = (await signIn.read()).toString('utf8');
  return keys;
}

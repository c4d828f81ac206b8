import { Point } from '../v3/baby-jubjub-group.ts';
import type { Credential } from './credential-format.ts';
import { parseIssuerKey } from './issuer-key.ts';
import { verifyCredentialSignature, verifyWithKey } from './verify-credential-signature.ts';

/** Window bits of each known issuer's table: 2⁸ points per window, built once. */
const WINDOW = 8;

/**
 * `verifyCredentialSignature` for a server that trusts a fixed few issuers: each of their keys gets a
 * window table once (as Base8 has), so the variable-base multiplication of a check costs about what
 * the fixed-base one does. Other keys are checked without one. Same verdicts as
 * `verifyCredentialSignature`.
 */
export function credentialVerifier(issuerKeys: readonly string[]): (credential: Credential) => boolean {
  const tables = new Map<string, { x: bigint; y: bigint; eightA: Point }>();
  for (const key of issuerKeys) {
    const issuer = parseIssuerKey(key);
    if (!issuer) continue;
    const eightA = Point.fromAffine(issuer).clearCofactor();
    eightA.precompute(WINDOW, false);
    tables.set(key, { ...issuer, eightA });
  }
  return (credential) => {
    const known = tables.get(credential.issuerKey);
    // The table is the key's only if the credential's point is that key's point.
    if (known && known.x === credential.issuer.x && known.y === credential.issuer.y) return verifyWithKey(credential, known.eightA);
    return verifyCredentialSignature(credential);
  };
}

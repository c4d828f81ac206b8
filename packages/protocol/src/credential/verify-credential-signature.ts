import { poseidon5 } from 'poseidon-lite/poseidon5';
import { Fn, G, Point } from '../v3/baby-jubjub-group.ts';
import type { Credential } from './credential-format.ts';
import { credentialMessage } from './credential-message.ts';

/**
 * Whether the credential's issuer signed its ID and expiry: EdDSA-Poseidon on Baby Jubjub, the
 * equation circomlib's EdDSAPoseidonVerifier checks, S·Base8 = R8 + 8·h·A with h = Poseidon(R8, A, m).
 * A changed ID, expiry or issuer key fails: each is in m or in h. It says nothing about whether the
 * issuer is trusted or the credential still valid. Signed by @zk-kit/eddsa-poseidon, checked here
 * with @noble/curves' points: zk-kit's own `verifySignature` gives the same verdicts (the tests hold
 * both, and the circuit's verifier, to it) but its BigInt arithmetic costs many
 * times more, on a server's event loop (docs/decisions/079).
 */
export function verifyCredentialSignature(credential: Credential): boolean {
  let A: Point;
  try {
    A = Point.fromAffine(credential.issuer);
    A.assertValidity();
  } catch {
    return false;
  }
  return verifyWithKey(credential, A.clearCofactor());
}

/**
 * The signature's equation given 8·A, the issuer's key times the cofactor: a caller that checks many
 * credentials of a few issuers passes a point with window tables (`credentialVerifier`).
 */
export function verifyWithKey(credential: Credential, eightA: Point): boolean {
  const { issuer, id, expiryDay, signature } = credential;
  // A small-order key (8·A = 0) would verify any signature: never. (readCredential refuses every key
  // outside the subgroup; this holds for a Credential built some other way.)
  if (eightA.is0() || signature.S >= Fn.ORDER) return false;
  let R8: Point;
  try {
    R8 = Point.fromAffine({ x: signature.R8[0], y: signature.R8[1] });
    R8.assertValidity();
  } catch {
    return false;
  }
  const h = poseidon5([signature.R8[0], signature.R8[1], issuer.x, issuer.y, credentialMessage(id, expiryDay)]);
  // Public values only: variable-time multiplication leaks nothing secret. S·Base8 and 8·h·A lie in
  // the subgroup, so the equation also holds only for an R8 in it.
  return G.multiplyUnsafe(signature.S).equals(R8.add(eightA.multiplyUnsafe(Fn.create(h))));
}

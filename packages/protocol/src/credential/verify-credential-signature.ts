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
 * both, and the circuit's verifier, to it) but costs about 200 ms of BigInt arithmetic on a server's
 * event loop, against a few milliseconds here.
 */
export function verifyCredentialSignature(credential: Credential): boolean {
  const { issuer, id, expiryDay, signature } = credential;
  let A: Point;
  let R8: Point;
  try {
    A = Point.fromAffine(issuer);
    R8 = Point.fromAffine({ x: signature.R8[0], y: signature.R8[1] });
    A.assertValidity();
    R8.assertValidity();
  } catch {
    return false;
  }
  // A small-order key (8·A = 0) would verify any signature: never. (readCredential refuses every key
  // outside the subgroup; this holds for a Credential built some other way.)
  if (A.clearCofactor().is0() || signature.S >= Fn.ORDER) return false;
  const h = poseidon5([signature.R8[0], signature.R8[1], issuer.x, issuer.y, credentialMessage(id, expiryDay)]);
  // Public values only: variable-time multiplication leaks nothing secret. S·Base8 and 8·h·A lie in
  // the subgroup, so the equation also holds only for an R8 in it.
  const left = G.multiplyUnsafe(signature.S);
  const right = R8.add(A.clearCofactor().multiplyUnsafe(Fn.create(h)));
  return left.equals(right);
}

import { poseidon4 } from 'poseidon-lite/poseidon4';
import { ProtocolInputError } from '../errors.ts';
import type { AffinePoint } from '../v3/baby-jubjub-group.ts';
import { CREDENTIAL_LEAF_DS } from './credential-format.ts';
import { parseIssuerKey } from './issuer-key.ts';

/**
 * The credential leaf of an identity registered with a credential (decision 086): L =
 * Poseidon([CREDENTIAL_LEAF_DS, A.x, A.y, secret]), A the issuer's key (as `issuerPublicKey` prints
 * it, or the point a read credential or `parseIssuerKey` gave) and `secret` the identity's Semaphore
 * secret scalar (`Identity.secretScalar`, 250 bits). The registration circuit outputs it, and the credential tree holds it, so that a sign-in can later prove "a trusted
 * issuer vouched for this person" to a site that asks, naming the issuer only there.
 *
 * L hides the secret and the issuer: it is a Poseidon image with a 250-bit secret inside, so without
 * the secret nobody (the server included) can tell whose leaf it is nor which issuer's, and it is not
 * the identity's commitment, so no row links a leaf to a member of the ordinary tree. Anyone holding
 * the secret can compute it for each trusted issuer, which is how the device finds its own leaf.
 * Returned as a canonical decimal (below the field modulus, as Poseidon's outputs are).
 * Throws `ProtocolInputError('MALFORMED_CREDENTIAL')` for a key that is not a valid issuer key.
 */
export function credentialLeaf(issuerPublicKey: string | AffinePoint, secret: bigint): string {
  const issuer = typeof issuerPublicKey === 'string' ? parseIssuerKey(issuerPublicKey) : issuerPublicKey;
  if (!issuer) throw new ProtocolInputError('MALFORMED_CREDENTIAL', 'The issuer key is not a valid Baby Jubjub public key.');
  return poseidon4([CREDENTIAL_LEAF_DS, issuer.x, issuer.y, secret]).toString();
}

import { ProtocolInputError } from '../errors.ts';
import { isExpired, type Credential } from './credential-format.ts';
import { readCredential } from './read-credential.ts';
import { verifyCredentialSignature } from './verify-credential-signature.ts';

/**
 * A pasted credential checked on the person's device before any proof is made (decision 085), in the
 * server's raw-path order: well formed, from an issuer in `trustedKeys` (GET /issuers, in its order),
 * signed by that issuer, and not expired on the day of `now`. It returns the credential and its
 * issuer's index in the list (its leaf in the trusted issuers' tree). Nothing here is sent anywhere:
 * on the zero-knowledge path the server never sees the credential, so these refusals are the ones a
 * person reads, and a credential that fails them has no witness in the circuit anyway.
 * @throws ProtocolInputError with `MALFORMED_CREDENTIAL`, `ISSUER_NOT_TRUSTED`,
 *   `CREDENTIAL_SIGNATURE_INVALID` or `CREDENTIAL_EXPIRED`; no message quotes the credential.
 */
export function usableCredential(text: string, trustedKeys: readonly string[], now: Date): { credential: Credential; issuerIndex: number } {
  const credential = readCredential(text);
  const issuerIndex = trustedKeys.indexOf(credential.issuerKey);
  if (issuerIndex === -1)
    throw new ProtocolInputError(
      'ISSUER_NOT_TRUSTED',
      "The credential's issuer is not one this server trusts (GET /issuers lists the issuers).",
    );
  if (!verifyCredentialSignature(credential))
    throw new ProtocolInputError(
      'CREDENTIAL_SIGNATURE_INVALID',
      "The credential's signature does not verify: it was changed, or the key it names did not issue it.",
    );
  if (isExpired(credential, now))
    throw new ProtocolInputError('CREDENTIAL_EXPIRED', 'The credential has expired: ask its issuer for a new one.');
  return { credential, issuerIndex };
}

import type { TrustedIssuer } from '../credentials/trusted-issuers.ts';
import type { OidcRepository } from '../storage/types.ts';

/** The scope a site asks with to be told which organisation vouches for the person's ID (decision 088). */
export const CREDENTIAL_SCOPE = 'credential';
/** The claims of that scope, in the ID token and userinfo, only when the sign-in proved them. */
export const CREDENTIAL_CLAIMS = ['credential_issuer', 'credential_issuer_name'] as const;
/** The record holding one grant's claim values, beside the provider's own records in `oidc_models`. */
const MODEL = 'CredentialClaim';

/** What a valid credential proof lets the site be told: the issuer's public key and its name in TRUSTED_ISSUERS. */
export interface CredentialClaim {
  credential_issuer: string;
  credential_issuer_name: string;
}

/** Whether an authorization request's `scope` parameter asks for the credential. */
export function asksCredential(scope: unknown): boolean {
  return typeof scope === 'string' && scope.split(' ').includes(CREDENTIAL_SCOPE);
}

/**
 * Keeps a grant's claim values as long as the grant lives, keyed by the grant: the code and the
 * tokens issued under it carry its id, and only they can read the values back. The record names the
 * pseudonym and the site, as the grant does, so an erasure forgets it with the grant (decision 036).
 * It names the issuer and nothing of the credential leaf or the registration.
 */
export async function saveCredentialClaim(
  oidc: OidcRepository,
  grant: { grantId: string; accountId: string; clientId: string; expiresAt: number },
  claim: CredentialClaim,
): Promise<void> {
  const { grantId, accountId, clientId, expiresAt } = grant;
  await oidc.upsert(MODEL, grantId, JSON.stringify(claim), expiresAt, { grantId, accountId, clientId });
}

/** The claim values of the grant `grantId`, if its sign-in proved a credential. */
export async function credentialClaimOf(oidc: OidcRepository, grantId: string | undefined): Promise<CredentialClaim | undefined> {
  if (grantId === undefined) return undefined;
  const row = await oidc.find(MODEL, grantId);
  if (!row) return undefined;
  const { credential_issuer, credential_issuer_name } = JSON.parse(row.payload) as Partial<CredentialClaim>;
  return typeof credential_issuer === 'string' && typeof credential_issuer_name === 'string'
    ? { credential_issuer, credential_issuer_name }
    : undefined;
}

/**
 * A stored claim as it may be told now: only while its issuer is still in TRUSTED_ISSUERS, under the
 * name the operator gives it now. A token issued before a restart that removed the issuer keeps
 * working for `sub`, never for the issuer (decision 079: a removed issuer is never claimed).
 */
export function claimStillTrue(claim: CredentialClaim | undefined, trustedIssuers: readonly TrustedIssuer[]): CredentialClaim | undefined {
  const issuer = claim && trustedIssuers.find((trusted) => trusted.publicKey === claim.credential_issuer);
  return issuer && { credential_issuer: issuer.publicKey, credential_issuer_name: issuer.name };
}

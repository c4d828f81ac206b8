import {
  CREDENTIAL_PREFIX,
  credentialVerifier,
  isCredentialText,
  isExpired,
  readCredential,
  verifyCredentialSignature,
  type Credential,
} from '@zeroid/protocol/credential';
import { ProtocolInputError } from '@zeroid/protocol';
import type { AffinePoint } from '@zeroid/protocol/v3';
import { badRequest } from '../problem.ts';
import type { TrustedIssuer } from './trusted-issuers.ts';

/** What the server's configuration says about credentials (decision 079). */
export interface CredentialPolicy {
  trustedIssuers: readonly TrustedIssuer[];
  requireCredential: boolean;
}

/**
 * The ID a raw request stands for: a plain ID's text, or a credential's ID with its issuer's key, which
 * the derivation puts in the ID tag (`credentialIdTag`). The credential itself goes no further.
 */
export interface RawId {
  idInfo: string;
  issuer?: AffinePoint;
}

/** Refused before anything is derived or counted: each is a 400 with its own code, and none quotes the text. */
export const CREDENTIAL_REQUIRED_MESSAGE =
  'This server registers only IDs vouched for by a trusted issuer: paste the credential your issuer gave you as the ID (GET /issuers lists the issuers).';

function readOrRefuse(normalised: string): Credential {
  try {
    return readCredential(normalised);
  } catch (error) {
    if (error instanceof ProtocolInputError) throw badRequest('MALFORMED_CREDENTIAL', error.message);
    throw error;
  }
}

/** One verifier per list of trusted issuers, with their keys' window tables, built on first use. */
const verifiers = new WeakMap<readonly TrustedIssuer[], (credential: Credential) => boolean>();
function verifierOf(issuers: readonly TrustedIssuer[]) {
  let verifier = verifiers.get(issuers);
  if (!verifier) verifiers.set(issuers, (verifier = credentialVerifier(issuers.map((issuer) => issuer.publicKey))));
  return verifier;
}

function assertSigned(credential: Credential, verify: (credential: Credential) => boolean = verifyCredentialSignature): void {
  if (!verify(credential)) {
    throw badRequest(
      'CREDENTIAL_SIGNATURE_INVALID',
      "The credential's signature does not verify: it was changed, or the key it names did not issue it.",
    );
  }
}

/**
 * A registration's ID (raw path): a credential (told by its reserved prefix) must be well formed,
 * name a key in `TRUSTED_ISSUERS`, be signed by it, and not expired on the server's clock at
 * the request (`now`); a plain ID is refused when `REQUIRE_CREDENTIAL` is true. `normalised` is
 * `id_info` after normalisation.
 */
export function registrationId(normalised: string, policy: CredentialPolicy, now: Date): RawId {
  if (!isCredentialText(normalised)) {
    if (policy.requireCredential) throw badRequest('CREDENTIAL_REQUIRED', CREDENTIAL_REQUIRED_MESSAGE);
    return { idInfo: normalised };
  }
  const credential = readOrRefuse(normalised);
  // Trust first: a key nobody trusts costs no signature check.
  if (!policy.trustedIssuers.some((issuer) => issuer.publicKey === credential.issuerKey)) {
    throw badRequest('ISSUER_NOT_TRUSTED', "The credential's issuer is not one this server trusts (GET /issuers lists the issuers).");
  }
  assertSigned(credential, verifierOf(policy.trustedIssuers));
  if (isExpired(credential, now)) throw badRequest('CREDENTIAL_EXPIRED', 'The credential has expired: ask its issuer for a new one.');
  return { idInfo: credential.id, issuer: credential.issuer };
}

/**
 * An erasure's ID (raw path): a credential need only be well formed and signed by the key it names.
 * An expired credential, or one whose issuer the operator no longer trusts, still erases the
 * identity it registered: erasure also needs the biometric, and a person must never be left unable to
 * remove themselves (decision 079). `REQUIRE_CREDENTIAL` does not apply: a plain identity registered
 * before it was set still erases. So does a plain identity registered, before the prefix was reserved
 * in any case, under a credential whose prefix was upper-cased: a prefix of another case is plain text here.
 */
export function erasureId(normalised: string): RawId {
  if (!isCredentialText(normalised) || !normalised.startsWith(CREDENTIAL_PREFIX)) return { idInfo: normalised };
  const credential = readOrRefuse(normalised);
  assertSigned(credential);
  return { idInfo: credential.id, issuer: credential.issuer };
}

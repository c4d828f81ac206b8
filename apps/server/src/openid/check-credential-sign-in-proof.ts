import { isCanonicalBelow, signInMessage, SNARK_SCALAR_FIELD, type WireCredentialSignInProof } from '@zeroid/protocol';
import type { TrustedIssuer } from '../credentials/trusted-issuers.ts';
import type { Registry } from '../member-tree/member-tree.ts';
import { Problem } from '../problem.ts';
import type { Storage } from '../storage/types.ts';
import type { CredentialClaim } from './credential-claim.ts';
import type { SignInBinding } from './check-sign-in-proof.ts';

/** What checking a credential sign-in proof needs (the app's dependencies have these names). */
export interface CredentialProofServices {
  config: { rootWindowMs: number; trustedIssuers: readonly TrustedIssuer[] };
  storage: Storage;
  credentialRegistry: Registry;
  /** The Groth16 check of the sign-in credential circuit for this scope and message (decision 087's key). */
  verifyCredentialProof: (proof: WireCredentialSignInProof, binding: { scope: string; message: string }) => Promise<boolean>;
}

const invalid = (why: string) =>
  new Problem(400, 'INVALID_CREDENTIAL_PROOF', `The credential proof was not accepted: ${why} Nothing was signed in; please try again.`);

/**
 * The credential proof a sign-in sends when its site asked for `credential` (decision 088), checked
 * before the sign-in's own proof, cheapest first, every value from the server's records:
 * 1. the issuer is in TRUSTED_ISSUERS now (a removed issuer is never claimed);
 * 2. the nullifier is the sign-in proof's: Poseidon(scope, secret) for the same scope, so the same
 *    secret, so the same person as the sign-in proof (which proves that secret is registered);
 * 3. the root is one of the credential tree's, current or superseded less than the root window ago
 *    (the member tree's window), never 0 or foreign: the Groth16 check alone accepts any root;
 * 4. the Groth16 proof is valid for the sign-in's own scope and message, so it was made for this
 *    sign-in and no other (a replay at another sign-in has the wrong message).
 * Valid: the claim the site may be told. Anything else is a 400 `INVALID_CREDENTIAL_PROOF`, and the
 * challenge is not consumed, so the person can try again. Nothing is stored, whatever the verdict.
 */
export async function checkCredentialSignInProof(
  services: CredentialProofServices,
  proof: WireCredentialSignInProof,
  signInNullifier: string,
  { scope, uid, challenge }: SignInBinding,
): Promise<CredentialClaim> {
  const issuer = services.config.trustedIssuers.find((trusted) => trusted.publicKey === proof.issuer);
  if (!issuer) throw invalid('its issuer is not one this server trusts.');
  if (proof.nullifier !== signInNullifier) throw invalid('it is not for the person signing in.');
  if (!isCanonicalBelow(proof.merkleTreeRoot, SNARK_SCALAR_FIELD) || proof.merkleTreeRoot === '0') {
    throw invalid('its credential tree root is not one of ours.');
  }
  const tree = services.credentialRegistry;
  await tree.catchUp();
  const standing =
    proof.merkleTreeRoot === tree.root
      ? { accepted: true }
      : await services.storage.credentialRoots.standing(proof.merkleTreeRoot, services.config.rootWindowMs);
  if (!standing) throw invalid('its credential tree root is not one of ours.');
  if (!standing.accepted) throw invalid('the credential tree changed while it was made.');
  if (!(await services.verifyCredentialProof(proof, { scope, message: signInMessage(challenge, uid) }))) {
    throw invalid('it does not verify.');
  }
  return { credential_issuer: issuer.publicKey, credential_issuer_name: issuer.name };
}

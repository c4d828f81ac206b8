import type { BlindedQuery } from '../v3/blind-query.ts';
import { registrationProofInput, registrationPublicSignals, type RegistrationStatement } from '../v3/registration-proof-input.ts';
import type { Credential } from './credential-format.ts';
import type { IssuerPath } from './issuer-tree.ts';

/** A credential registration's statement: registration-v3's, plus the day and the trusted issuers' root. */
export interface CredentialStatement extends RegistrationStatement {
  /** The day number (UTC) the credential must not be expired on: the challenge's day, or the day it expires. */
  today: number;
  /** The root of the trusted issuers' tree (`issuerTree`). */
  issuersRoot: bigint;
}

/**
 * The prover's input for `circuits/registration-credential.circom` (decision 085). The proof shows
 * what registration-v3's shows (the commitment and the OPRF rounds), and that the ID of the ID round
 * is the ID of `credential`, signed by an issuer in the tree of `statement.issuersRoot` (at `path`)
 * and not expired on `statement.today`, and it outputs the credential leaf of that issuer and the
 * biometric's secret (decision 086). It hides the ID, the credential, its expiry, its signature and
 * which issuer signed it: all of them are private inputs. `id` must be the blinded round of
 * `credential.id` (normalised), or no witness exists.
 */
export function credentialProofInput(
  bio: BlindedQuery,
  id: BlindedQuery,
  credential: Pick<Credential, 'issuer' | 'signature' | 'expiryDay'>,
  path: IssuerPath,
  statement: CredentialStatement,
): Record<string, string | string[]> {
  return {
    ...registrationProofInput(bio, id, statement),
    issuer: [credential.issuer.x.toString(), credential.issuer.y.toString()],
    signatureR8: credential.signature.R8.map(String),
    signatureS: credential.signature.S.toString(),
    expiryDay: credential.expiryDay.toString(),
    issuerPath: path.pathBits.map(String),
    issuerSiblings: path.siblings.map(String),
    today: statement.today.toString(),
    issuersRoot: statement.issuersRoot.toString(),
  };
}

/**
 * The credential circuit's public signals in snarkjs's order (decision 086): the outputs commitment,
 * the credential ID tag and the credential leaf (`credentialLeaf`, a canonical decimal), then
 * registration-v3's inputs (B_bio, Z_bio, B_id, Z_id, K, challenge, didHash), today and issuersRoot. The
 * registrar builds them from what it checked itself, never from the client's copy: a proof holds only
 * for the one leaf its witness computes, so the leaf the server files is the one the circuit made.
 */
export function credentialPublicSignals(
  commitment: string,
  idTagField: bigint,
  credentialLeaf: string,
  statement: CredentialStatement,
): string[] {
  const [, , ...inputs] = registrationPublicSignals(commitment, idTagField, statement);
  return [commitment, idTagField.toString(), credentialLeaf, ...inputs, statement.today.toString(), statement.issuersRoot.toString()];
}

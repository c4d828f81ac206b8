import type { Metrics } from '../metrics.ts';
import type { Registry } from '../member-tree/member-tree.ts';
import { PROOF_VERIFICATION, RAW_ERASURE } from '../limits/guess-costs.ts';
import { spendGuess, type AdmitGuess } from '../limits/spend-guess.ts';
import type { Storage } from '../storage/types.ts';
import { eraseIdentities, eraseSigned, type SignedErasure } from './erase-identity.ts';
import type { RawDeriver } from './raw/raw-deriver.ts';
import type { RawValues } from './raw/raw-identity.ts';
import { subjectsOfSecret } from '../openid/forget-sign-ins.ts';
import type { ProofVerifier } from '../proofs/verifier/proof-verifier.ts';
import { provenSignInSubjects } from './erasure-sign-in-proofs.ts';
import { badRequest } from '../problem.ts';

const REFUSED_PROOF = 'refused-proof';

/** An erasure request checked to be well formed: signed (zero-knowledge), or the raw values, normalised. */
export type ErasureRequest =
  | {
      signed: Omit<SignedErasure, 'signInSubjects'>;
      signInProofs: readonly unknown[];
      /** A protocol v3 erasure's proof of the secret (its `ownProof`); a v2 one's signatures proved it. */
      ownProof?: unknown;
      /** With a v3 erasure, the person's v2 identity, erased in the same transaction or neither is (decision 073). */
      v2?: { signed: Omit<SignedErasure, 'signInSubjects'>; signInProofs: readonly unknown[] };
    }
  | RawValues;

/**
 * The erasure use case (POST /erase, decision 022), admitted like a verification: a failure is
 * reserved (and two guesses on the raw path, which evaluates the OPRF for the ID and the biometric),
 * and given back when the identity was erased or on an error (`spendGuess`), except a sign-in proof
 * that fails its Groth16 check: a 400 that keeps the failure, as a refused proof at /verify does. The raw values are
 * derived and dropped, as at registration. The person's Sign in with ZeroID records go with the
 * identity: found from the pseudonyms the zero-knowledge body proves (decision 048), or from the
 * secret the raw path derives here, of both protocol versions. The raw path erases every identity
 * the texts name, v3 and v2, in one transaction (decision 073). True when the identity was erased.
 */
export async function eraseClaim(
  services: { storage: Storage; registry: Registry; deriver: RawDeriver; metrics: Metrics; proofVerifier: ProofVerifier },
  admit: AdmitGuess,
  request: ErasureRequest,
): Promise<boolean> {
  const { storage, registry, deriver, metrics, proofVerifier } = services;
  if ('signed' in request) {
    const { signed, signInProofs, ownProof, v2 } = request;
    const outcome = await spendGuess(
      admit,
      PROOF_VERIFICATION,
      async () => {
        const signInSubjects = await provenSignInSubjects(storage, proofVerifier, { ...signed, ownProof }, signInProofs);
        if (signInSubjects === undefined) return REFUSED_PROOF;
        const erasures = [{ ...signed, signInSubjects }];
        if (v2) {
          const v2Subjects = await provenSignInSubjects(storage, proofVerifier, v2.signed, v2.signInProofs);
          if (v2Subjects === undefined) return REFUSED_PROOF;
          erasures.push({ ...v2.signed, signInSubjects: v2Subjects });
        }
        return eraseSigned(storage, registry, erasures);
      },
      // A refused sign-in proof cost Groth16 checks, so it keeps the reserved failure (decision 055).
      (erased) => erased !== true,
    );
    if (outcome === REFUSED_PROOF) throw badRequest('INVALID_PROOF', 'A proof of the erasure does not verify.');
    return outcome;
  }
  return spendGuess(
    admit,
    RAW_ERASURE,
    async () => {
      const { v3, v2 } = await deriver.registration({ ...request, withSecretScalar: true });
      metrics.oprfEvaluations.inc({ kind: 'direct' }, 4);
      // Every identity the texts name goes, v3 and v2 alike, in one transaction (decision 073): a
      // person may hold both (registered through the zero-knowledge window of decision 056).
      const signInSubjects: string[] = [];
      for (const identity of [v3, v2]) {
        if (identity.secretScalar !== undefined) signInSubjects.push(...(await subjectsOfSecret(storage, BigInt(identity.secretScalar))));
      }
      return eraseIdentities(storage, registry, [v3, v2], signInSubjects, 'any');
    },
    (erased) => !erased,
  );
}

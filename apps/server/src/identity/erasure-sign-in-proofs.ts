import { nullifierSubject, parseSemaphoreProof, type WireSemaphoreProof } from '@zeroid/protocol';
import { sectorScopes } from '../openid/forget-sign-ins.ts';
import { badRequest, challengeUnusable } from '../problem.ts';
import type { ProofVerifier } from '../proofs/verifier/proof-verifier.ts';
import type { Storage } from '../storage/types.ts';

/** A group of one member: its LeanIMT root is the member's commitment, at the smallest depth. */
const ERASURE_PROOF_DEPTH = 1;

type Erasure = { commitment: string; challenge: string };

/** A proof about this identity alone (a depth-1 group whose root is the commitment), for this erasure alone (its message). */
const inOwnGroup = (proof: WireSemaphoreProof, erasure: Erasure) =>
  proof.merkleTreeDepth === ERASURE_PROOF_DEPTH && proof.merkleTreeRoot === erasure.commitment && proof.message === erasure.challenge;

/**
 * A protocol v3 erasure's proof of the secret (decision 056; v3 has no EdDSA key to sign with): in
 * the identity's own group, with message and scope the erasure's challenge.
 */
const ownsCommitment = (proof: WireSemaphoreProof, erasure: Erasure) => inOwnGroup(proof, erasure) && proof.scope === erasure.challenge;

/**
 * The erased person's pseudonym at every registered sector, proven without the secret (decision
 * 048). A zero-knowledge erasure brings one Semaphore proof per sector: in the group of its own
 * commitment alone (root = the commitment, so the proof is about this identity and no other), with
 * message = the erasure's challenge (consumed by the erasure, so a proof is never replayed) and
 * scope = the sector's, whose nullifier is then the person's pseudonym there (`signInSubject`). Every
 * sector must be covered, each once; anything else is a 400 before the challenge is spent. The
 * Groth16 checks run last, on the batched verifier, and only for a challenge that is still usable
 * (decision 055): a body made offline with a challenge nobody issued, or replayed after its erasure,
 * is a 400 before any proof costs a check. A v3 erasure's `ownProof` (`ownsCommitment`) is checked
 * the same way, in the same batch. Undefined when a proof fails its Groth16 check: the caller
 * counts that as a failed verification.
 */
export async function provenSignInSubjects(
  storage: Storage,
  verifier: ProofVerifier,
  erasure: Erasure & { ownProof?: unknown },
  wireProofs: readonly unknown[],
): Promise<string[] | undefined> {
  const ownProof = erasure.ownProof === undefined ? undefined : parseSemaphoreProof(erasure.ownProof);
  if (ownProof && !ownsCommitment(ownProof, erasure)) {
    throw badRequest(
      'ERASURE_PROOF_MISMATCH',
      "The erasure's own proof must be in the erased commitment's own group, with message and scope its challenge.",
    );
  }
  const proofs = wireProofs.map(parseSemaphoreProof);
  const scopes = await sectorScopes(storage);
  const proven = new Set(proofs.map((proof) => String(proof.scope)));
  const bound = proofs.every((proof) => inOwnGroup(proof, erasure));
  if (!bound || proven.size !== proofs.length || proven.size !== scopes.length || !scopes.every((scope) => proven.has(scope))) {
    throw badRequest(
      'SIGN_IN_PROOFS_MISMATCH',
      "The erasure needs one proof per sector of GET /erase/sign-in-scopes, in the erased commitment's own group, bound to its challenge.",
    );
  }
  // A read, not the consumption: that stays atomic with the erasure (`eraseSigned`).
  if (!(await storage.challenges.isUsable(erasure.challenge))) throw challengeUnusable();
  const verdicts = await Promise.all([...proofs, ...(ownProof ? [ownProof] : [])].map((proof) => verifier.verify(proof)));
  if (!verdicts.every(Boolean)) return undefined;
  return proofs.map((proof) => nullifierSubject(String(proof.nullifier)));
}

import { sessionMessage, type WireSemaphoreProof } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';
import type { ProofVerifier } from './proof-verifier/proof-verifier.ts';
import type { Registry } from './registry.ts';

export type ProofVerdict = 'Success' | 'Failure';

/**
 * Checks a Semaphore v4 membership proof bound to a one-time challenge, cheapest checks first:
 * 1. shape: depth 1–32, every public input and point canonical and below the field modulus (a 400,
 *    by `parseSemaphoreProof`, which the caller runs before it admits the attempt);
 * 2. binding: the scope is the challenge, and the message is the challenge (or binds it to a session);
 * 3. depth: the depth of our own tree, the only one we serve artifacts for;
 * 4. root: in our own root history (never 0, never a foreign root: `verifyProof` alone accepts any);
 * 5. the challenge is consumed atomically, so a replay, however re-encoded, fails here;
 * 6. finally the Groth16 pairing check, batched with concurrent ones on worker threads (decision
 *    008); a malformed point is a Failure.
 */
export async function verifyMembershipProof(
  deps: {
    storage: Storage;
    registry: Registry;
    verifier: ProofVerifier;
    rootWindowMs: number;
    observePairing?: (seconds: number) => void;
  },
  proof: WireSemaphoreProof,
  session?: string,
): Promise<ProofVerdict> {
  // The scope is the challenge; the message is the challenge too, or, for a cross-device session,
  // binds the session as well.
  if (proof.message !== (session === undefined ? proof.scope : sessionMessage(proof.scope, session))) return 'Failure';

  await deps.registry.catchUp();
  if (proof.merkleTreeDepth !== deps.registry.provingDepth) return 'Failure';
  if (proof.merkleTreeRoot === '0') return 'Failure';
  if (!(await deps.storage.roots.isAccepted(proof.merkleTreeRoot, deps.rootWindowMs))) return 'Failure';
  if (!(await deps.storage.challenges.consume(proof.scope))) return 'Failure';

  const started = performance.now();
  try {
    return (await deps.verifier.verify(proof)) ? 'Success' : 'Failure';
  } catch {
    return 'Failure';
  } finally {
    deps.observePairing?.((performance.now() - started) / 1000);
  }
}

import { isZeroSecretProof, sessionMessage, ZERO_SECRET_COMMITMENT, type Verdict, type WireSemaphoreProof } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';
import type { ProofVerifier } from './verifier/proof-verifier.ts';
import { provingDepthFor, type Registry } from '../member-tree/member-tree.ts';

/**
 * A proof's verdict. 'Stale' is a Failure for the client, but not a failed guess: the proof is
 * against a root of ours that left the window before the proof arrived (a slow prover, a tree that
 * moved), which says nothing about whether its maker is registered.
 */
export type ProofVerdict = Verdict | 'Stale';

/**
 * What a proof must be bound to, when it is not the plain verification's "scope = message = challenge":
 * a sign-in's scope is the site's sector and its message binds the challenge to the authorization
 * request (decision 023). `challenge` is the one-time challenge consumed in step 6.
 */
export interface ProofBinding {
  scope: string;
  message: string;
  challenge: string;
}

/**
 * Checks a Semaphore v4 membership proof bound to a one-time challenge, cheapest checks first:
 * 1. shape: depth 1–32, every public input and point canonical and below the field modulus (a 400,
 *    by `parseSemaphoreProof`, which the caller runs before it admits the verification);
 * 2. binding: the scope is the challenge, and the message is the challenge (or binds it to a session);
 * 3. root: in our own root history (never 0, never a foreign root: `verifyProof` alone accepts any),
 *    and still in its window, else 'Stale';
 * 4. not made with the secret 0, whose key is the identity point (anyone can prove for its leaf). A
 *    proof with the secret 0 proves the leaf poseidon2(0, 1), so against the current root, whose tree
 *    we hold, it is only possible if that tree holds that leaf: an index lookup instead of the
 *    Poseidon hash of `isZeroSecretProof`, which cost as much as a fifth of a pairing check (decision
 *    030). Against any other root, and whenever the leaf is there, the nullifier is checked;
 * 5. depth: the depth of the tree that root is the root of, which is the current depth or, for a root
 *    from before the group passed a power of two, a smaller one (we serve artifacts for every depth);
 * 6. the challenge is consumed atomically, so a replay, however re-encoded, fails here;
 * 7. finally the Groth16 pairing check, batched with concurrent ones on worker threads (decision
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
  binding?: ProofBinding,
): Promise<ProofVerdict> {
  // The scope is the challenge; the message is the challenge too, or, for a cross-device session,
  // binds the session as well. A sign-in (decision 023) brings its own binding instead.
  const expected = binding ?? {
    scope: proof.scope,
    message: session === undefined ? proof.scope : sessionMessage(proof.scope, session),
    challenge: proof.scope,
  };
  if (proof.scope !== expected.scope || proof.message !== expected.message) return 'Failure';

  await deps.registry.catchUp();
  if (proof.merkleTreeRoot === '0') return 'Failure';
  const current = proof.merkleTreeRoot === deps.registry.root;
  if ((!current || deps.registry.holds(ZERO_SECRET_COMMITMENT)) && isZeroSecretProof(proof)) return 'Failure';
  // The root the tree has just caught up to is in the root history (catchUp records it first) and
  // has no successor: standing, as the database would say, without asking it twice.
  const root = current
    ? { size: deps.registry.size, accepted: true }
    : await deps.storage.roots.standing(proof.merkleTreeRoot, deps.rootWindowMs);
  if (root === undefined) return 'Failure';
  if (!root.accepted) return 'Stale';
  if (proof.merkleTreeDepth !== provingDepthFor(root.size)) return 'Failure';
  if (!(await deps.storage.challenges.consume(expected.challenge))) return 'Failure';

  const started = performance.now();
  try {
    return (await deps.verifier.verify(proof)) ? 'Success' : 'Failure';
  } catch {
    return 'Failure';
  } finally {
    deps.observePairing?.((performance.now() - started) / 1000);
  }
}

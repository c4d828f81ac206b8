import { poseidon2 } from 'poseidon-lite/poseidon2';
import { semaphoreHash } from './semaphore-hash.ts';
import { nullifierSubject } from './sign-in-scope.ts';

/**
 * The `sub` a Semaphore identity gets at a sector (decision 023), computed from its secret scalar:
 * the nullifier every proof for that scope carries, `Poseidon(hash(scope), secret)`, as
 * `nullifierSubject` encodes it. Only the holder of the secret can compute it; an erasure, which
 * hands the secret over with the identity (decision 036), uses it to find every record of the person.
 */
export function signInSubject(scope: string, secretScalar: bigint): string {
  return nullifierSubject(poseidon2([semaphoreHash(scope), secretScalar]).toString());
}

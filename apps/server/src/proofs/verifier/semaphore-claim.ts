import { isCanonicalBelow, semaphoreHash } from '@zeroid/protocol';
import { unpackGroth16Proof, type SemaphoreProof } from '@semaphore-protocol/proof';
import type { Groth16Claim } from './batch-verify.ts';
import { semaphoreKeyName } from './verification-keys.ts';

/** A non-negative integer in canonical decimal below `bound`; anything else (spaces, signs, hex) is refused. */
function canonical(value: unknown, bound: bigint): string {
  if (!isCanonicalBelow(value, bound)) throw new TypeError('not a canonical number');
  return value;
}

/**
 * The Groth16 statement a Semaphore v4 proof makes, as `verifyProof` builds it for snarkjs. Throws
 * on any number that is not canonical decimal (BigInt() would accept " 1", "-1" or "0x1", which
 * snarkjs' verifier refuses), and on a message or scope of 2^256 or more (Semaphore's hash takes 32
 * bytes): a uint256 has up to 78 digits, one more than a field element, which is why this bound is
 * not the wire's `CANONICAL_DECIMAL`.
 */
export function semaphoreClaim(proof: SemaphoreProof): Groth16Claim {
  const TWO_256 = 2n ** 256n;
  for (const value of [proof.merkleTreeRoot, proof.nullifier, proof.message, proof.scope]) canonical(value, TWO_256);
  if (!Array.isArray(proof.points) || proof.points.length !== 8) throw new TypeError('a proof has 8 points');
  for (const point of proof.points) canonical(point, TWO_256);
  const unpacked = unpackGroth16Proof(proof.points) as unknown as Groth16Claim['proof'];
  return {
    key: semaphoreKeyName(proof.merkleTreeDepth),
    publicSignals: [proof.merkleTreeRoot, proof.nullifier, semaphoreHash(proof.message), semaphoreHash(proof.scope)].map(String),
    proof: { pi_a: unpacked.pi_a.map(String), pi_b: unpacked.pi_b.map((c) => c.map(String)), pi_c: unpacked.pi_c.map(String) },
  };
}

import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { unpackGroth16Proof, type SemaphoreProof } from '@semaphore-protocol/proof';
import type { Groth16Claim } from './batch-verify.ts';

/** Semaphore's `hash`: keccak256 of the value as 32 big-endian bytes, shifted into the scalar field. */
function semaphoreHash(value: string): string {
  const bytes = new Uint8Array(32);
  let n = BigInt(value);
  for (let i = 31; i >= 0; i--, n >>= 8n) bytes[i] = Number(n & 0xffn);
  return (BigInt(`0x${bytesToHex(keccak_256(bytes))}`) >> 8n).toString();
}

/** The Groth16 statement a Semaphore v4 proof makes, as `verifyProof` builds it for snarkjs. */
export function semaphoreClaim(proof: SemaphoreProof): Groth16Claim {
  const unpacked = unpackGroth16Proof(proof.points) as unknown as Groth16Claim['proof'];
  return {
    depth: proof.merkleTreeDepth,
    publicSignals: [proof.merkleTreeRoot, proof.nullifier, semaphoreHash(proof.message), semaphoreHash(proof.scope)].map(String),
    proof: { pi_a: unpacked.pi_a.map(String), pi_b: unpacked.pi_b.map((c) => c.map(String)), pi_c: unpacked.pi_c.map(String) },
  };
}

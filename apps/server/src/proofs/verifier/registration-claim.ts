import { unpackGroth16Proof, type SemaphoreProof } from '@semaphore-protocol/proof';
import type { Groth16Claim } from './batch-verify.ts';
import { REGISTRATION_V3_KEY } from './verification-keys.ts';

/**
 * The Groth16 claim of a v3 registration proof (decision 056): the proof's eight numbers, packed as
 * Semaphore packs its own (the wire's `Groth16Points`, canonical decimals already), and the public
 * signals the server built from what it checked itself (`registrationPublicSignals`), never the
 * client's. Verified by the same batched verifier as membership proofs, under `registration-v3.vkey.json`
 * (or `key`: the credential circuit's, decision 085).
 */
export function registrationClaim(points: readonly string[], publicSignals: string[], key = REGISTRATION_V3_KEY): Groth16Claim {
  if (points.length !== 8) throw new TypeError('a Groth16 proof has 8 numbers');
  const unpacked = unpackGroth16Proof(points as unknown as SemaphoreProof['points']) as unknown as Groth16Claim['proof'];
  return {
    key,
    publicSignals,
    proof: { pi_a: unpacked.pi_a.map(String), pi_b: unpacked.pi_b.map((c) => c.map(String)), pi_c: unpacked.pi_c.map(String) },
  };
}

import { G, randomScalar, type Point } from './baby-jubjub-group.ts';
import { proveDleq, type DleqProof } from './dleq-proof.ts';

/**
 * The evaluator's side of a v3 round (the single-key server, or one node with its share kᵢ):
 * Z = k·B and a DLEQ proof that the same k is behind the published K = k·G. `blinded` must come from
 * `decodePoint`, which refuses the identity, small- and mixed-order points: the brute-force gate.
 * `nonce` is for known-answer tests only.
 */
export function evaluateBlinded(
  privateKey: bigint,
  blinded: Point,
  nonce: bigint = randomScalar(),
): { evaluated: Point; proof: DleqProof } {
  const evaluated = blinded.multiply(privateKey);
  return { evaluated, proof: proveDleq(privateKey, G.multiply(privateKey), blinded, evaluated, nonce) };
}

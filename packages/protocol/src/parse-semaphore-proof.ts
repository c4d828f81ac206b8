import { ProtocolInputError } from './errors.ts';
import { isBaseFieldElement, isFieldElement } from './field.ts';

/** A packed Groth16 proof: the coordinates of π_A, π_B and π_C, as Semaphore v4 lays them out. */
export type PackedPoints = [string, string, string, string, string, string, string, string];

/** A Semaphore v4 proof as it crosses the wire: every number canonical decimal. */
export interface WireSemaphoreProof {
  merkleTreeDepth: number;
  merkleTreeRoot: string;
  nullifier: string;
  message: string;
  scope: string;
  points: PackedPoints;
}

/** The circuits exist for depths 1 to 32. */
export const MIN_DEPTH = 1;
export const MAX_DEPTH = 32;

/**
 * Checks what `verifyProof` does not, before it runs, and returns a fresh object holding only the
 * proof's fields: depth 1–32, exactly eight point coordinates
 * (each below the base field modulus q), and every public input a canonical decimal below the scalar
 * field modulus r. A number at or above the
 * modulus would alias a smaller one; hex or leading zeros would let one proof be sent in many
 * spellings. `verifyProof` also throws on some malformed values, which must be a 400, not a 500.
 *
 * @throws ProtocolInputError('INVALID_PROOF')
 */
export function parseSemaphoreProof(value: unknown): WireSemaphoreProof {
  const invalid = (why: string) => new ProtocolInputError('INVALID_PROOF', `The proof is malformed: ${why}.`);
  if (typeof value !== 'object' || value === null) throw invalid('not an object');
  const proof = value as Record<string, unknown>;
  const depth = proof.merkleTreeDepth;
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < MIN_DEPTH || depth > MAX_DEPTH) {
    throw invalid(`the tree depth must be an integer from ${MIN_DEPTH} to ${MAX_DEPTH}`);
  }
  const inputs = ['merkleTreeRoot', 'nullifier', 'message', 'scope'] as const;
  for (const name of inputs) {
    if (!isFieldElement(proof[name])) throw invalid(`${name} must be a canonical decimal below the field modulus`);
  }
  const points = proof.points;
  if (!Array.isArray(points) || points.length !== 8) throw invalid('there must be exactly 8 points');
  // Coordinates live in the base field q, which is larger than r: a valid proof may hold one in [r, q).
  if (!points.every(isBaseFieldElement)) throw invalid('every point coordinate must be a canonical decimal below the base field modulus');
  return {
    merkleTreeDepth: depth,
    merkleTreeRoot: proof.merkleTreeRoot as string,
    nullifier: proof.nullifier as string,
    message: proof.message as string,
    scope: proof.scope as string,
    points: [...points] as PackedPoints,
  };
}

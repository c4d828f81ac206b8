import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { Fn, decodePoint, encodePoint, type Point } from './baby-jubjub-group.ts';
import type { DleqProof } from './dleq-proof.ts';

/** Bytes of an encoded evaluation: Z (32), then the proof's e and s (32 each, little-endian). */
export const EVALUATION_BYTES = 96;

/** An evaluation on the wire: Z ‖ e ‖ s. */
export function encodeEvaluation(evaluated: Point, proof: DleqProof): Uint8Array {
  const bytes = new Uint8Array(EVALUATION_BYTES);
  bytes.set(encodePoint(evaluated), 0);
  bytes.set(numberToBytesLE(proof.e, 32), 32);
  bytes.set(numberToBytesLE(proof.s, 32), 64);
  return bytes;
}

/** The evaluation in `bytes`, or undefined unless Z is a valid subgroup point, e < r and s < ℓ. */
export function decodeEvaluation(bytes: Uint8Array): { evaluated: Point; proof: DleqProof } | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length !== EVALUATION_BYTES) return undefined;
  const evaluated = decodePoint(bytes.subarray(0, 32));
  const e = bytesToNumberLE(bytes.subarray(32, 64));
  const s = bytesToNumberLE(bytes.subarray(64, 96));
  return evaluated && e < SNARK_SCALAR_FIELD && s < Fn.ORDER ? { evaluated, proof: { e, s } } : undefined;
}

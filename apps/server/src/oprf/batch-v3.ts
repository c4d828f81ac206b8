import { OPRF_BATCH_MAX } from '@zeroid/protocol';
import {
  decodeEvaluation,
  decodePoint,
  encodeEvaluation,
  encodePoint,
  EVALUATION_BYTES,
  proveDleqBatch,
  verifyDleqBatch,
  type Point,
} from '@zeroid/protocol/v3';

const POINT_BYTES = 32;

/**
 * The blinded points of a protocol v3 request (POST /oprf/admission, a node's /oprf and /oprf/batch
 * with `suite`): 1 to `max` encoded Baby Jubjub points back to back, each canonical, on the curve,
 * in the prime-order subgroup and not the identity (`decodePoint`). Undefined otherwise: a 400 before
 * anything is spent, as for v2.
 */
export function v3BlindedPoints(request: Uint8Array, max = OPRF_BATCH_MAX): Point[] | undefined {
  if (request.length === 0 || request.length % POINT_BYTES !== 0 || request.length / POINT_BYTES > max) return undefined;
  const points: Point[] = [];
  for (let offset = 0; offset < request.length; offset += POINT_BYTES) {
    const point = decodePoint(request.subarray(offset, offset + POINT_BYTES));
    if (!point) return undefined;
    points.push(point);
  }
  return points;
}

/** The request bytes of `points`, as `v3BlindedPoints` reads them. */
export const encodeV3Points = (points: readonly Point[]): Uint8Array => Uint8Array.from(points.flatMap((point) => [...encodePoint(point)]));

/**
 * A node's answer to a v3 batch: Zᵢ = kᵢ·Bᵢ for each point, then ONE DLEQ proof for all of them
 * (`proveDleqBatch`, RFC 9497's composites on Baby Jubjub): Z₁ ‖ … ‖ Zₙ ‖ e ‖ s. For one point it is
 * exactly the single evaluation (`encodeEvaluation`: Z ‖ e ‖ s), but the proof is the batch's.
 */
export function v3EvaluateBatch(share: bigint, publicKey: Point, blinded: readonly Point[]): Uint8Array {
  const evaluated = blinded.map((point) => point.multiply(share));
  const proof = proveDleqBatch(
    share,
    publicKey,
    blinded.map((point, i) => [point, evaluated[i]!] as const),
  );
  const last = encodeEvaluation(evaluated.at(-1)!, proof);
  return Uint8Array.from([...encodeV3Points(evaluated.slice(0, -1)), ...last]);
}

/**
 * The evaluated points of a node's v3 batch answer, if its one proof shows each is kᵢ times its
 * blinded point under that node's `publicKey`; undefined for anything else (a wrong length, a point
 * that does not decode, a proof that fails for the batch as a whole).
 */
export function v3VerifiedBatch(publicKey: Point, blinded: readonly Point[], answer: Uint8Array): Point[] | undefined {
  if (answer.length !== (blinded.length - 1) * POINT_BYTES + EVALUATION_BYTES) return undefined;
  const head = v3BlindedPoints(answer.subarray(0, (blinded.length - 1) * POINT_BYTES), Number.POSITIVE_INFINITY) ?? [];
  const last = decodeEvaluation(answer.subarray((blinded.length - 1) * POINT_BYTES));
  if (!last || head.length !== blinded.length - 1) return undefined;
  const evaluated = [...head, last.evaluated];
  const pairs = blinded.map((point, i) => [point, evaluated[i]!] as const);
  return verifyDleqBatch(publicKey, pairs, last.proof) ? evaluated : undefined;
}

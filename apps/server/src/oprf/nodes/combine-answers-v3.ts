import { combineEvaluations, decodeEvaluation, type Point, type V3Round } from '@zeroid/protocol/v3';
import { badRequest } from '../../problem.ts';
import type { OprfNodeSet } from './oprf-node-set.ts';

const refused = (why: string) => badRequest('EVALUATION_REFUSED', `The OPRF evaluation was refused: ${why}`);

/**
 * Z = k·B for a threshold v3 registration (decision 056), from the node answers the client combined:
 * each answer must come from a node of the set, carry a valid DLEQ proof against that node's
 * published v3 Kᵢ, and `threshold` of them must interpolate to the group key (`combineEvaluations`).
 * One bad answer refuses the whole round: an honest client drops bad answers before it combines, so
 * one sent here was put there. Answers are public values; the error names no index.
 * @throws Problem 400 `EVALUATION_REFUSED`.
 */
export function combineV3Answers(v3: NonNullable<OprfNodeSet['v3']>, blinded: Point, answers: NonNullable<V3Round['answers']>): Point {
  const decoded = answers.map(({ index, evaluation }) => {
    const answer = decodeEvaluation(new Uint8Array(Buffer.from(evaluation, 'base64url')));
    // An undecodable answer fails its proof: -1 is no valid e or s.
    return { index, evaluated: answer?.evaluated, proof: answer?.proof ?? { e: -1n, s: -1n } };
  });
  if (new Set(answers.map(({ index }) => index)).size !== answers.length) throw refused('a node answers at most once.');
  if (answers.some(({ index }) => !v3.shares.has(index))) throw refused('an answer comes from a node outside the set.');
  let combined: ReturnType<typeof combineEvaluations>;
  try {
    combined = combineEvaluations(blinded, v3.groupKey, v3.shares, v3.threshold, decoded);
  } catch {
    throw refused(`fewer than ${v3.threshold} answers are valid and fit the group key.`);
  }
  if (combined.rejected.length > 0) throw refused('an answer’s proof does not hold against its node’s key.');
  return combined.evaluated;
}

import { OPRF_BATCH_MAX } from '@zeroid/protocol';
import { admitWithoutEvaluation } from '../limits/admit-without-evaluation.ts';
import { OPRF_EVALUATION } from '../limits/guess-costs.ts';
import type { AdmitGuess } from '../limits/spend-guess.ts';
import type { Metrics } from '../metrics.ts';
import { v3BlindedPoints } from '../oprf/batch-v3.ts';
import { libsodiumReady } from '../oprf/libsodium.ts';
import type { AdmissionSuite } from '../oprf/oprf-admission-message.ts';
import type { admissionSigner } from '../oprf/oprf-admission-signer.ts';
import type { OprfNodesState } from '../oprf/nodes/oprf-node-set.ts';
import { sodiumBlindedElements } from '../oprf/sodium-voprf.ts';
import { invalidElement, oprfUnavailable, Problem } from '../problem.ts';

/** What POST /oprf/admission needs: the admission key, the nodes' state, and the metrics. */
export interface NodeRoundDeps {
  admissions?: ReturnType<typeof admissionSigner> | undefined;
  oprfNodes?: OprfNodesState | undefined;
  metrics: Metrics;
}

/**
 * Threshold mode (decision 032): counts a client's round at the nodes here first, one guess per element,
 * with the same limits as POST /oprf in single-key mode, then signs an admission for exactly those
 * elements, without which no node evaluates them (for this suite only: a v2 admission does not admit v3
 * points, nor the reverse, decision 058). A malformed request is refused (400) before it spends a guess;
 * v3's points must be canonical points of Baby Jubjub's prime-order subgroup. When fewer than t nodes
 * serve v3, the 503 comes before the guess is counted, since the server cannot give it back once the
 * client holds the admission (decision 053); `admit` does the same for v2.
 */
export async function admitNodeRound(
  { admissions, oprfNodes, metrics }: NodeRoundDeps,
  admit: AdmitGuess,
  request: Uint8Array,
  suite: AdmissionSuite,
): Promise<string> {
  if (!admissions) {
    throw new Problem(409, 'OPRF_SINGLE_KEY_MODE', 'This server holds the OPRF key itself: send the blinded element to POST /oprf.');
  }
  await libsodiumReady;
  const elements = suite ? v3BlindedPoints(request, OPRF_BATCH_MAX) : sodiumBlindedElements(request, OPRF_BATCH_MAX);
  if (!elements) throw invalidElement(suite ? 'Baby Jubjub' : 'ristretto255', OPRF_BATCH_MAX);
  const v3 = oprfNodes?.current?.v3;
  if (suite && (!v3 || v3.shares.size < v3.threshold)) {
    throw oprfUnavailable('Fewer OPRF nodes than the threshold serve protocol v3 now. Please try again shortly.');
  }
  await admitWithoutEvaluation(admit, { ...OPRF_EVALUATION, guesses: OPRF_EVALUATION.guesses * elements.length });
  metrics.oprfEvaluations.inc({ kind: 'admitted' }, elements.length);
  return admissions.issue(request, Date.now(), suite);
}

import { assertBlindedRequest, type OprfEvaluator } from '@zeroid/protocol';
import { SUITE_ID, babyJubjubSuite, decodePoint } from '@zeroid/protocol/v3';
import { OPRF_EVALUATION } from '../limits/guess-costs.ts';
import { spendGuess, type AdmitGuess } from '../limits/spend-guess.ts';
import type { Metrics } from '../metrics.ts';
import type { OprfV3Key } from '../oprf/oprf-key-v3.ts';
import { invalidElement } from '../problem.ts';

/** What POST /oprf evaluates with: the single key, its v3 key (decision 056), and the metrics. */
export interface BlindEvaluationDeps {
  oprf: OprfEvaluator;
  oprfV3: OprfV3Key | undefined;
  metrics: Metrics;
}

/**
 * One blinded element evaluated with the single key (RFC 9497 VOPRF, with its DLEQ proof), or with
 * the v3 key when `suite` is v3's. A malformed element is refused (400) before it spends a guess; a
 * valid one spends one (`spendGuess`), since the server cannot tell a guess from an honest round. A v3
 * element is one Baby Jubjub point, checked by `decodePoint` (canonical, on the curve, in the
 * subgroup, not the identity).
 */
export async function evaluateBlinded(
  { oprf, oprfV3, metrics }: BlindEvaluationDeps,
  admit: AdmitGuess,
  element: Uint8Array,
  suite: string | undefined,
): Promise<Uint8Array> {
  const v3Key = suite === SUITE_ID ? oprfV3 : undefined;
  if (!v3Key) assertBlindedRequest(element);
  else if (!decodePoint(element)) throw invalidElement('Baby Jubjub');
  const evaluation = await spendGuess(
    admit,
    OPRF_EVALUATION,
    () => (v3Key ? babyJubjubSuite.blindEvaluate(v3Key.privateKey, element) : oprf.blindEvaluate(element)),
    () => false,
  );
  metrics.oprfEvaluations.inc({ kind: 'blinded' });
  return evaluation;
}

import { generateOprfKeyPair } from '@zeroid/protocol';
import { G, randomScalar } from '@zeroid/protocol/v3';
import { libsodiumReady } from '../../oprf/libsodium.ts';
import { v3ThresholdRound } from '../../oprf/nodes/threshold-round-v3.ts';
import { v3BlindedPoints, v3EvaluateBatch } from '../../oprf/batch-v3.ts';
import { deriveFromRaw } from './raw-identity.ts';
import { singleKeyOutputs } from './single-key-outputs.ts';

/** Rounds a threshold derivation thread runs on made-up inputs and a throw-away key before its first task. */
const WARM_UP_ROUNDS = 10;

/**
 * Warms a threshold derivation thread up (decision 075), as `raw-deriver-worker.ts` warms the single
 * key's: the v3 round's BigInt code (blinding, the batch proof's check, the combination, Finalize)
 * and the derivation's WebAssembly module. Cold, the first rounds after a start held the thread for
 * seconds, its calls to the nodes could not even be sent, and they timed out. A random key of its own,
 * never a node's: nothing of this leaves the thread.
 */
export async function warmUpThresholdThread(): Promise<void> {
  const key = randomScalar();
  const set = { groupKey: G.multiply(key), shares: new Map([[1, G.multiply(key)]]), threshold: 1 };
  await libsodiumReady;
  const { v2, v3 } = singleKeyOutputs((await generateOprfKeyPair()).privateKey);
  for (let i = 0; i < WARM_UP_ROUNDS; i++) {
    const round = v3ThresholdRound(set, [
      { domain: 'bio', normalised: `warm-up ${i}` },
      { domain: 'id', normalised: `warm-up ${i}` },
    ]);
    round.finalize([{ index: 1, evaluation: v3EvaluateBatch(key, set.groupKey, v3BlindedPoints(round.request)!) }]);
    await deriveFromRaw(v2, v3, { idInfo: `warm-up ${i}`, bioInfo: `warm-up ${i}` });
  }
}

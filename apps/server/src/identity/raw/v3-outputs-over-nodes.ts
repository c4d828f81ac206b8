import { OprfNodesUnavailable, type NodeCallOptions } from '../../oprf/nodes/evaluate-with-nodes.ts';
import type { NodeFault, OprfNodeSet } from '../../oprf/nodes/oprf-node-set.ts';
import type { OprfOutputs } from './raw-identity.ts';

/**
 * Protocol v3's outputs over the threshold nodes, for the raw path: the plug point of issue 27 phase
 * B's threshold round (suite v3, `/oprf/batch` answered with one `proveDleqBatch` proof, the answers
 * checked against each node's v3 Kᵢ and combined), which the threshold work supplies. Called where
 * v2's outputs are built (`threshold-deriver.ts` on the event loop, `threshold-deriver-worker.ts` on
 * the derivation threads), with the same node set, call options and fault report.
 *
 * Until that round is here no node gives a v3 output, so every raw derivation in threshold mode ends
 * as one whose nodes are unavailable: a 503 before anything is stored, its guesses given back.
 */
export function v3OutputsOverNodes(
  _set: OprfNodeSet | undefined,
  _options: NodeCallOptions & { onFaults: (faults: NodeFault[]) => void },
): OprfOutputs {
  const unavailable = () => Promise.reject(new OprfNodesUnavailable([], undefined));
  return { evaluate: unavailable, evaluateMany: unavailable };
}

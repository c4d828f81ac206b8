import { SUITE_ID } from '@zeroid/protocol/v3';
import { evaluateWithNodes, OprfNodesUnavailable, type NodeCallOptions } from '../../oprf/nodes/evaluate-with-nodes.ts';
import type { NodeFault, OprfNodeSet } from '../../oprf/nodes/oprf-node-set.ts';
import type { OprfTask } from '../../oprf/nodes/sodium-threshold-round.ts';
import type { OprfOutputs } from './raw-identity.ts';

/**
 * Protocol v3's outputs over the threshold nodes, for the raw path (decision 058): the tasks go in one
 * round (`evaluateWithNodes` with suite v3: admitted for v3 points, one /oprf/batch per node answered
 * with one `proveDleqBatch` proof, each checked against that node's v3 Kᵢ, the first t that fit the v3
 * group key combined per point, unblinded and finalized). Each output is y as 32 big-endian bytes,
 * what `babyJubjubSuite.evaluate` gives with the single v3 key. Nodes left out go to `onFaults`;
 * fewer than t good answers throw OprfNodesUnavailable, as v2's round does. `admit` is called with
 * the suite: the admission must be a v3 one (`admissions.issue(request, now, suite)`).
 */
export function v3OutputsOverNodes(
  set: OprfNodeSet | undefined,
  { onFaults, ...options }: NodeCallOptions & { onFaults: (faults: NodeFault[]) => void },
): OprfOutputs {
  const evaluateMany = async (tasks: readonly OprfTask[]) => {
    const { outputs, faults } = await evaluateWithNodes(set, tasks, { ...options, suite: SUITE_ID }).catch((error: unknown) => {
      if (error instanceof OprfNodesUnavailable && error.faults.length > 0) onFaults(error.faults);
      throw error;
    });
    if (faults.length > 0) onFaults(faults);
    return outputs;
  };
  return { evaluate: async (domain, normalised) => (await evaluateMany([{ domain, normalised }]))[0]!, evaluateMany };
}

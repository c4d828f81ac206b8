import { workerData } from 'node:worker_threads';
import { admissionSigner } from '../../oprf/oprf-admission-signer.ts';
import { commitmentFromRawBio, deriveFromRaw, type OprfOutputs, type RawDerivation, type RawValues } from './raw-identity.ts';
import { v3OutputsOverNodes } from './outputs-over-nodes-v3.ts';
import { warmUpThresholdThread } from './warm-up-threshold-thread.ts';
import { evaluateWithNodes, OprfNodesUnavailable } from '../../oprf/nodes/evaluate-with-nodes.ts';
import type { NodeFault, OprfNodeSet } from '../../oprf/nodes/oprf-node-set.ts';
import { nodeSetFromThread, type NodeSetOnThread } from '../../oprf/nodes/node-set-for-thread.ts';
import type { OprfTask } from '../../oprf/nodes/sodium-threshold-round.ts';

/**
 * One raw derivation in threshold mode, with the node set as the main thread holds it now (as it
 * crosses: `NodeSetOnThread`, decoded again on arrival).
 */
export type ThresholdTask = { set: OprfNodeSet | NodeSetOnThread | undefined; timeoutMs: number; client: string | undefined } & (
  ({ kind: 'registration' } & RawValues) | { kind: 'commitment'; bioInfo: string }
);

/**
 * What crosses back to the main thread: errors lose their class on the way, so the outcome is data.
 * `faults` has one list per evaluation that left a node out (the main thread logs each).
 */
export type ThresholdOutcome =
  | { ok: true; value: RawDerivation | { v3: string; v2: string }; faults: NodeFault[][] }
  | { ok: false; faults: NodeFault[][]; rateLimitedFor: number | undefined };

/**
 * One worker of `workerThresholdDeriver` (decision 026): the whole threshold raw derivation, the
 * calls to the nodes included, so neither the group work nor the HTTP client's work runs on the
 * server's event loop. Each worker runs many tasks at once (they mostly wait for the nodes).
 */
/** The server's admission key, given to every thread once (decision 032). */
const admissions = admissionSigner((workerData as { admissionSeed: Uint8Array }).admissionSeed);

async function derive(task: ThresholdTask): Promise<ThresholdOutcome> {
  // The set came encoded (`nodeSetToThread`): its v3 points are decoded here, once, for every round.
  const set = nodeSetFromThread(task.set);
  const faults: NodeFault[][] = [];
  const evaluateMany = async (tasks: readonly OprfTask[]) => {
    const result = await evaluateWithNodes(set, tasks, {
      timeoutMs: task.timeoutMs,
      forwardedFor: task.client,
      admit: (request, suite) => admissions.issue(request, undefined, suite),
    }).catch((error: unknown) => {
      if (error instanceof OprfNodesUnavailable && error.faults.length > 0) faults.push(error.faults);
      throw error;
    });
    if (result.faults.length > 0) faults.push(result.faults);
    return result.outputs;
  };
  const outputs: OprfOutputs = { evaluate: async (domain, normalised) => (await evaluateMany([{ domain, normalised }]))[0]!, evaluateMany };
  // Protocol v3's outputs over the nodes plug in here (outputs-over-nodes-v3.ts).
  const v3Outputs = v3OutputsOverNodes(set, {
    timeoutMs: task.timeoutMs,
    forwardedFor: task.client,
    admit: (request, suite) => admissions.issue(request, undefined, suite),
    onFaults: (left) => faults.push(left),
  });
  try {
    const value =
      task.kind === 'registration'
        ? await deriveFromRaw(outputs, v3Outputs, task)
        : await commitmentFromRawBio(outputs, v3Outputs, task.bioInfo);
    return { ok: true, value, faults };
  } catch (error) {
    if (error instanceof OprfNodesUnavailable) return { ok: false, faults, rateLimitedFor: error.rateLimitedFor };
    throw error;
  }
}

// piscina awaits a promised handler before the thread runs a task, so tasks wait for the warm-up.
export default (async () => {
  await warmUpThresholdThread();
  return derive;
})();

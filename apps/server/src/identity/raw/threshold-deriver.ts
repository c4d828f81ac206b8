import { availableParallelism } from 'node:os';
import { threadEntry } from '../../threads/thread-entry.ts';
import type { RawDeriver } from './raw-deriver.ts';
import { commitmentFromRawBio, deriveFromRaw, type OprfOutputs, type RawDerivation } from './raw-identity.ts';
import { v3OutputsOverNodes } from './outputs-over-nodes-v3.ts';
import { admissionSigner } from '../../oprf/oprf-admission-signer.ts';
import { threadPool } from '../../threads/thread-pool.ts';
import { evaluateWithNodes, OprfNodesUnavailable } from '../../oprf/nodes/evaluate-with-nodes.ts';
import type { NodeFault, OprfNodesState } from '../../oprf/nodes/oprf-node-set.ts';
import { nodeSetToThread } from '../../oprf/nodes/node-set-for-thread.ts';
import type { OprfTask } from '../../oprf/nodes/sodium-threshold-round.ts';
import type { ThresholdOutcome, ThresholdTask } from './threshold-deriver-worker.ts';

interface DeriverOptions {
  timeoutMs: number;
  onFaults: (faults: NodeFault[]) => void;
  /** The server's admission key (decision 032): the raw path admits its own node calls, after the route counted the guess. */
  admissionSeed: Uint8Array;
  threads?: number;
}

/**
 * The raw path in threshold mode (decision 021): the same derivations as with the single key, but
 * each OPRF output comes from the nodes (`evaluateWithNodes`), so this process never holds a key.
 * Network waits cost the event loop nothing; the group work (blinding, t DLEQ checks, the Lagrange
 * combination, on libsodium: sodium-threshold-round.ts) is cheap (docs/benchmarks.md, "Threshold round"). A node left out is reported to `onFaults` (by index
 * and URL only); fewer than t good answers throw OprfNodesUnavailable, which the routes turn into a
 * 503 before anything is stored.
 */
export function thresholdDeriver(state: OprfNodesState, { timeoutMs, onFaults, admissionSeed }: DeriverOptions): RawDeriver {
  const admissions = admissionSigner(admissionSeed);
  const outputs = (client: string | undefined): OprfOutputs => {
    const evaluateMany = async (tasks: readonly OprfTask[]) => {
      const { outputs: values, faults } = await evaluateWithNodes(state.current, tasks, {
        timeoutMs,
        forwardedFor: client,
        // The suite is signed too (decision 058): a v3 round needs a v3 admission.
        admit: (request, suite) => admissions.issue(request, undefined, suite),
      }).catch((error: unknown) => {
        if (error instanceof Error && 'faults' in error) onFaults((error as { faults: NodeFault[] }).faults);
        throw error;
      });
      if (faults.length > 0) onFaults(faults);
      return values;
    };
    return { evaluate: async (domain, normalised) => (await evaluateMany([{ domain, normalised }]))[0]!, evaluateMany };
  };
  // Protocol v3's outputs over the nodes plug in here (outputs-over-nodes-v3.ts).
  const v3Outputs = (client: string | undefined) =>
    v3OutputsOverNodes(state.current, {
      timeoutMs,
      forwardedFor: client,
      admit: (request, suite) => admissions.issue(request, undefined, suite),
      onFaults,
    });
  return {
    registration: (raw, client) => deriveFromRaw(outputs(client), v3Outputs(client), raw),
    commitment: (bioInfo, client) => commitmentFromRawBio(outputs(client), v3Outputs(client), bioInfo),
    ready: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * Tasks in flight on one derivation thread: each mostly waits for the nodes, and at concurrency 16
 * with two threads eight each are in flight; more only queue at the nodes.
 */
const TASKS_PER_THREAD = 32;

/**
 * `thresholdDeriver` on the derivation threads (decision 026), as `workerDeriver` is for the single
 * key: each whole raw derivation, its calls to the nodes included, runs on a worker, so the event
 * loop keeps only HTTP and storage. Under load the round (blinding, t proof checks, the combination,
 * Finalize) and the HTTP client's work to the nodes took most of the event loop. The node set is
 * sent with each task, so a node that joins or a refresh takes effect at once; faults come back as
 * data and are reported here, and fewer than t good answers throw OprfNodesUnavailable as before.
 */
export function workerThresholdDeriver(
  state: OprfNodesState,
  { timeoutMs, onFaults, admissionSeed, threads = availableParallelism() }: DeriverOptions,
): RawDeriver {
  const pool = threadPool(threadEntry('threshold-deriver-worker', import.meta.url), {
    workerData: { admissionSeed },
    threads,
    eager: true,
    concurrentTasksPerWorker: TASKS_PER_THREAD,
    // Each call's timeout must fire while the thread waits for work (thread-pool.ts).
    idleLoop: true,
  });
  const run = async (task: ThresholdTask) => {
    // v3's points cross as bytes (a Point loses its class on the way); the thread decodes them.
    const outcome = (await pool.run({ ...task, set: nodeSetToThread(task.set) })) as ThresholdOutcome;
    for (const faults of outcome.faults) onFaults(faults);
    if (!outcome.ok) throw new OprfNodesUnavailable(outcome.faults.flat(), outcome.rateLimitedFor);
    return outcome.value;
  };
  return {
    registration: async (raw, client) =>
      (await run({ kind: 'registration', ...raw, client, set: state.current, timeoutMs })) as RawDerivation,
    commitment: async (bioInfo, client) =>
      (await run({ kind: 'commitment', bioInfo, client, set: state.current, timeoutMs })) as { v3: string; v2: string },
    ready: async () => undefined,
    close: () => pool.destroy(),
  };
}

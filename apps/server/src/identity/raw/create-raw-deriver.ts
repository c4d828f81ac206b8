import type { Metrics } from '../../metrics.ts';
import { nodeRoundQueue } from '../../oprf/nodes/node-round-queue.ts';
import type { OprfNodesState } from '../../oprf/nodes/oprf-node-set.ts';
import { admissionSeed } from '../../oprf/oprf-admission-signer.ts';
import { queuedDeriver } from './queued-deriver.ts';
import { inProcessDeriver, workerDeriver, type RawDeriver } from './raw-deriver.ts';
import { thresholdDeriver, workerThresholdDeriver } from './threshold-deriver.ts';

/** What the choice reads of the server's configuration. */
interface RawDeriverSettings {
  derivationThreads: number;
  oprfNodeTimeoutMs: number;
  oprfNodeConcurrency: number;
  oprfNodeQueue: number;
}

/** The raw path's derivations: the nodes' client in threshold mode, else the key on worker threads, or on the event loop with DERIVATION_THREADS=0. */
export function createRawDeriver(
  config: RawDeriverSettings,
  {
    oprfKey,
    oprfNodes,
    keySecret,
    metrics,
    faultLog,
  }: {
    oprfKey: Uint8Array | undefined;
    oprfNodes: OprfNodesState | undefined;
    keySecret: Uint8Array;
    metrics: Metrics;
    faultLog: (fields: object, message: string) => void;
  },
): RawDeriver {
  if (oprfNodes) {
    const deriver = (config.derivationThreads > 0 ? workerThresholdDeriver : thresholdDeriver)(oprfNodes, {
      timeoutMs: config.oprfNodeTimeoutMs,
      threads: config.derivationThreads,
      admissionSeed: admissionSeed(keySecret),
      onFaults: (faults) => {
        for (const fault of faults) metrics.oprfNodeFaults.inc({ node: String(fault.index), reason: fault.reason });
        // Structured, through the server's logger; index, URL, reason only.
        faultLog(
          { faults: faults.map(({ index, url, reason, status }) => ({ node: index, url, reason, ...(status ? { status } : {}) })) },
          'OPRF nodes left out of an evaluation',
        );
        // A node that failed may have changed its key or gone: read the keys now, not at the next interval.
        if (faults.some((fault) => fault.reason !== 'rate-limited')) oprfNodes.rereadSoon?.();
      },
    });
    // A burst waits its turn here rather than reaching the nodes all at once (decision 075).
    return queuedDeriver(deriver, nodeRoundQueue({ concurrency: config.oprfNodeConcurrency, waiting: config.oprfNodeQueue }));
  }
  return config.derivationThreads > 0 ? workerDeriver(oprfKey!, config.derivationThreads) : inProcessDeriver(oprfKey!);
}

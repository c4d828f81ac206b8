import type { NodeRoundQueue } from '../../oprf/nodes/node-round-queue.ts';
import type { RawDeriver } from './raw-deriver.ts';

/**
 * The threshold raw path behind the queue in front of the nodes (decision 075): each derivation (a
 * registration's, or a raw verification's commitment: both versions' rounds) waits its turn there,
 * and is refused with OprfNodesBusy when the queue is full.
 */
export function queuedDeriver(deriver: RawDeriver, queue: NodeRoundQueue): RawDeriver {
  return {
    registration: (raw, client) => queue.run(() => deriver.registration(raw, client)),
    commitment: (bioInfo, client) => queue.run(() => deriver.commitment(bioInfo, client)),
    ready: () => deriver.ready(),
    close: () => deriver.close(),
  };
}

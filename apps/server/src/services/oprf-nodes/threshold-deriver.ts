import type { RawDeriver } from '../raw-deriver.ts';
import { commitmentFromRawBio, deriveFromRaw, type OprfOutputs } from '../raw-identity.ts';
import { evaluateWithNodes } from './evaluate-with-nodes.ts';
import type { NodeFault, OprfNodeSet } from './oprf-node-set.ts';

/** The node set as the server holds it: undefined until t nodes have published keys that fit. */
export interface OprfNodesState {
  current: OprfNodeSet | undefined;
}

/**
 * The raw path in threshold mode (decision 021): the same derivations as with the single key, but
 * each OPRF output comes from the nodes (`evaluateWithNodes`), so this process never holds a key.
 * Network waits cost the event loop nothing; the group work (blinding, t DLEQ checks, the Lagrange
 * combination, on libsodium: sodium-threshold-round.ts) is about 1 ms per round. A node left out is reported to `onFaults` (by index
 * and URL only); fewer than t good answers throw OprfNodesUnavailable, which the routes turn into a
 * 503 before anything is stored.
 */
export function thresholdDeriver(
  state: OprfNodesState,
  { timeoutMs, onFaults }: { timeoutMs: number; onFaults: (faults: NodeFault[]) => void },
): RawDeriver {
  const outputs = (client: string | undefined): OprfOutputs => ({
    async evaluate(domain, normalised) {
      const set = state.current;
      const { output, faults } = await evaluateWithNodes(set?.nodes ?? [], domain, normalised, {
        threshold: set?.threshold ?? Number.POSITIVE_INFINITY,
        timeoutMs,
        forwardedFor: client,
      }).catch((error: unknown) => {
        if (error instanceof Error && 'faults' in error) onFaults((error as { faults: NodeFault[] }).faults);
        throw error;
      });
      if (faults.length > 0) onFaults(faults);
      return output;
    },
  });
  return {
    registration: (raw, client) => deriveFromRaw(outputs(client), raw),
    commitment: (bioInfo, client) => commitmentFromRawBio(outputs(client), bioInfo),
    ready: async () => undefined,
    close: async () => undefined,
  };
}

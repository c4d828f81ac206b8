import { OPRF_SUITE, partitionPublicShares, type OprfPublicShare, type ThresholdKeys } from '@zeroid/protocol';
import { base64urlnopad } from '@scure/base';
import { ApiError } from '../../shared/http.ts';

/** One OPRF node of the threshold mode, with the Kᵢ it published. */
export interface KnownNode extends OprfPublicShare {
  url: string;
}

/** The key material of a threshold round: the group key, t, and the nodes whose Kᵢ fit it. */
export interface NodeKeys extends ThresholdKeys {
  publicShares: KnownNode[];
}

/** How long a node may take to answer before the round goes on without it. */
export const NODE_TIMEOUT_MS = 10_000;

export const NODES_UNAVAILABLE_MESSAGE =
  'Too few of the OPRF nodes answered correctly to derive your identity. Nothing was sent; please try again shortly.';

/** Too few nodes whose keys fit together (issue 24): said apart from "too few answered", so the person knows it is not their input. */
export const NODES_INCONSISTENT_MESSAGE =
  'The OPRF nodes do not agree on their keys right now (one holds a share from before a refresh or of another split), so your identity cannot be derived safely. Nothing was sent; please try again later.';

/**
 * Reads each node's published Kᵢ and keeps the nodes whose keys interpolate (in the exponent) to the
 * group key the server published (`partitionPublicShares`): a node is trusted for nothing, and a
 * wrong key would only let it prove answers made with another key. A node that is down, answers for
 * another place or another group, or whose Kᵢ does not fit is left out and named in the console.
 *
 * @throws ApiError when fewer than `threshold` nodes remain.
 */
export async function fetchNodeKeys(urls: readonly string[], threshold: number, groupPublicKey: string): Promise<NodeKeys> {
  const replies = await Promise.all(
    urls.map(async (url, i): Promise<KnownNode | undefined> => {
      const index = i + 1;
      try {
        const response = await fetch(`${url}/oprf/public-key`, { signal: AbortSignal.timeout(NODE_TIMEOUT_MS) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const reply = (await response.json()) as { suite?: unknown; index?: unknown; publicKey?: unknown; groupPublicKey?: unknown };
        if (
          reply.suite !== OPRF_SUITE ||
          reply.index !== index ||
          reply.groupPublicKey !== groupPublicKey ||
          typeof reply.publicKey !== 'string'
        ) {
          throw new Error('it publishes a key for another place or another group key');
        }
        return { index, url, publicKey: base64urlnopad.decode(reply.publicKey) };
      } catch (error) {
        console.warn(`OPRF node ${index} (${url}) is left out: ${error instanceof Error ? error.message : 'no answer'}`);
        return undefined;
      }
    }),
  );
  const answered = replies.filter((node): node is KnownNode => node !== undefined);
  if (answered.length < threshold) throw new ApiError(NODES_UNAVAILABLE_MESSAGE, 503);
  const group = base64urlnopad.decode(groupPublicKey);
  const { fit, misfits } = partitionPublicShares(group, answered, threshold);
  for (const node of answered.filter((node) => misfits.includes(node.index))) {
    console.warn(`OPRF node ${node.index} (${node.url}) is left out: its public key does not interpolate to the group key with the others`);
  }
  const nodes = answered.filter((node) => fit.includes(node.index));
  if (nodes.length < threshold) throw new ApiError(misfits.length > 0 ? NODES_INCONSISTENT_MESSAGE : NODES_UNAVAILABLE_MESSAGE, 503);
  return { groupPublicKey: group, threshold, publicShares: nodes };
}

import {
  OPRF_SUITE,
  partitionPublicShares,
  ThresholdKeyMismatchError,
  type OprfNodeKeyReply,
  type OprfPublicShare,
  type ThresholdKeys,
} from '@zeroid/protocol';
import { checkPublicShares, decodePoint, SUITE_ID, type Point } from '@zeroid/protocol/v3';
import { base64urlnopad } from '@scure/base';
import { ApiError } from '../shared/http.ts';
import { NODE_TIMEOUT_MS, NODES_INCONSISTENT_MESSAGE, NODES_UNAVAILABLE_MESSAGE } from './node-round-timeout-and-messages.ts';

/** One OPRF node of the threshold mode, with the Kᵢ it published (and its v3 Kᵢ, when it holds a v3 share). */
export interface KnownNode extends OprfPublicShare {
  url: string;
  v3PublicKey?: Point | undefined;
}

/** Protocol v3's key material over the same nodes (decision 056): the v3 group key, t, and the nodes whose v3 Kᵢ fit it. */
export interface NodeKeysV3 {
  groupKey: Point;
  threshold: number;
  publicShares: { index: number; url: string; publicKey: Point }[];
}

/** The key material of a threshold round: the group key, t, and the nodes whose Kᵢ fit it; `v3` when the server publishes a v3 group key. */
export interface NodeKeys extends ThresholdKeys {
  publicShares: KnownNode[];
  v3?: NodeKeysV3 | undefined;
}

/**
 * Reads each node's published Kᵢ and keeps the nodes whose keys interpolate (in the exponent) to the
 * group key the server published (`partitionPublicShares`): a node is trusted for nothing, and a
 * wrong key would only let it prove answers made with another key. A node that is down, answers for
 * another place or another group, or whose Kᵢ does not fit is left out and named in the console.
 *
 * @throws ApiError when fewer than `threshold` nodes remain.
 */
export async function fetchNodeKeys(
  urls: readonly string[],
  threshold: number,
  groupPublicKey: string,
  v3GroupKey?: string,
): Promise<NodeKeys> {
  const replies = await Promise.all(
    urls.map(async (url, i): Promise<KnownNode | undefined> => {
      const index = i + 1;
      try {
        const response = await fetch(`${url}/oprf/public-key`, { signal: AbortSignal.timeout(NODE_TIMEOUT_MS) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const reply = (await response.json()) as Partial<OprfNodeKeyReply>;
        if (
          reply.suite !== OPRF_SUITE ||
          reply.index !== index ||
          reply.groupPublicKey !== groupPublicKey ||
          typeof reply.publicKey !== 'string'
        ) {
          throw new Error('it publishes a key for another place or another group key');
        }
        const v3 = reply.v3;
        const v3PublicKey =
          v3GroupKey !== undefined && v3?.suite === SUITE_ID && v3.groupPublicKey === v3GroupKey ? decodeV3(v3.publicKey) : undefined;
        return { index, url, publicKey: base64urlnopad.decode(reply.publicKey), v3PublicKey };
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
  return {
    groupPublicKey: group,
    threshold,
    publicShares: nodes,
    v3: v3GroupKey === undefined ? undefined : nodeKeysV3(answered, threshold, v3GroupKey),
  };
}

/**
 * The nodes whose v3 Kᵢ interpolate to the v3 group key (`checkPublicShares`, decision 056): a node
 * without a v3 key, or whose key does not fit, is left out and named in the console.
 * @throws ApiError when fewer than `threshold` remain.
 */
function nodeKeysV3(answered: readonly KnownNode[], threshold: number, v3GroupKey: string): NodeKeysV3 {
  const groupKey = decodeV3(v3GroupKey);
  if (!groupKey) throw new ApiError(NODES_INCONSISTENT_MESSAGE, 503);
  let nodes = answered.filter((node) => node.v3PublicKey !== undefined);
  for (const node of answered.filter((node) => node.v3PublicKey === undefined)) {
    console.warn(`OPRF node ${node.index} (${node.url}) is left out of protocol v3: it publishes no v3 key for this group`);
  }
  try {
    if (nodes.length >= threshold)
      checkPublicShares(
        groupKey,
        nodes.map(({ index, v3PublicKey }) => ({ index, publicKey: v3PublicKey })),
        threshold,
      );
  } catch (error) {
    if (!(error instanceof ThresholdKeyMismatchError)) throw error;
    for (const node of nodes.filter(({ index }) => error.indices.includes(index))) {
      console.warn(
        `OPRF node ${node.index} (${node.url}) is left out of protocol v3: its v3 key does not interpolate to the group key with the others`,
      );
    }
    nodes = nodes.filter(({ index }) => !error.indices.includes(index));
    if (nodes.length < threshold) throw new ApiError(NODES_INCONSISTENT_MESSAGE, 503);
  }
  if (nodes.length < threshold) throw new ApiError(NODES_UNAVAILABLE_MESSAGE, 503);
  return { groupKey, threshold, publicShares: nodes.map(({ index, url, v3PublicKey }) => ({ index, url, publicKey: v3PublicKey! })) };
}

function decodeV3(encoded: string): Point | undefined {
  try {
    return decodePoint(base64urlnopad.decode(encoded));
  } catch {
    return undefined;
  }
}

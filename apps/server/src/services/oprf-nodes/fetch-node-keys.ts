import { checkPublicShares, OPRF_SUITE, ThresholdKeyMismatchError } from '@zeroid/protocol';
import type { OprfNode, OprfNodeSet } from './oprf-node-set.ts';

/**
 * The configured nodes do not belong together, or not where OPRF_NODES puts them: waiting cannot fix
 * it, so the server refuses to start and says what to change.
 */
export class OprfNodeSetMismatch extends Error {
  readonly code = 'ZEROID_OPRF_NODES_MISMATCH';
  constructor(message: string) {
    super(message);
    this.name = 'OprfNodeSetMismatch';
  }
}

interface NodeKeyReply {
  suite: string;
  index: number;
  publicKey: string;
  threshold: number;
  groupPublicKey: string;
}

/**
 * Reads every node's GET /oprf/public-key and checks that they form one split: each holds the share
 * of its place in OPRF_NODES, each was split for OPRF_THRESHOLD, all name the same group key, and
 * their Kᵢ interpolate (in the exponent) to it. An unreachable node is left without a key (the server
 * retries it later); undefined when fewer than t nodes answered, so the caller stays not-ready.
 *
 * @throws OprfNodeSetMismatch when the nodes that answered are not shares of one key at these places.
 */
export async function fetchNodeKeys(urls: readonly string[], threshold: number, timeoutMs: number): Promise<OprfNodeSet | undefined> {
  const replies = await Promise.all(urls.map((url) => fetchNodeKey(url, timeoutMs)));
  const nodes: OprfNode[] = urls.map((url, i) => ({ index: i + 1, url }));
  let group: string | undefined;
  for (const [i, reply] of replies.entries()) {
    if (!reply) continue;
    const node = nodes[i]!;
    if (reply.suite !== OPRF_SUITE)
      throw new OprfNodeSetMismatch(`OPRF node ${node.url} uses the suite "${reply.suite}", not ${OPRF_SUITE}.`);
    if (reply.index !== node.index) {
      throw new OprfNodeSetMismatch(
        `OPRF_NODES lists ${node.url} at place ${node.index}, but that node holds share ${reply.index}. List the nodes in share order (share 1 first).`,
      );
    }
    if (reply.threshold !== threshold) {
      throw new OprfNodeSetMismatch(
        `OPRF node ${node.url} holds a share of a ${reply.threshold}-of-n split, but OPRF_THRESHOLD is ${threshold}. Set OPRF_THRESHOLD to the threshold the key was split for.`,
      );
    }
    if (group !== undefined && reply.groupPublicKey !== group) {
      throw new OprfNodeSetMismatch(
        `The OPRF nodes hold shares of different keys (node ${node.url} names another group key than node 1..${node.index - 1}). Give every node a share of the same split (npm run oprf -- split).`,
      );
    }
    group = reply.groupPublicKey;
    node.publicKey = new Uint8Array(Buffer.from(reply.publicKey, 'base64url'));
  }
  const known = nodes.filter((node): node is Required<OprfNode> => node.publicKey !== undefined);
  if (known.length < threshold || group === undefined) return undefined;
  const groupPublicKey = new Uint8Array(Buffer.from(group, 'base64url'));
  assertSharesFit(groupPublicKey, known, threshold);
  return { threshold, groupPublicKey, nodes };
}

/** Checks that the Kᵢ of `nodes` are shares of `groupPublicKey`. @throws OprfNodeSetMismatch */
export function assertSharesFit(groupPublicKey: Uint8Array, nodes: readonly Required<OprfNode>[], threshold: number): void {
  try {
    checkPublicShares(
      groupPublicKey,
      nodes.map(({ index, publicKey }) => ({ index, publicKey })),
      threshold,
    );
  } catch (error) {
    const misfits =
      error instanceof ThresholdKeyMismatchError && error.indices.length > 0 ? error.indices : nodes.map((node) => node.index);
    const urls = misfits.map((index) => `${index} (${nodes.find((node) => node.index === index)?.url ?? '?'})`);
    throw new OprfNodeSetMismatch(
      `The public keys of OPRF node(s) ${urls.join(', ')} do not interpolate to the group key: they hold a share of another ` +
        'split, or an old share from before a refresh. Give every node its share of one split (npm run oprf -- split), or ' +
        'refresh all of them together (npm run oprf -- refresh).',
    );
  }
}

/** One node's key reply, or undefined when it does not answer well in time (it may come up later). */
export async function fetchNodeKey(url: string, timeoutMs: number): Promise<NodeKeyReply | undefined> {
  try {
    const response = await fetch(`${url}/oprf/public-key`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return undefined;
    const reply = (await response.json()) as Partial<NodeKeyReply>;
    const base64url = (value: unknown) => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
    if (
      typeof reply.suite !== 'string' ||
      !Number.isInteger(reply.index) ||
      !Number.isInteger(reply.threshold) ||
      !base64url(reply.publicKey) ||
      !base64url(reply.groupPublicKey)
    ) {
      return undefined;
    }
    return reply as NodeKeyReply;
  } catch {
    return undefined;
  }
}

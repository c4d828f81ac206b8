import type { Point } from '@zeroid/protocol/v3';

/** Why a node is not asked, or (`unreachable` with a key still known) why it may not answer. */
export type NodeProblem =
  | 'unreachable'
  | 'other-suite'
  | 'wrong-place'
  | 'wrong-threshold'
  | 'other-group'
  | 'inconsistent-key'
  /** Its key does not fit the other answering nodes', and too few answer to tell which is wrong (decision 053). */
  | 'keys-disagree';

/** One OPRF node as the server and the browser know it: its place in the split and its share's public key. */
export interface OprfNode {
  /** The share index, 1..n: the node's position in OPRF_NODES. */
  index: number;
  url: string;
  /**
   * Kᵢ = kᵢ·G when the node is used: it published this key (now, or before its last read failed)
   * and the key fits the others on one polynomial through the group key. Absent otherwise.
   */
  publicKey?: Uint8Array;
  /** What is wrong with the node at its last read (reported on /healthz, in the log and in a metric). */
  problem?: NodeProblem;
  /** The problem in words, with what to fix; public values only. */
  detail?: string;
  /** Why the node's protocol v3 share is not used, when the set has a v3 group key (`OprfNodeSet.v3`). */
  v3Problem?: NodeProblem | 'no-v3-share';
  v3Detail?: string;
}

/**
 * Protocol v3 over the same nodes (decision 056): the v3 group key, bound to the database by its own
 * fingerprint (purpose `oprf-v3`), and the v3 Kᵢ of the nodes whose keys lie on one polynomial
 * through it (`checkPublicShares` of the v3 suite). Points are decoded; a copy sent to a thread must
 * be re-encoded (`encodeV3Set`), since a Point loses its class on the way.
 */
export interface OprfNodeSetV3 {
  groupKey: Point;
  shares: Map<number, Point>;
  threshold: number;
}

/** The nodes of a threshold deployment (decision 021) as the last read of their keys found them. */
export interface OprfNodeSet {
  threshold: number;
  /** K = k·G, the single key's public key before the split: what the database's fingerprint records. */
  groupPublicKey: Uint8Array;
  nodes: OprfNode[];
  /**
   * Protocol v3 (decisions 056, 058): the v3 group key and each node's v3 Kᵢ by share index, once checked
   * to interpolate to it; undefined while the nodes hold no v3 share (files from before v3), or before
   * the v3 group key is bound to the database. A v3 registration's answers are checked against these
   * and combined (`combineV3Answers`).
   */
  v3?: OprfNodeSetV3;
}

/** The node set as the server holds it: undefined until t nodes have published keys that fit. */
export interface OprfNodesState {
  current: OprfNodeSet | undefined;
  /**
   * Reads every node's key again now, not at the next OPRF_NODE_REREAD_MS (at most one read at a
   * time, one a second): called when an evaluation failed or a request was refused for the nodes
   * (decision 053). Set by `watchNodeKeys`.
   */
  rereadSoon?: () => void;
}

/** Why a node's answer was left out of one evaluation; logged by index and URL, never with a value. */
export interface NodeFault {
  index: number;
  url: string;
  reason: 'unreachable' | 'timeout' | 'refused' | 'rate-limited' | 'malformed' | 'proof-failed' | 'inconsistent-key' | 'no-public-key';
  status?: number;
}

/** The nodes of `set` that are asked: those with a key that fits. */
export const usableNodes = (set: OprfNodeSet | undefined): Required<Pick<OprfNode, 'index' | 'url' | 'publicKey'>>[] =>
  (set?.nodes ?? []).flatMap(({ index, url, publicKey }) => (publicKey ? [{ index, url, publicKey }] : []));

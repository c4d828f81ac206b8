/** One OPRF node as the server and the browser know it: its place in the split and its share's public key. */
export interface OprfNode {
  /** The share index, 1..n: the node's position in OPRF_NODES. */
  index: number;
  url: string;
  /** Kᵢ = kᵢ·G, once the node has published it and it fits the others; absent until then. */
  publicKey?: Uint8Array;
}

/** The nodes of a threshold deployment (decision 021). */
export interface OprfNodeSet {
  threshold: number;
  /** K = k·G, the single key's public key before the split: what the database's fingerprint records. */
  groupPublicKey: Uint8Array;
  nodes: OprfNode[];
}

/** Why a node's answer was left out of one evaluation; logged by index and URL, never with a value. */
export interface NodeFault {
  index: number;
  url: string;
  reason: 'unreachable' | 'timeout' | 'refused' | 'rate-limited' | 'malformed' | 'proof-failed' | 'no-public-key';
  status?: number;
}

import { decodePoint, encodePoint } from '@zeroid/protocol/v3';
import type { OprfNodeSet } from './oprf-node-set.ts';

/** A node set as it crosses to a derivation thread: v3's points as bytes (a Point loses its class on the way). */
export type NodeSetOnThread = Omit<OprfNodeSet, 'v3'> & {
  v3Encoded?: { groupKey: Uint8Array; shares: [number, Uint8Array][]; threshold: number };
};

/** `set` ready for `postMessage`: v3's group key and Kᵢ encoded. */
export function nodeSetToThread(set: OprfNodeSet | undefined): NodeSetOnThread | undefined {
  if (!set) return undefined;
  const { v3, ...rest } = set;
  if (!v3) return rest;
  const shares = [...v3.shares].map(([index, point]): [number, Uint8Array] => [index, encodePoint(point)]);
  return { ...rest, v3Encoded: { groupKey: encodePoint(v3.groupKey), shares, threshold: v3.threshold } };
}

/** The set a thread received, with v3's points decoded again (they were checked when the set was assessed). */
export function nodeSetFromThread(set: NodeSetOnThread | OprfNodeSet | undefined): OprfNodeSet | undefined {
  if (!set || !('v3Encoded' in set) || !set.v3Encoded) return set && { ...set, v3: undefined };
  const { v3Encoded, ...rest } = set;
  const shares = new Map(v3Encoded.shares.map(([index, bytes]) => [index, decodePoint(bytes)!]));
  return { ...rest, v3: { groupKey: decodePoint(v3Encoded.groupKey)!, shares, threshold: v3Encoded.threshold } };
}

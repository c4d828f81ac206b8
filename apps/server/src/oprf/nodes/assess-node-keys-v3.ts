import { ThresholdKeyMismatchError, type OprfNodeKeyReply } from '@zeroid/protocol';
import { checkPublicShares, decodePoint, encodePoint, type Point } from '@zeroid/protocol/v3';
import type { OprfNode, OprfNodeSet, OprfNodeSetV3 } from './oprf-node-set.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
/** Problems of a node's place that rule out its v3 share as much as its v2 one. */
const PLACE_PROBLEMS = new Set(['other-suite', 'wrong-place', 'wrong-threshold']);

/** The v3 group keys the nodes at their right place name, most named first (the lowest place first on a tie). */
export function v3GroupCandidates(set: OprfNodeSet, replies: readonly (OprfNodeKeyReply | undefined)[]): Uint8Array[] {
  const counts = new Map<string, number>();
  for (const node of set.nodes) {
    const v3 = replies[node.index - 1]?.v3;
    if (v3 && !PLACE_PROBLEMS.has(node.problem ?? '')) counts.set(v3.groupPublicKey, (counts.get(v3.groupPublicKey) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([group]) => new Uint8Array(Buffer.from(group, 'base64url')));
}

/**
 * The nodes' protocol v3 shares, assessed as `assessNodeKeys` assesses their v2 ones (decisions 033,
 * 053) against `groupKey`, the v3 group key bound to the database: a node at its right place whose v3
 * Kᵢ lies on one polynomial of degree t−1 through the group key with the others' is used; one with
 * no v3 share, another v3 group key or a key that does not fit is left out and named (`v3Problem`).
 * A node that does not answer keeps the v3 key it published before (`previous`) if it still fits,
 * and such a remembered key never outvotes a node that answered. Sets `set.v3` and returns `set`.
 */
export function assessV3NodeKeys(
  set: OprfNodeSet,
  replies: readonly (OprfNodeKeyReply | undefined)[],
  groupKey: Uint8Array,
  previous: OprfNodeSetV3 | undefined,
): OprfNodeSet {
  const group = decodePoint(groupKey);
  if (!group) return set;
  const answering: Share[] = [];
  const remembered: Share[] = [];
  for (const node of set.nodes) {
    const v3 = replies[node.index - 1]?.v3;
    if (PLACE_PROBLEMS.has(node.problem ?? '')) leftOut(node, node.problem!, node.detail!);
    else if (node.problem === 'unreachable') {
      const before = previous && b64(encodePoint(previous.groupKey)) === b64(groupKey) ? previous.shares.get(node.index) : undefined;
      if (before) remembered.push({ index: node.index, publicKey: before });
      else leftOut(node, 'unreachable', `OPRF node ${node.index} (${node.url}) does not answer GET /oprf/public-key.`);
    } else if (!v3) {
      leftOut(
        node,
        'no-v3-share',
        `OPRF node ${node.index} (${node.url}) holds no protocol v3 share (its share file predates v3): it serves v2 only. Give every node its file from \`npm run oprf -- refresh\`.`,
      );
    } else if (v3.groupPublicKey !== b64(groupKey)) {
      leftOut(
        node,
        'other-group',
        `OPRF node ${node.index} (${node.url}) holds a v3 share of another v3 group key than this database's. Give it its share of the same split (npm run oprf -- refresh).`,
      );
    } else {
      const publicKey = decodePoint(new Uint8Array(Buffer.from(v3.publicKey, 'base64url')));
      if (publicKey) answering.push({ index: node.index, publicKey });
      else leftOut(node, 'inconsistent-key', `OPRF node ${node.index} (${node.url}) publishes a v3 key that is not a valid point.`);
    }
  }
  const decided = fitting(group, answering, set.threshold);
  const fit =
    decided.length >= set.threshold
      ? [
          ...decided,
          ...remembered
            .filter((share) =>
              fitting(group, [...answering.filter(({ index }) => decided.includes(index)), share], set.threshold).includes(share.index),
            )
            .map(({ index }) => index),
        ]
      : fitting(group, [...answering, ...remembered], set.threshold);
  const shares = new Map<number, Point>();
  for (const { index, publicKey } of [...answering, ...remembered]) {
    if (fit.includes(index)) shares.set(index, publicKey);
    else if (remembered.some((share) => share.index === index)) {
      leftOut(
        set.nodes[index - 1]!,
        'unreachable',
        `OPRF node ${index} (${set.nodes[index - 1]!.url}) does not answer GET /oprf/public-key.`,
      );
    } else {
      const node = set.nodes[index - 1]!;
      leftOut(
        node,
        decided.length >= set.threshold ? 'inconsistent-key' : 'keys-disagree',
        `The v3 public key of OPRF node ${index} (${node.url}) does not interpolate to the v3 group key with the other nodes': it holds a v3 share of another split, or of the other side of a refresh. Refresh every node together (npm run oprf -- refresh).`,
      );
    }
  }
  set.v3 = { groupKey: group, shares, threshold: set.threshold };
  return set;
}

type Share = { index: number; publicKey: Point };

/** The indices of `shares` that lie on one polynomial through the group key (v3 `checkPublicShares`). */
function fitting(group: Point, shares: readonly Share[], threshold: number): number[] {
  if (shares.length < threshold) return [];
  try {
    checkPublicShares(group, shares, threshold);
    return shares.map(({ index }) => index);
  } catch (error) {
    if (!(error instanceof ThresholdKeyMismatchError)) throw error;
    const misfits = new Set(error.indices);
    return misfits.size === 0 ? [] : shares.map(({ index }) => index).filter((index) => !misfits.has(index));
  }
}

function leftOut(node: OprfNode, problem: NonNullable<OprfNode['v3Problem']>, detail: string) {
  node.v3Problem = problem;
  node.v3Detail = detail;
}

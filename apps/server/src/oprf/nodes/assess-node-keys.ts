import { OPRF_SUITE, partitionPublicShares, type OprfNodeKeyReply } from '@zeroid/protocol';
import type { NodeProblem, OprfNode, OprfNodeSet } from './oprf-node-set.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * What the nodes' published keys say about each node (decisions 021 and 033): which ones the server
 * may ask, and what is wrong with the others. A node is used when it answers for its place in
 * OPRF_NODES, for OPRF_THRESHOLD, for the group key, and its Kᵢ lies on one polynomial through the
 * group key with the other used nodes' (`partitionPublicShares`). Any t used nodes then combine to
 * k·B. A node that does not fit is left out and named, and the others go on serving: one bad node
 * cannot keep the service down (decision 033).
 *
 * - `groupPublicKey`: the group key already adopted (a running server). Without it (at start) the
 *   group key is the one `isRecorded` recognises (the database's fingerprint), else the one most
 *   nodes name.
 * - `previous`: the last assessment. A node that does not answer now keeps the key it published
 *   before, but only if that key still fits the others: after a refresh with a node down, its old
 *   key is not mixed with the new ones (decision 033). Such a remembered key never shows an
 *   answering node wrong: when the answering nodes alone have no t that agree, those that do not fit
 *   are named `keys-disagree` (who disagrees, not who is wrong), never `inconsistent-key` (decision 053).
 *
 * Undefined when no node names a group key (none answered, at start).
 */
export function assessNodeKeys(
  urls: readonly string[],
  replies: readonly (OprfNodeKeyReply | undefined)[],
  threshold: number,
  {
    groupPublicKey,
    isRecorded = () => false,
    previous,
  }: { groupPublicKey?: Uint8Array; isRecorded?: (groupPublicKey: Uint8Array) => boolean; previous?: OprfNodeSet | undefined } = {},
): OprfNodeSet | undefined {
  const nodes: OprfNode[] = urls.map((url, i) => ({ index: i + 1, url }));
  const named = new Map<number, { group: string; publicKey: string }>();
  for (const [i, node] of nodes.entries()) {
    const reply = replies[i];
    if (!reply) leftOut(node, 'unreachable', `OPRF node ${node.index} (${node.url}) does not answer GET /oprf/public-key.`);
    else if (reply.suite !== OPRF_SUITE)
      leftOut(node, 'other-suite', `OPRF node ${node.index} (${node.url}) uses the suite "${reply.suite}", not ${OPRF_SUITE}.`);
    else if (reply.index !== node.index) {
      leftOut(
        node,
        'wrong-place',
        `OPRF_NODES lists ${node.url} at place ${node.index}, but that node holds share ${reply.index}. List the nodes in share order (share 1 first).`,
      );
    } else if (reply.threshold !== threshold) {
      leftOut(
        node,
        'wrong-threshold',
        `OPRF node ${node.url} holds a share of a ${reply.threshold}-of-n split, but OPRF_THRESHOLD is ${threshold}. Set OPRF_THRESHOLD to the threshold the key was split for.`,
      );
    } else named.set(node.index, { group: reply.groupPublicKey, publicKey: reply.publicKey });
  }

  const group = groupPublicKey
    ? b64(groupPublicKey)
    : chooseGroup(
        [...named.values()].map(({ group }) => group),
        isRecorded,
      );
  if (group === undefined) return undefined;
  const groupKey = new Uint8Array(Buffer.from(group, 'base64url'));
  const answering: Share[] = [];
  const remembered: Share[] = [];
  for (const node of nodes) {
    const reply = named.get(node.index);
    if (reply && reply.group !== group) {
      leftOut(
        node,
        'other-group',
        `OPRF node ${node.index} (${node.url}) holds a share of another group key than the others and this database. Give it its share of the same split (npm run oprf -- split).`,
      );
    } else if (reply) answering.push({ index: node.index, publicKey: new Uint8Array(Buffer.from(reply.publicKey, 'base64url')) });
    else if (node.problem === 'unreachable') {
      const before = previous?.nodes.find((known) => known.index === node.index)?.publicKey;
      if (before && previous && b64(previous.groupPublicKey) === group) remembered.push({ index: node.index, publicKey: before });
    }
  }
  // Only the nodes that answered this read may show a node wrong (decision 053): a key remembered from
  // an earlier read may be stale (its node refreshed while it did not answer), so it may keep its own
  // node in use when it fits, but never outvote a node that answered.
  const decided = partitionPublicShares(groupKey, answering, threshold).fit;
  let fit: number[];
  if (decided.length >= threshold) {
    const agreeing = answering.filter(({ index }) => decided.includes(index));
    const fitsToo = ({ index, publicKey }: Share) =>
      partitionPublicShares(groupKey, [...agreeing, { index, publicKey }], threshold).fit.includes(index);
    fit = [...decided, ...remembered.filter(fitsToo).map(({ index }) => index)];
  } else fit = partitionPublicShares(groupKey, [...answering, ...remembered], threshold).fit;
  for (const { index, publicKey } of [...answering, ...remembered]) {
    if (fit.includes(index)) nodes[index - 1]!.publicKey = publicKey;
  }
  const misfits = answering.filter(({ index }) => !fit.includes(index)).map(({ index }) => index);
  for (const index of misfits) {
    const node = nodes[index - 1]!;
    if (decided.length >= threshold) {
      leftOut(
        node,
        'inconsistent-key',
        `The public key of OPRF node ${index} (${node.url}) does not interpolate to the group key with nodes ${list(decided)}, which ` +
          'agree with each other: it holds a share of another split, or of the other side of a refresh (an old share, or a new one ' +
          'while those are old). Give every node its share of one split, or refresh every node together (npm run oprf -- refresh).',
      );
    } else {
      const others = [...answering, ...remembered].map((share) => share.index).filter((other) => other !== index);
      leftOut(
        node,
        'keys-disagree',
        `The public key of OPRF node ${index} (${node.url}) does not fit the group key together with the keys of nodes ${list(others)}, and ` +
          `fewer than ${threshold} answering nodes agree, so the server cannot tell which one is wrong (one may hold an old share from ` +
          'before a refresh, or another split). None of them is used with the others until enough nodes agree: bring back a node of ' +
          'the current split, or give every node its share of one split.',
      );
    }
  }
  return { threshold, groupPublicKey: groupKey, nodes };
}

type Share = { index: number; publicKey: Uint8Array };
const list = (indices: readonly number[]) => indices.join(', ');

function leftOut(node: OprfNode, problem: NodeProblem, detail: string) {
  node.problem = problem;
  node.detail = detail;
}

/** The recorded group key if a node names it; else the one most nodes name (the lowest place first on a tie). */
function chooseGroup(groups: string[], isRecorded: (groupPublicKey: Uint8Array) => boolean): string | undefined {
  const recorded = groups.find((group) => isRecorded(new Uint8Array(Buffer.from(group, 'base64url'))));
  if (recorded) return recorded;
  const counts = new Map<string, number>();
  for (const group of groups) counts.set(group, (counts.get(group) ?? 0) + 1);
  let best: string | undefined;
  for (const [group, count] of counts) if (best === undefined || count > counts.get(best)!) best = group;
  return best;
}

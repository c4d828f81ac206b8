import { ristretto255Suite, ThresholdKeyMismatchError, type OprfKeyShare, type OprfPublicShare, type OprfSuite } from '@zeroid/protocol';
import { babyJubjubSuite } from '@zeroid/protocol/v3';

/** The name of a node's share file, in its DATA_DIR (as `npm run oprf -- split` writes it). */
export const SHARE_FILE = 'oprf-share.json';

/** One suite's share of one sharing: the secret kᵢ, the node's Kᵢ, the group key and every node's Kⱼ. */
export interface OprfSharing {
  share: Uint8Array;
  /** Kᵢ = kᵢ·G, what the node publishes. */
  publicKey: Uint8Array;
  /** K = k·G, the single key's public key: what every identity of this suite is derived under. */
  groupPublicKey: Uint8Array;
  /** Every node's Kⱼ, in index order. */
  publicShares: OprfPublicShare[];
}

/**
 * One node's share of the OPRF key, as its file holds it. Besides the secret `share` it records the
 * node's place (`index` of `count`, any `threshold` of which combine) and every node's public share,
 * so a node can check on its own, at start, that its share lies on the group key's polynomial.
 * `v3` is the node's share of the protocol v3 key (decision 056: v3KeyFromV2 of the same key, split
 * for the same nodes, t and n); a file written before v3 has none, and its node serves v2 only.
 */
export interface OprfShareFile extends OprfSharing {
  suite: string;
  index: number;
  threshold: number;
  count: number;
  v3?: OprfSharing;
}

/** A share file that must not be served; the message says what to fix and never quotes the share. */
export class ShareFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareFileError';
  }
}

/** One suite's part of every node's file, for `shares` of the key whose public key is `groupPublicKey`. */
function sharingsOf(suite: OprfSuite, groupPublicKey: Uint8Array, shares: OprfKeyShare[]): OprfSharing[] {
  const publicShares = shares.map((share) => suite.publicShare(share));
  return shares.map((share, i) => ({ share: share.share, publicKey: publicShares[i]!.publicKey, groupPublicKey, publicShares }));
}

/**
 * The files of one sharing, one per node: `shares` of the v2 key whose public key is
 * `groupPublicKey`, and, when given, `v3` shares of the v3 key (same indices, same threshold).
 */
export function shareFilesOf(
  groupPublicKey: Uint8Array,
  shares: OprfKeyShare[],
  threshold: number,
  v3?: { groupPublicKey: Uint8Array; shares: OprfKeyShare[] },
): OprfShareFile[] {
  const v3Sharings = v3 && sharingsOf(babyJubjubSuite, v3.groupPublicKey, v3.shares);
  return sharingsOf(ristretto255Suite, groupPublicKey, shares).map((sharing, i) => ({
    suite: ristretto255Suite.id,
    index: shares[i]!.index,
    threshold,
    count: shares.length,
    ...sharing,
    ...(v3Sharings ? { v3: v3Sharings[i]! } : {}),
  }));
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

const encodeSharing = (sharing: OprfSharing) => ({
  share: b64(sharing.share),
  publicKey: b64(sharing.publicKey),
  groupPublicKey: b64(sharing.groupPublicKey),
  publicShares: sharing.publicShares.map(({ index, publicKey }) => ({ index, publicKey: b64(publicKey) })),
});

/** The file's JSON text (keys base64url). */
export function encodeShareFile(file: OprfShareFile): string {
  const body = {
    suite: file.suite,
    index: file.index,
    threshold: file.threshold,
    count: file.count,
    ...encodeSharing(file),
    ...(file.v3 ? { v3: { suite: babyJubjubSuite.id, ...encodeSharing(file.v3) } } : {}),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/**
 * Parses a share file and checks it against itself: the suite; the place (1 ≤ index ≤ count,
 * 2 ≤ threshold ≤ count ≤ 255); that the share's own public key is the recorded `publicKey` and the
 * node's entry in `publicShares`; and that all the public shares lie on one polynomial of degree t−1
 * through the group key (`checkPublicShares`). The same checks apply to the v3 share when the file
 * has one. A node whose share does not match the place it publishes would only ever give answers
 * every client rejects, so it must not start.
 * @throws ShareFileError naming `source` and what is wrong.
 */
export function decodeShareFile(text: string, source: string): OprfShareFile {
  const fail = (what: string): never => {
    throw new ShareFileError(`${source}: ${what}`);
  };
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return fail('not JSON; expected a share file written by `npm run oprf -- split` or `refresh`.');
  }
  if (typeof raw !== 'object' || raw === null) return fail('not a share file.');
  if (raw.suite !== ristretto255Suite.id) fail(`suite is not ${ristretto255Suite.id}.`);
  const int = (name: string, min: number, max: number) => {
    const value = raw[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      fail(`${name} must be an integer from ${min} to ${max}.`);
    return value as number;
  };
  const count = int('count', 2, 255);
  const threshold = int('threshold', 2, count);
  const index = int('index', 1, count);
  const place = { index, threshold, count };
  const sharing = decodeSharing(ristretto255Suite, raw, '', place, fail);
  let v3: OprfSharing | undefined;
  if (raw.v3 !== undefined) {
    const part = raw.v3 as Record<string, unknown>;
    if (typeof part !== 'object' || part === null || part.suite !== babyJubjubSuite.id) fail(`v3.suite is not ${babyJubjubSuite.id}.`);
    v3 = decodeSharing(babyJubjubSuite, part, 'v3.', place, fail);
  }
  return { suite: ristretto255Suite.id, ...place, ...sharing, ...(v3 ? { v3 } : {}) };
}

/** One suite's part of a share file, checked against itself and the node's place. */
function decodeSharing(
  suite: OprfSuite,
  raw: Record<string, unknown>,
  prefix: string,
  { index, threshold, count }: { index: number; threshold: number; count: number },
  fail: (what: string) => never,
): OprfSharing {
  const key = (value: unknown, name: string) => {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(value)) fail(`${prefix}${name} is not a base64url 32-byte key.`);
    return new Uint8Array(Buffer.from(value, 'base64url'));
  };
  const share = key(raw.share, 'share');
  const publicKey = key(raw.publicKey, 'publicKey');
  const groupPublicKey = key(raw.groupPublicKey, 'groupPublicKey');
  if (!Array.isArray(raw.publicShares) || raw.publicShares.length !== count) fail(`${prefix}publicShares must list all ${count} nodes.`);
  const publicShares = (raw.publicShares as Array<{ index?: unknown; publicKey?: unknown }>).map((entry, i) => {
    if (entry?.index !== i + 1) fail(`${prefix}publicShares must be in index order, 1 to count.`);
    return { index: i + 1, publicKey: key(entry.publicKey, `publicShares[${i}].publicKey`) };
  });

  let derived: Uint8Array;
  try {
    derived = suite.publicKey(share);
  } catch {
    return fail(`${prefix}share is not a valid ${suite.id} scalar.`);
  }
  const replace = `Replace it with node ${index}'s file from the latest \`npm run oprf -- split\` or \`refresh\`.`;
  if (b64(derived) !== b64(publicKey)) fail(`the ${prefix}share does not match its recorded publicKey (node ${index}'s Kᵢ). ${replace}`);
  if (b64(publicShares[index - 1]!.publicKey) !== b64(publicKey)) {
    fail(
      `${prefix}publicShares does not list this node's publicKey at index ${index}: the file was edited or mixes two sharings. ${replace}`,
    );
  }
  try {
    suite.checkPublicShares(groupPublicKey, publicShares, threshold);
  } catch (error) {
    if (!(error instanceof ThresholdKeyMismatchError || error instanceof RangeError)) throw error;
    fail(`the ${prefix}public shares do not interpolate to ${prefix}groupPublicKey (${error.message}). ${replace}`);
  }
  return { share, publicKey, groupPublicKey, publicShares };
}

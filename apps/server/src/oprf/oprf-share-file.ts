import {
  OPRF_SUITE,
  ThresholdKeyMismatchError,
  checkPublicShares,
  oprfPublicKey,
  oprfPublicShare,
  type OprfKeyShare,
  type OprfPublicShare,
} from '@zeroid/protocol';

/** The name of a node's share file, in its DATA_DIR (as `npm run oprf -- split` writes it). */
export const SHARE_FILE = 'oprf-share.json';

/**
 * One node's share of the OPRF key, as its file holds it. Besides the secret `share` it records the
 * node's place (`index` of `count`, any `threshold` of which combine) and every node's public share,
 * so a node can check on its own, at start, that its share lies on the group key's polynomial.
 */
export interface OprfShareFile {
  suite: string;
  index: number;
  threshold: number;
  count: number;
  share: Uint8Array;
  /** Kᵢ = kᵢ·G, what the node publishes. */
  publicKey: Uint8Array;
  /** K = k·G, the single-key public key every identity so far was derived under. */
  groupPublicKey: Uint8Array;
  /** Every node's Kⱼ, in index order. */
  publicShares: OprfPublicShare[];
}

/** A share file that must not be served; the message says what to fix and never quotes the share. */
export class ShareFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareFileError';
  }
}

/** The files of one sharing, one per node, for `shares` of the key whose public key is `groupPublicKey`. */
export function shareFilesOf(groupPublicKey: Uint8Array, shares: OprfKeyShare[], threshold: number): OprfShareFile[] {
  const publicShares = shares.map(oprfPublicShare);
  return shares.map((share, i) => ({
    suite: OPRF_SUITE,
    index: share.index,
    threshold,
    count: shares.length,
    share: share.share,
    publicKey: publicShares[i]!.publicKey,
    groupPublicKey,
    publicShares,
  }));
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The file's JSON text (keys base64url). */
export function encodeShareFile(file: OprfShareFile): string {
  const body = {
    suite: file.suite,
    index: file.index,
    threshold: file.threshold,
    count: file.count,
    share: b64(file.share),
    publicKey: b64(file.publicKey),
    groupPublicKey: b64(file.groupPublicKey),
    publicShares: file.publicShares.map(({ index, publicKey }) => ({ index, publicKey: b64(publicKey) })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/**
 * Parses a share file and checks it against itself: the suite; the place (1 ≤ index ≤ count,
 * 2 ≤ threshold ≤ count ≤ 255); that the share's own public key is the recorded `publicKey` and the
 * node's entry in `publicShares`; and that all the public shares lie on one polynomial of degree t−1
 * through the group key (`checkPublicShares`). A node whose share does not match the place it
 * publishes would only ever give answers every client rejects, so it must not start.
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
  if (raw.suite !== OPRF_SUITE) fail(`suite is not ${OPRF_SUITE}.`);
  const int = (name: string, min: number, max: number) => {
    const value = raw[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      fail(`${name} must be an integer from ${min} to ${max}.`);
    return value as number;
  };
  const key = (value: unknown, name: string) => {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(value)) fail(`${name} is not a base64url 32-byte key.`);
    return new Uint8Array(Buffer.from(value as string, 'base64url'));
  };
  const count = int('count', 2, 255);
  const threshold = int('threshold', 2, count);
  const index = int('index', 1, count);
  const share = key(raw.share, 'share');
  const publicKey = key(raw.publicKey, 'publicKey');
  const groupPublicKey = key(raw.groupPublicKey, 'groupPublicKey');
  if (!Array.isArray(raw.publicShares) || raw.publicShares.length !== count) fail(`publicShares must list all ${count} nodes.`);
  const publicShares = (raw.publicShares as Array<{ index?: unknown; publicKey?: unknown }>).map((entry, i) => {
    if (entry?.index !== i + 1) fail('publicShares must be in index order, 1 to count.');
    return { index: i + 1, publicKey: key(entry.publicKey, `publicShares[${i}].publicKey`) };
  });

  let derived: Uint8Array;
  try {
    derived = oprfPublicKey(share);
  } catch {
    return fail('share is not a valid ristretto255 scalar.');
  }
  const replace = `Replace it with node ${index}'s file from the latest \`npm run oprf -- split\` or \`refresh\`.`;
  if (b64(derived) !== b64(publicKey)) fail(`the share does not match its recorded publicKey (node ${index}'s Kᵢ). ${replace}`);
  if (b64(publicShares[index - 1]!.publicKey) !== b64(publicKey)) {
    fail(`publicShares does not list this node's publicKey at index ${index}: the file was edited or mixes two sharings. ${replace}`);
  }
  try {
    checkPublicShares(groupPublicKey, publicShares, threshold);
  } catch (error) {
    if (!(error instanceof ThresholdKeyMismatchError)) throw error;
    fail(`the public shares do not interpolate to groupPublicKey (${error.message}). ${replace}`);
  }
  return { suite: OPRF_SUITE, index, threshold, count, share, publicKey, groupPublicKey, publicShares };
}

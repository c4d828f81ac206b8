import { promises as fs } from 'node:fs';
import path from 'node:path';
import { oprfPublicKey, recoverOprfKey, splitOprfKey } from '@zeroid/protocol';
import { babyJubjubSuite, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { SHARE_FILE, ShareFileError, shareFilesOf, type OprfShareFile } from '../oprf/oprf-share-file.ts';
import { readShareFile } from '../oprf/oprf-share-store.ts';
import { UsageError, type CliContext } from './cli-context.ts';
import { writeShares } from './write-shares.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * `refresh`: reads the share files in `input` (its own oprf-share.json and those of its immediate
 * folders, as `split` writes them), rebuilds the key in memory from t of them, checks it is the
 * group key they all name, and shares it again on a fresh polynomial (possibly another t and n).
 * Outputs do not change; the old shares no longer combine with the new ones, so once the nodes run
 * the new files and the old ones are deleted, shares stolen before are useless.
 *
 * The protocol v3 key is `v3KeyFromV2` of the recovered key (as `split` made it, decision 056), so it
 * is shared afresh too, and files written before v3 gain their v3 shares here. A file whose v3 group
 * key is not that key's is refused: it belongs to another key.
 */
export async function refreshShares(
  options: { threshold: number; shares: number; out: string; input: string },
  context: CliContext,
): Promise<void> {
  const files = await findShareFiles(options.input);
  if (files.length === 0) throw new UsageError(`No share files in ${options.input} (looked for ${SHARE_FILE} in it and its folders).`);
  const [first] = files;
  const group = b64(first!.groupPublicKey);
  if (files.some((file) => b64(file.groupPublicKey) !== group || file.threshold !== first!.threshold)) {
    throw new ShareFileError(`The share files in ${options.input} belong to different keys or sharings; keep one sharing's files only.`);
  }
  if (files.length < first!.threshold) {
    throw new UsageError(`Only ${files.length} share file(s) in ${options.input}; this sharing needs ${first!.threshold}.`);
  }
  const chosen = files.slice(0, first!.threshold).map(({ index, share }) => ({ index, share }));
  const recovered = recoverOprfKey(chosen);
  const v3Key = v3KeyFromV2(recovered);
  try {
    if (b64(oprfPublicKey(recovered)) !== group)
      throw new ShareFileError(`The share files in ${options.input} do not combine to their group key: they mix two sharings.`);
    const v3Group = babyJubjubSuite.publicKey(v3Key);
    if (files.some((file) => file.v3 && b64(file.v3.groupPublicKey) !== b64(v3Group))) {
      throw new ShareFileError(
        `The v3 shares in ${options.input} are not of the v3 key this OPRF key gives (v3KeyFromV2): they belong to another key.`,
      );
    }
    const fresh = splitOprfKey(recovered, options.threshold, options.shares);
    const v3 = { groupPublicKey: v3Group, shares: babyJubjubSuite.splitKey(v3Key, options.threshold, options.shares) };
    await writeShares(options.out, shareFilesOf(first!.groupPublicKey, fresh, options.threshold, v3), context);
  } finally {
    recovered.fill(0);
    v3Key.fill(0);
  }
  context.print(
    `Refreshed from nodes ${chosen.map(({ index }) => index).join(', ')}. Give every node its new file, then delete every old share file and its backups.`,
  );
}

async function findShareFiles(input: string): Promise<OprfShareFile[]> {
  let entries;
  try {
    entries = await fs.readdir(input, { withFileTypes: true });
  } catch {
    throw new UsageError(`--in ${input} is not a readable folder.`);
  }
  const candidates = [
    ...entries.filter((entry) => entry.isFile() && entry.name === SHARE_FILE).map(() => path.join(input, SHARE_FILE)),
    ...entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(input, entry.name, SHARE_FILE)),
  ];
  const files: OprfShareFile[] = [];
  const seen = new Set<number>();
  for (const candidate of candidates.sort()) {
    if (!(await fs.stat(candidate).catch(() => undefined))) continue;
    const file = await readShareFile(candidate);
    if (seen.has(file.index))
      throw new ShareFileError(`Two share files in ${input} are node ${file.index}'s; keep one sharing's files only.`);
    seen.add(file.index);
    files.push(file);
  }
  return files.sort((a, b) => a.index - b.index);
}

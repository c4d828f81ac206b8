import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SHARE_FILE, type OprfShareFile } from '../oprf/oprf-share-file.ts';
import { writeShareFile } from '../oprf/oprf-share-store.ts';
import type { CliContext } from './cli-context.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * Writes one folder per node, `out/node-<i>/oprf-share.json` (folders 0700, files 0600), each usable
 * as that node's DATA_DIR, and prints what the operator configures: the group key and the node list.
 */
export async function writeShares(out: string, files: OprfShareFile[], context: CliContext): Promise<void> {
  await fs.mkdir(out, { recursive: true, mode: 0o700 });
  for (const file of files) {
    const dir = path.join(out, `node-${file.index}`);
    await fs.mkdir(dir, { mode: 0o700 });
    await writeShareFile(path.join(dir, SHARE_FILE), file);
  }
  const [first] = files;
  context.print(`Group public key: ${b64(first!.groupPublicKey)}`);
  if (first!.v3) context.print(`Protocol v3 group public key: ${b64(first!.v3.groupPublicKey)}`);
  context.print(
    `Any ${first!.threshold} of these ${files.length} nodes answer (OPRF_THRESHOLD=${first!.threshold}); list them in OPRF_NODES in this order:`,
  );
  for (const file of files)
    context.print(`  node ${file.index}: DATA_DIR=${path.join(out, `node-${file.index}`)}  publicKey ${b64(file.publicKey)}`);
}

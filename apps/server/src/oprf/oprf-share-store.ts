import { promises as fs } from 'node:fs';
import path from 'node:path';
import { decodeShareFile, encodeShareFile, SHARE_FILE, ShareFileError, type OprfShareFile } from './oprf-share-file.ts';

/**
 * Writes a share file readable by its owner only (0600), refusing to overwrite one: a share
 * silently replaced is a node that can no longer answer, or an old share kept alive.
 */
export async function writeShareFile(file: string, share: OprfShareFile): Promise<void> {
  await fs.writeFile(file, encodeShareFile(share), { mode: 0o600, flag: 'wx' });
  await fs.chmod(file, 0o600); // the umask cannot widen it, but an inherited ACL might
}

/**
 * Reads and checks a share file (`decodeShareFile`). Like ssh with a private key, it refuses a file
 * that the group or others may read: a share is a secret, and t of them are the key.
 * @throws ShareFileError saying what to fix.
 */
export async function readShareFile(file: string): Promise<OprfShareFile> {
  let text: string;
  try {
    const { mode } = await fs.stat(file);
    if ((mode & 0o077) !== 0)
      throw new ShareFileError(`${file} may be read by others (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${file}.`);
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ShareFileError) throw error;
    throw new ShareFileError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return decodeShareFile(text, file);
}

/**
 * A node's share: OPRF_SHARE (base64url of the whole share file's JSON, so every check still
 * applies) overrides `DATA_DIR/oprf-share.json`. Refuses a DATA_DIR that holds the server's whole
 * key (`oprf-key.json`): a share beside the key it was cut from protects nothing.
 * @throws ShareFileError saying what to fix.
 */
export async function loadNodeShare(dataDir: string, fromEnv: string | undefined): Promise<OprfShareFile> {
  if (await exists(path.join(dataDir, 'oprf-key.json'))) {
    throw new ShareFileError(
      `${dataDir} holds oprf-key.json, the server's whole OPRF key. Give the node a DATA_DIR of its own, and delete the whole key once every node runs (docs/oprf-nodes.md).`,
    );
  }
  if (fromEnv) return decodeShareFile(Buffer.from(fromEnv, 'base64url').toString('utf8'), 'OPRF_SHARE');
  const file = path.join(dataDir, SHARE_FILE);
  if (!(await exists(file))) {
    throw new ShareFileError(`No share: set OPRF_SHARE, or put this node's ${SHARE_FILE} (from \`npm run oprf -- split\`) in ${dataDir}.`);
  }
  return readShareFile(file);
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

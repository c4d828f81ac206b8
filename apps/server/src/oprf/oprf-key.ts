import { promises as fs } from 'node:fs';
import path from 'node:path';
import { generateOprfKeyPair, oprfPublicKey } from '@zeroid/protocol';

const KEY_FILE = 'oprf-key.json';

/**
 * Loads the server's OPRF private key, creating it on first start. Every commitment, DID and ID tag
 * is a function of this key: lose it and no registered person can ever verify again, so the key file
 * (mode 0600) must be backed up with the database. OPRF_PRIVATE_KEY (base64url) overrides the file.
 */
export async function loadOprfKey(dataDir: string, fromEnv: string | undefined): Promise<Uint8Array> {
  if (fromEnv) return decodeKey(fromEnv, 'OPRF_PRIVATE_KEY');

  const file = path.join(dataDir, KEY_FILE);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    const stored = JSON.parse(await fs.readFile(file, 'utf8')) as { privateKey?: string };
    return decodeKey(stored.privateKey ?? '', file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey, publicKey } = await generateOprfKeyPair();
  const body = JSON.stringify({
    suite: 'ristretto255-SHA512',
    privateKey: Buffer.from(privateKey).toString('base64url'),
    publicKey: Buffer.from(publicKey).toString('base64url'),
    createdAt: new Date().toISOString(),
  });
  // 'wx' fails if another process created the key first; then we read theirs.
  try {
    await fs.writeFile(file, body + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOprfKey(dataDir, undefined);
    throw error;
  }
  return privateKey;
}

function decodeKey(encoded: string, source: string): Uint8Array {
  const key = new Uint8Array(Buffer.from(encoded, 'base64url'));
  try {
    oprfPublicKey(key);
  } catch {
    throw new Error(`${source} does not hold a valid ristretto255 OPRF private key`);
  }
  return key;
}

import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * A random 32-byte secret kept in `dataDir/fileName` (mode 0600), made on first use; processes
 * starting together agree on the first one written. For secrets that must stay out of the database
 * (decisions 021 and 038) and that the operator need not choose.
 */
export async function loadDataDirSecret(dataDir: string, fileName: string): Promise<Uint8Array> {
  const file = path.join(dataDir, fileName);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    const stored = JSON.parse(await fs.readFile(file, 'utf8')) as { secret?: string };
    const secret = new Uint8Array(Buffer.from(stored.secret ?? '', 'base64url'));
    if (secret.length !== 32) throw new Error(`${file} does not hold a 32-byte secret: delete it to make a new one`);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  try {
    await fs.writeFile(file, JSON.stringify({ secret: secret.toString('base64url'), createdAt: new Date().toISOString() }) + '\n', {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadDataDirSecret(dataDir, fileName);
    throw error;
  }
  return new Uint8Array(secret);
}

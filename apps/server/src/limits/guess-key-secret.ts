import { hkdfSync } from 'node:crypto';
import { loadDataDirSecret } from '../storage/data-dir-secret.ts';

const SECRET_FILE = 'attempt-key-secret.json';

/**
 * The secret that keys client addresses in the guess limits' counters (HMAC-SHA256), derived from the
 * OPRF private key with its own HKDF label. Deriving it, rather than keeping a second secret,
 * means every instance that shares the OPRF key (as it must) keys a client alike, with nothing new
 * to configure or back up; HKDF is one-way, so the secret tells nothing about the OPRF key.
 */
export function guessKeySecret(oprfPrivateKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', oprfPrivateKey, new Uint8Array(0), 'zeroid/attempt-keys/v1', 32));
}

/**
 * The same secret in threshold mode, where this process holds no OPRF key to derive it from
 * (decision 021): ATTEMPT_KEY_SECRET (base64url) if set, which every instance on one database must
 * share, else a random one kept in DATA_DIR (mode 0600), made on first start. It is not kept in the
 * database: with the secret beside the counters, a thief could key every IPv4 address and read who
 * tried. Losing it only makes the counters start afresh.
 */
export async function loadGuessKeySecret(dataDir: string, fromEnv: string | undefined): Promise<Uint8Array> {
  if (fromEnv) return new Uint8Array(Buffer.from(fromEnv, 'base64url'));
  return loadDataDirSecret(dataDir, SECRET_FILE);
}

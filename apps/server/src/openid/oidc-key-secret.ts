import { hkdfSync } from 'node:crypto';
import { loadDataDirSecret } from '../storage/data-dir-secret.ts';
import { loadOprfKey } from '../oprf/oprf-key.ts';

const SECRET_FILE = 'oidc-key-secret.json';

/**
 * The secret the provider's signing keys and cookie secrets are encrypted under in the database
 * (decision 038), so that a copy of the database alone cannot sign an ID token. It never enters the
 * database. In order: OIDC_KEY_SECRET (base64url, 32 bytes), which every process on one database
 * must share; else, in the single-key mode, HKDF of the OPRF private key (kept beside it in
 * DATA_DIR or given by the environment, and shared by every process already), with its own label;
 * else (threshold mode, no OPRF key here) a random secret in DATA_DIR/oidc-key-secret.json (0600).
 */
export async function loadOidcKeySecret(options: {
  fromEnv: string | undefined;
  dataDir: string;
  /** The single key's private key; undefined in threshold mode. */
  oprfPrivateKey: Uint8Array | undefined;
}): Promise<Uint8Array> {
  if (options.fromEnv) return new Uint8Array(Buffer.from(options.fromEnv, 'base64url'));
  if (options.oprfPrivateKey) return oidcKeySecretFromOprfKey(options.oprfPrivateKey);
  return loadDataDirSecret(options.dataDir, SECRET_FILE);
}

/** HKDF-SHA256 of the OPRF private key, label "zeroid/oidc-keys/v1": one-way, so it tells nothing about the OPRF key. */
export function oidcKeySecretFromOprfKey(oprfPrivateKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', oprfPrivateKey, new Uint8Array(0), 'zeroid/oidc-keys/v1', 32));
}

/** The same secret for a command line run against the server's configuration (`npm run oidc`). */
export async function oidcKeySecretOf(config: {
  oidcKeySecret: string | undefined;
  dataDir: string;
  oprfNodes: readonly string[];
  oprfPrivateKey: string | undefined;
}): Promise<Uint8Array> {
  const single = config.oprfNodes.length === 0;
  return loadOidcKeySecret({
    fromEnv: config.oidcKeySecret,
    dataDir: config.dataDir,
    oprfPrivateKey: single && !config.oidcKeySecret ? await loadOprfKey(config.dataDir, config.oprfPrivateKey) : undefined,
  });
}

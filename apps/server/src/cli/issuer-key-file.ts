import { promises as fs } from 'node:fs';
import { ISSUER_PRIVATE_KEY_BYTES, issuerPublicKey } from '@zeroid/protocol/credential';

/** The key file's format name: a file of another format or version is refused, never guessed at. */
const FORMAT = 'zeroid-issuer-key-v1';

/** An issuer key file that cannot be used: exit 1, with the reason (never the key). */
export class IssuerKeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IssuerKeyFileError';
  }
}

/**
 * Writes a new issuer key file, mode 0600 from its creation (never world-readable, not even for a
 * moment), and refuses to overwrite one: losing an issuer key orphans nothing already registered,
 * but replacing it silently would make every credential already given out untrusted with the new key.
 */
export async function writeIssuerKeyFile(file: string, name: string, privateKey: Uint8Array): Promise<string> {
  const publicKey = issuerPublicKey(privateKey);
  const body = { format: FORMAT, name, publicKey, privateKey: Buffer.from(privateKey).toString('base64url') };
  try {
    await fs.writeFile(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new IssuerKeyFileError(`${file} exists already; choose another --out.`);
    throw new IssuerKeyFileError(`Could not write ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`);
  }
  await fs.chmod(file, 0o600);
  return publicKey;
}

/** Reads an issuer key file, checking its format and that its public key is the private key's. */
export async function readIssuerKeyFile(file: string): Promise<{ name: string; publicKey: string; privateKey: Uint8Array }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new IssuerKeyFileError(code ? `Could not read ${file}: ${code}.` : `${file} is not an issuer key file (not JSON).`);
  }
  const body = parsed as Partial<Record<'format' | 'name' | 'publicKey' | 'privateKey', unknown>>;
  if (body?.format !== FORMAT || typeof body.name !== 'string' || typeof body.privateKey !== 'string') {
    throw new IssuerKeyFileError(`${file} is not an issuer key file (${FORMAT}).`);
  }
  const privateKey = /^[A-Za-z0-9_-]+$/.test(body.privateKey)
    ? new Uint8Array(Buffer.from(body.privateKey, 'base64url'))
    : new Uint8Array();
  if (privateKey.length !== ISSUER_PRIVATE_KEY_BYTES) throw new IssuerKeyFileError(`${file} holds a malformed private key.`);
  const publicKey = issuerPublicKey(privateKey);
  if (body.publicKey !== publicKey) throw new IssuerKeyFileError(`${file}'s public key is not its private key's: the file was edited.`);
  return { name: body.name, publicKey, privateKey };
}

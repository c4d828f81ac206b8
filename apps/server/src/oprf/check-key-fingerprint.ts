import { createHash } from 'node:crypto';
import type { KeyFingerprintRepository } from '../storage/types.ts';

/**
 * The purpose under which a database records its protocol v3 OPRF key (decision 058): the single
 * key's `v3KeyFromV2`, or the nodes' v3 group key. Its own row, beside `oprf`.
 */
export const V3_PURPOSE = 'oprf-v3';

/** A key the stored data depends on, as a database records it. */
export interface KeyInUse {
  /** What the key is for: 'oprf' for the server's OPRF key (or the nodes' group key), `V3_PURPOSE` for the v3 key. */
  purpose: string;
  /** The RFC 9497 suite, so the same bytes under another suite never match. */
  suite: string;
  publicKey: Uint8Array;
}

/**
 * SHA-256 over a label, the purpose, the suite and the public key, in hex. Public values only: the
 * fingerprint tells an operator which key a database belongs to without revealing anything a thief
 * could use (the public key itself is published at /oprf/public-key).
 */
export function keyFingerprint({ purpose, suite, publicKey }: KeyInUse): string {
  const hash = createHash('sha256');
  for (const part of ['zeroid:key-fingerprint:v1', purpose, suite]) hash.update(part).update(new Uint8Array([0]));
  return hash.update(publicKey).digest('hex');
}

/** The database belongs to another key: fatal, since retrying cannot fix it. */
export class KeyMismatchError extends Error {
  readonly code = 'ZEROID_KEY_MISMATCH';
  constructor(
    readonly purpose: string,
    readonly recorded: string,
    readonly current: string,
  ) {
    super(
      `This database was created with another ${purpose.toUpperCase()} key (its fingerprint ${recorded.slice(0, 16)}…, ` +
        `this server's ${current.slice(0, 16)}…). Every identity in it was derived with that key; serving it with this one ` +
        'would let the same people register again and nobody verify. Start this server with the key of the instance that ' +
        'created the database: set OPRF_PRIVATE_KEY to it, or restore DATA_DIR/oprf-key.json from that instance.',
    );
    this.name = 'KeyMismatchError';
  }
}

/**
 * Binds the database to this server's key: the first server to use a database records its key's
 * fingerprint (an existing database without one adopts the current key); every later server must
 * have the same key or it throws KeyMismatchError. A second instance started on the same PostgreSQL
 * without OPRF_PRIVATE_KEY would otherwise serve with a fresh random key.
 */
export async function checkKeyFingerprint(repository: KeyFingerprintRepository, key: KeyInUse): Promise<void> {
  const current = keyFingerprint(key);
  const recorded = await repository.adopt(key.purpose, current);
  if (recorded !== current) throw new KeyMismatchError(key.purpose, recorded, current);
}

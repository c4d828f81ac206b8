import { ISSUER_TREE_DEPTH, parseIssuerKey } from '@zeroid/protocol/credential';
import type { AffinePoint } from '@zeroid/protocol/v3';

/** One issuer this server trusts: its name (the operator's, or its key's first characters) and public key. */
export interface TrustedIssuer {
  name: string;
  publicKey: string;
  point: AffinePoint;
}

const NAME = /^[^=,]{1,100}$/;

/**
 * `TRUSTED_ISSUERS` read: comma-separated public keys as `npm run issuer -- public-key` prints them,
 * each optionally `name=key`. Each key is checked as a credential's is (canonical, in the prime-order
 * subgroup, not small order: such a key would let anyone sign for it). A key listed twice is a
 * mistake, reported; an unnamed issuer is named after its key's first 8 characters.
 */
export function readTrustedIssuers(value: string | undefined, problem: (message: string) => void): TrustedIssuer[] {
  const issuers: TrustedIssuer[] = [];
  const entries = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const [index, entry] of entries.entries()) {
    const equals = entry.lastIndexOf('=');
    const name = equals === -1 ? undefined : entry.slice(0, equals).trim();
    const publicKey = entry.slice(equals + 1).trim();
    const point = parseIssuerKey(publicKey);
    if (!point) {
      problem(`TRUSTED_ISSUERS entry ${index + 1} is not an issuer public key (43 base64url characters from npm run issuer -- public-key)`);
      continue;
    }
    if (name !== undefined && !NAME.test(name)) {
      problem(`TRUSTED_ISSUERS entry ${index + 1}: a name is 1 to 100 characters, without "=" or ","`);
      continue;
    }
    if (issuers.some((issuer) => issuer.publicKey === publicKey)) {
      problem(`TRUSTED_ISSUERS lists the key ${publicKey.slice(0, 8)}… twice`);
      continue;
    }
    issuers.push({ name: name ?? `issuer ${publicKey.slice(0, 8)}`, publicKey, point });
  }
  // The credential proof hides the issuer in a tree of fixed depth (decision 085).
  if (issuers.length > 2 ** ISSUER_TREE_DEPTH)
    problem(`TRUSTED_ISSUERS lists ${issuers.length} issuers; at most ${2 ** ISSUER_TREE_DEPTH} fit`);
  return issuers;
}

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * The k-anonymity bucket of a commitment: the first `hexChars` lowercase hex characters of
 * sha256(decimal commitment). Asking the server for a bucket reveals only that the asker is one of
 * the bucket's members.
 */
export function memberBucket(commitment: string, hexChars: number): string {
  return bytesToHex(sha256(new TextEncoder().encode(commitment))).slice(0, hexChars);
}

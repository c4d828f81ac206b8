import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { ADMISSION_BYTES, admissionMessage, type AdmissionSuite } from '../oprf/oprf-admission-message.ts';

/** SubjectPublicKeyInfo for an Ed25519 public key: this prefix, then the 32 bytes (RFC 8410). */
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
/** How far ahead of this node's clock an admission may be dated (the server's clock may run ahead). */
const CLOCK_SKEW_MS = 30_000;

export type AdmissionVerdict = 'admitted' | 'missing' | 'invalid' | 'expired';

/**
 * A node's check of an admission (decision 032): signed by one of the servers in ADMISSION_KEYS, over
 * this very request (its blinded elements, of its suite), issued at most `maxAgeMs` ago. Called after the elements
 * were found well-formed and before anything is spent or evaluated.
 */
export function admissionChecker(publicKeys: readonly Uint8Array[], maxAgeMs: number) {
  const keys: KeyObject[] = publicKeys.map((key) =>
    createPublicKey({ key: Buffer.concat([SPKI_ED25519, key]), format: 'der', type: 'spki' }),
  );
  return (token: string | undefined, request: Uint8Array, suite?: AdmissionSuite, now = Date.now()): AdmissionVerdict => {
    if (token === undefined || token === '') return 'missing';
    const bytes = /^[A-Za-z0-9_-]{96}$/.test(token) ? Buffer.from(token, 'base64url') : undefined;
    if (!bytes || bytes.length !== ADMISSION_BYTES) return 'invalid';
    const issuedAt = Number(bytes.readBigUInt64BE(0));
    const message = admissionMessage(issuedAt, request, suite);
    const signature = bytes.subarray(8);
    if (!keys.some((key) => verify(null, message, key, signature))) return 'invalid';
    return issuedAt > now + CLOCK_SKEW_MS || now - issuedAt > maxAgeMs ? 'expired' : 'admitted';
  };
}

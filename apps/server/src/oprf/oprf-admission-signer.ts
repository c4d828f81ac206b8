import { createPrivateKey, createPublicKey, hkdfSync, sign } from 'node:crypto';
import { ADMISSION_BYTES, admissionMessage, type AdmissionSuite } from './oprf-admission-message.ts';

/** PKCS #8 for an Ed25519 private key: this prefix, then the 32-byte seed (RFC 8410). */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The seed of the server's admission key (decision 032), derived from the attempt-key secret with
 * its own HKDF label: every instance on one database already shares that secret (ATTEMPT_KEY_SECRET,
 * decision 021), so they all sign with one key, with nothing new to configure or back up. HKDF is
 * one-way: the admission key tells nothing about the attempt-key secret.
 */
export function admissionSeed(attemptKeySecret: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', attemptKeySecret, new Uint8Array(0), 'zeroid/oprf-admission/v1', 32));
}

/**
 * Issues admissions: an Ed25519 signature over `admissionMessage`, which an OPRF node checks against
 * the server's public key (its ADMISSION_KEYS) before it evaluates anything. The server issues one only
 * after the client's guess was counted (`POST /oprf/admission`, or the raw path's own admission).
 */
export function admissionSigner(seed: Uint8Array) {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = new Uint8Array(createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32));
  return {
    /** The 32-byte Ed25519 public key the nodes list in ADMISSION_KEYS. */
    publicKey,
    /** An admission for the serialized EvaluationRequest `request` (v3: the points of `suite`), base64url. */
    issue(request: Uint8Array, now = Date.now(), suite?: AdmissionSuite): string {
      const token = Buffer.alloc(ADMISSION_BYTES);
      token.writeBigUInt64BE(BigInt(now));
      sign(null, admissionMessage(now, request, suite), privateKey).copy(token, 8);
      return token.toString('base64url');
    },
  };
}

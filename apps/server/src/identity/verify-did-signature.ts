import sodium from 'libsodium-wrappers-sumo';
import { didKeyPublicKey } from '@zeroid/protocol';

/**
 * True when `signature` (base64url, 64 bytes) is the Ed25519 signature of `message` by the key inside
 * `did` (an Ed25519 did:key). libsodium's verification is strict (RFC 8032: canonical S, no small-order
 * key or R), so one message has one accepted signature per key. False for anything malformed, and
 * before `libsodiumReady` (the server's `createServices` awaits it before serving).
 */
export function verifyDidSignature(did: string, message: Uint8Array, signature: string): boolean {
  try {
    const bytes = new Uint8Array(Buffer.from(signature, 'base64url'));
    return bytes.length === 64 && sodium.crypto_sign_verify_detached(bytes, message, didKeyPublicKey(did));
  } catch {
    return false;
  }
}

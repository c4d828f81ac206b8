import { ed25519 } from '@noble/curves/ed25519.js';
import { base64urlnopad } from '@scure/base';

/**
 * The DID key's Ed25519 signature over a v3 message (`v3RegistrationMessage`, `v3ErasureMessage`),
 * base64url without padding as `didSignature` carries it on the wire: the client's side of decision
 * 056's "DID signature". `secretKey` is `deriveRegistration(…).didKey.secretKey`; it stays on the device.
 */
export function signWithDid(message: Uint8Array, secretKey: Uint8Array): string {
  return base64urlnopad.encode(ed25519.sign(message, secretKey));
}

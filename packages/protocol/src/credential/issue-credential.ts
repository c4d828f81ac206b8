import { base64urlnopad } from '@scure/base';
import { signMessage } from '@zk-kit/eddsa-poseidon';
import { numberToBytesLE } from '@noble/curves/utils.js';
import { normaliseInput } from '../normalise-input.ts';
import { encodePoint, pointFromAffine } from '../v3/baby-jubjub-group.ts';
import { ProtocolInputError } from '../errors.ts';
import { CREDENTIAL_PREFIX, NEVER_EXPIRES, dayNumber } from './credential-format.ts';
import { credentialMessage } from './credential-message.ts';
import { issuerPublicKey } from './issuer-key.ts';

const encoder = new TextEncoder();

/**
 * Issues one credential: the issuer vouches that the person it gives this line to holds `id`, until
 * the end of `expires` (a `YYYY-MM-DD` day, UTC), or for ever without it. The ID is normalised as
 * every ID is, then signed with EdDSA-Poseidon on Baby Jubjub over `credentialMessage` (the ID's
 * field element and the expiry day). The line carries the issuer's public key, the expiry, the ID
 * (base64url of its UTF-8) and the 64-byte signature (R8's encoding, then S little-endian). Pure and
 * deterministic (RFC 8032-style nonces): an issuer's back end can call it as the CLI does. It hides
 * nothing: the ID is readable by whoever holds the line, as it was to the issuer.
 * @throws ProtocolInputError on an empty or too long ID, or an expiry that is not a real date.
 */
export function issueCredential(privateKey: Uint8Array, id: string, options: { expires?: string } = {}): string {
  const normalised = normaliseInput(id);
  const expiryDay = options.expires === undefined ? 0 : dayNumber(options.expires);
  if (expiryDay === undefined) throw new ProtocolInputError('MALFORMED_CREDENTIAL', 'The expiry must be a date written YYYY-MM-DD.');
  const { R8, S } = signMessage(privateKey, credentialMessage(normalised, expiryDay));
  const signature = new Uint8Array(64);
  signature.set(encodePoint(pointFromAffine({ x: R8[0], y: R8[1] })!), 0);
  signature.set(numberToBytesLE(S, 32), 32);
  return [
    CREDENTIAL_PREFIX,
    issuerPublicKey(privateKey),
    options.expires ?? NEVER_EXPIRES,
    base64urlnopad.encode(encoder.encode(normalised)),
    base64urlnopad.encode(signature),
  ].join('.');
}

import { ristretto255, ristretto255_hasher } from '@noble/curves/ed25519.js';
import { bytesToNumberLE } from '@noble/curves/utils.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';

const encoder = new TextEncoder();
/** RFC 9497 §3.1: "OPRFV1-" ‖ I2OSP(mode = VOPRF, 1) ‖ "-" ‖ "ristretto255-SHA512". */
const CONTEXT = concatBytes(encoder.encode('OPRFV1-'), new Uint8Array([0x01]), encoder.encode('-ristretto255-SHA512'));
const HASH_TO_GROUP_DST = concatBytes(encoder.encode('HashToGroup-'), CONTEXT);
const FINALIZE = encoder.encode('Finalize');
const u16 = (n: number) => new Uint8Array([n >> 8, n & 0xff]);

/**
 * RFC 9497 §3.3.2 Evaluate for the VOPRF mode with ristretto255-SHA512: the PRF output a client
 * would finalize after a blind round, computed directly by the holder of the key. The server's raw
 * path needs it for every raw request; it is about twice as fast as voprf-ts's `evaluate` (no
 * async wrapper classes, one scalar multiplication). The RFC's vectors check it.
 */
export function voprfEvaluate(privateKey: Uint8Array, input: Uint8Array): Uint8Array {
  const element = ristretto255_hasher.hashToCurve(input, { DST: HASH_TO_GROUP_DST });
  if (element.is0()) throw new Error('The input hashes to the identity element');
  const scalar = ristretto255.Point.Fn.create(bytesToNumberLE(privateKey));
  const issued = element.multiply(scalar).toBytes();
  return sha512(concatBytes(u16(input.length), input, u16(issued.length), issued, FINALIZE));
}

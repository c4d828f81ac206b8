/**
 * Whether 32 bytes can be the encoding of a ristretto255 element at all, by the byte rules of
 * RFC 9496 §4.3.1 (Decode) that come before any field arithmetic: the little-endian integer s must
 * be below p = 2²⁵⁵ − 19 (so bit 255 is clear) and must not be negative (its lowest bit clear).
 *
 * libsodium 1.0.18, the system library the native addon is built on (decision 031), skips the
 * bit-255 check: its `crypto_core_ristretto255_is_valid_point` accepts a valid encoding with bit 255
 * set, and decodes it as the element without it, where the WebAssembly build (a newer libsodium) and
 * noble refuse it. A node on the addon therefore evaluated, and proved, an element no other backend
 * would accept (decision 033). Checking these rules here, in front of both backends, makes the gate one
 * rule; the rest of Decode (x² a square, t not negative, y not 0) is the library's, and agrees on
 * every backend (`ristretto255-backends.test.ts` runs the RFC's list of invalid encodings on each).
 */
export function isCanonicalRistretto255Encoding(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  if ((bytes[0]! & 1) !== 0) return false; // negative (odd): RFC 9496 refuses it
  const top = bytes[31]!;
  if (top < 0x7f) return true;
  if (top > 0x7f) return false; // bit 255 set: 2²⁵⁵ or more
  // 0x7f…: at or above p only if every middle byte is 0xff and the lowest is 0xed or more.
  for (let i = 30; i >= 1; i--) if (bytes[i] !== 0xff) return true;
  return bytes[0]! < 0xed;
}

import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * Semaphore's `hash`: keccak256 of the value as 32 big-endian bytes, shifted into the scalar field.
 * A proof's circuit sees `semaphoreHash(message)` and `semaphoreHash(scope)`, never the raw values.
 */
export function semaphoreHash(value: string | bigint): bigint {
  const bytes = new Uint8Array(32);
  let n = BigInt(value);
  for (let i = 31; i >= 0; i--, n >>= 8n) bytes[i] = Number(n & 0xffn);
  return BigInt(`0x${bytesToHex(keccak_256(bytes))}`) >> 8n;
}

import { createCipheriv } from 'node:crypto';
import { base58 } from '@scure/base';

/** Bytes of keystream per row: a 31-byte commitment (padded to 32), a 32-byte ID tag, 32 bytes of DID. */
const ROW_BYTES = 96;
const BLOCKS_PER_ROW = ROW_BYTES / 16;

export interface SeedRow {
  leafIndex: number;
  commitment: bigint;
  idTag: string;
  did: string;
}

/**
 * Rows `start … start + count - 1` of a seeded data set of random identities, for scale
 * measurements only. Row i is AES-256-CTR keystream blocks 6i … 6i + 5 under `key`, so any range can
 * be produced again without the ones before it: a killed seed resumes where the database stops, and
 * SQLite, PostgreSQL and the tree builder see the same rows without sharing a file. As in
 * `randomIdentities`, each commitment is a random element of the BN254 scalar field (31 random
 * bytes, so always below the modulus), not derived from any person.
 */
export function seedRows(key: Buffer, start: number, count: number): SeedRow[] {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(start * BLOCKS_PER_ROW), 8);
  const cipher = createCipheriv('aes-256-ctr', key, iv);
  const stream = cipher.update(Buffer.alloc(count * ROW_BYTES));
  const rows: SeedRow[] = new Array<SeedRow>(count);
  for (let i = 0; i < count; i += 1) {
    const at = i * ROW_BYTES;
    // A zero commitment cannot be a member; 2^-248 odds, but a set byte costs nothing.
    stream[at + 31] = 1;
    rows[i] = {
      leafIndex: start + i,
      commitment: BigInt(`0x${stream.toString('hex', at + 1, at + 32)}`),
      idTag: stream.toString('hex', at + 32, at + 64),
      did: `did:key:z6Mk${base58.encode(stream.subarray(at + 64, at + 96))}`,
    };
  }
  return rows;
}

/** The commitments alone, as 32-byte big-endian entries (what the tree builder reads). */
export function seedCommitmentBytes(key: Buffer, start: number, count: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(start * BLOCKS_PER_ROW), 8);
  const stream = createCipheriv('aes-256-ctr', key, iv).update(Buffer.alloc(count * ROW_BYTES));
  const out = Buffer.alloc(count * 32);
  for (let i = 0; i < count; i += 1) {
    const at = i * ROW_BYTES;
    stream[at + 31] = 1;
    // Byte 0 of the row is dropped (31 bytes): the leading zero keeps the value below the field modulus.
    stream.copy(out, i * 32 + 1, at + 1, at + 32);
  }
  return out;
}

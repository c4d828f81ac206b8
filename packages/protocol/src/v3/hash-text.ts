import { expand_message_xmd } from '@noble/curves/abstract/hash-to-curve.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { QUERY_DST } from './oprf-suite.ts';

const encoder = new TextEncoder();
const DST = encoder.encode(QUERY_DST);
/** L of RFC 9380 §5.2: ⌈(⌈log₂ r⌉ + k) / 8⌉ = ⌈(254 + 128) / 8⌉ bytes for one element of F_r. */
const L = 48;

/**
 * A normalised text as one BN254 field element t: RFC 9380 hash_to_field with expand_message_xmd
 * (SHA-256), 48 bytes reduced modulo r (bias below 2⁻¹²⁸), under one DST for both domains. The text is
 * hashed outside the circuit: a client chooses t as freely as it chooses the text, so proving the hash
 * would cost constraints and bind nothing more (decision 016). The domain is bound after, inside the
 * circuit (`oprfQuery`, decision 062). Secret: t identifies the text. For count = 1 and m = 1,
 * hash_to_field is OS2IP(expand_message_xmd(msg, DST, L)) mod r, written so: noble's `hash_to_field`
 * checks its options on every call, half of this function's time (decision 063).
 */
export function hashText(normalised: string): bigint {
  return bytesToNumberBE(expand_message_xmd(encoder.encode(normalised), DST, L, sha256)) % SNARK_SCALAR_FIELD;
}

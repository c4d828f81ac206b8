import { hash_to_field } from '@noble/curves/abstract/hash-to-curve.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { QUERY_DST } from './oprf-v3-suite.ts';

const encoder = new TextEncoder();

/**
 * A normalised text as one BN254 field element t: RFC 9380 hash_to_field with expand_message_xmd
 * (SHA-256), 48 bytes reduced modulo r (bias below 2⁻¹²⁸), under one DST for both domains. The text is
 * hashed outside the circuit: a client chooses t as freely as it chooses the text, so proving the hash
 * would cost constraints and bind nothing more (decision 016). The domain is bound after, inside the
 * circuit (`oprfQuery`, decision 062). Secret: t identifies the text.
 */
export function hashText(normalised: string): bigint {
  const [[text]] = hash_to_field(encoder.encode(normalised), 1, {
    DST: QUERY_DST,
    p: SNARK_SCALAR_FIELD,
    m: 1,
    k: 128,
    expand: 'xmd',
    hash: sha256,
  }) as [[bigint]];
  return text;
}

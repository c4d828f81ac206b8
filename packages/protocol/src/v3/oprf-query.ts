import { hash_to_field } from '@noble/curves/abstract/hash-to-curve.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import type { OprfDomain } from '../oprf-suite.ts';
import { QUERY_DST } from './oprf-v3-suite.ts';

const encoder = new TextEncoder();

/**
 * The OPRF query of a normalised text: one BN254 field element, RFC 9380 hash_to_field with
 * expand_message_xmd(SHA-256), 48 bytes reduced modulo r (bias below 2⁻¹²⁸), under the domain's DST.
 * The text is hashed outside the circuit: a client chooses this element as freely as it chooses the
 * text, so proving the hash would cost constraints and bind nothing more (decision 016).
 */
export function oprfQuery(domain: OprfDomain, normalised: string): bigint {
  const [[query]] = hash_to_field(encoder.encode(normalised), 1, {
    DST: QUERY_DST[domain],
    p: SNARK_SCALAR_FIELD,
    m: 1,
    k: 128,
    expand: 'xmd',
    hash: sha256,
  }) as [[bigint]];
  return query;
}

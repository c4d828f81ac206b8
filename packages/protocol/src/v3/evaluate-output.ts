import { numberToBytesBE } from '@noble/curves/utils.js';
import type { OprfDomain } from '../oprf-suite.ts';
import { finalizeOutputOfY } from './finalize-output.ts';
import { oprfQuery } from './oprf-query.ts';
import { hashText } from './hash-text.ts';
import { jsV3Arithmetic, type V3Arithmetic } from './arithmetic.ts';

/**
 * The OPRF output of a normalised text under a key the caller holds, with no blinding: y =
 * H₂(x, k·H₁(x)) for x = `oprfQuery(domain, normalised)`, as 32 big-endian bytes (the wire form, and
 * what the DID's HKDF reads). The key holder's shortcut, the same value a blinded round gives; the raw
 * path and the tools use it. `arithmetic` is the JavaScript libraries' unless the caller brings a faster one.
 */
export function evaluateOutput(key: bigint, domain: OprfDomain, normalised: string, arithmetic: V3Arithmetic = jsV3Arithmetic): Uint8Array {
  const query = oprfQuery(domain, normalised, hashText(normalised), arithmetic);
  return numberToBytesBE(finalizeOutputOfY(query, arithmetic.keyTimesQueryPointY(query, key), arithmetic), 32);
}

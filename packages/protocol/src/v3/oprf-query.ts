import type { OprfDomain } from '../oprf-suite.ts';
import { hashText } from './hash-text.ts';
import { QUERY_TAG } from './oprf-suite.ts';
import { jsV3Arithmetic, type V3Arithmetic } from './arithmetic.ts';

/**
 * The OPRF query of a normalised text in a domain: x = Poseidon([QUERY_TAG[domain], t]), t =
 * `hashText(normalised)` (circomlib's Poseidon, poseidon-lite). The registration circuit takes t as its
 * private input and computes x with its slot's tag, a constant, so the biometric slot only ever holds
 * a biometric-domain query and the ID slot an ID-domain one (decision 062). Pass `hashed` when t is
 * already known, as `blindQuery` does.
 */
export function oprfQuery(
  domain: OprfDomain,
  normalised: string,
  hashed: bigint = hashText(normalised),
  arithmetic: V3Arithmetic = jsV3Arithmetic,
): bigint {
  return arithmetic.poseidon(QUERY_TAG[domain], hashed);
}

import type { OprfDomain } from '../oprf-suite.ts';
import { G, randomScalar, type Point } from './baby-jubjub-group.ts';
import { hashText } from './hash-text.ts';
import { oprfQuery } from './oprf-query.ts';
import { queryPoint } from './query-point.ts';

/** A blinded v3 query and what the client keeps to unblind it and, later, to prove the round. */
export interface BlindedQuery {
  domain: OprfDomain;
  /** The text's field element t (`hashText`), the registration proof's private input. Secret: it identifies the text. */
  hashedText: bigint;
  /** The query x = Poseidon([QUERY_TAG[domain], t]) (`oprfQuery`). Secret: it identifies the text. */
  query: bigint;
  /** The blind r, a scalar modulo ℓ. Secret. */
  blind: bigint;
  /** B = H₁(query) + r·G: sent to the evaluator, uniformly random in the subgroup whatever the text. */
  blinded: Point;
}

/**
 * Blinds a normalised text for one OPRF round, additively: B = H₁(x) + r·G. The evaluator answers
 * Z = k·B = k·H₁(x) + r·K, and the client unblinds with N = Z − r·K (`unblindEvaluation`). RFC 9497's
 * drafts carried this as "additive blinding"; it needs the client to know the group key K, which the
 * verifiable mode gives it anyway, and inside the registration circuit it costs one fixed-base and one
 * variable-base multiplication per input instead of two variable-base ones (decision 040).
 */
export function blindQuery(domain: OprfDomain, normalised: string, blind: bigint = randomScalar()): BlindedQuery {
  const hashedText = hashText(normalised);
  const query = oprfQuery(domain, normalised, hashedText);
  return { domain, hashedText, query, blind, blinded: queryPoint(query).add(G.multiply(blind)) };
}

import { OprfProofError, type OprfDomain, type OprfReply } from '@zeroid/protocol';
import {
  blindQuery,
  combineEvaluations,
  decodeEvaluation,
  encodePoint,
  SUITE_ID,
  unblindEvaluation,
  verifyDleq,
  type BlindedQuery,
  type Point,
  type V3Round,
} from '@zeroid/protocol/v3';
import { base64urlnopad } from '@scure/base';
import { ApiError, requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { forgetOprfKeys, fetchOprfKeys } from './fetch-oprf-keys.ts';
import { thresholdRound, type NodeEvaluation } from './threshold-oprf-round.ts';

/** A v3 OPRF round done: what registration proves (query, blind, Z, K), its output y, and its transcript for POST /register. */
export interface V3OprfRound {
  query: BlindedQuery;
  evaluated: Point;
  groupKey: Point;
  output: bigint;
  round: V3Round;
}

/** Said when the server publishes no protocol v3 key: it predates this app, which registers under v3 only (decision 056). */
export const NO_V3_KEY_MESSAGE = 'This server does not offer protocol v3 yet, so nothing can be registered. Please try again later.';

/**
 * The protocol v3 key this server proves against (decision 056), or undefined when it publishes
 * none (then only v2 identities exist there).
 */
export async function v3GroupKey(): Promise<Point | undefined> {
  return (await fetchOprfKeys()).v3;
}

/**
 * One protocol v3 OPRF round (decision 056) on a normalised text: blind it (`blindQuery`), have the
 * single key evaluate it (POST /oprf with the suite) or the nodes (the server's admission, then each
 * node's POST /oprf), check every DLEQ proof (each node's against its v3 Kᵢ, the combination against
 * the v3 group key), and unblind. The biometric's and ID's texts never leave this worker.
 * @throws OprfProofError when the single key's proof fails; ApiError when too few nodes answer.
 */
export async function oprfRoundV3(domain: OprfDomain, normalised: string): Promise<V3OprfRound> {
  const current = await fetchOprfKeys();
  const groupKey = current.v3;
  if (!groupKey) throw new ApiError(NO_V3_KEY_MESSAGE, 503);
  const query = blindQuery(domain, normalised);
  const element = base64urlnopad.encode(encodePoint(query.blinded));
  let evaluated: Point;
  let answers: V3Round['answers'];
  if (current.kind === 'threshold') {
    const nodes = current.keys.v3;
    if (!nodes) throw new ApiError(NO_V3_KEY_MESSAGE, 503);
    const shares = new Map(nodes.publicShares.map(({ index, publicKey }) => [index, publicKey]));
    const combine = async (received: NodeEvaluation[]) => {
      const decoded = received.map(({ index, evaluation }) => ({ index, ...(decodeEvaluation(evaluation) ?? noEvaluation) }));
      const combined = combineEvaluations(query.blinded, nodes.groupKey, shares, nodes.threshold, decoded);
      const used = received.filter(({ index }) => combined.used.includes(index));
      return { ...combined, answers: used.map(({ index, evaluation }) => ({ index, evaluation: base64urlnopad.encode(evaluation) })) };
    };
    const result = await thresholdRound(nodes.publicShares, nodes.threshold, { element, suite: SUITE_ID, finalize: combine }).catch(
      (error: unknown) => {
        forgetOprfKeys();
        throw error;
      },
    );
    ({ evaluated, answers } = result);
  } else {
    const reply = await requestJson<OprfReply>(apiUrls.oprf(), { method: 'POST', body: { element, suite: SUITE_ID } });
    const decoded = decodeEvaluation(base64urlnopad.decode(reply.evaluation));
    if (!decoded || !verifyDleq(groupKey, query.blinded, decoded.evaluated, decoded.proof)) throw new OprfProofError();
    evaluated = decoded.evaluated;
  }
  const { output } = unblindEvaluation(query, groupKey, evaluated);
  return { query, evaluated, groupKey, output, round: answers ? { blinded: element, answers } : { blinded: element } };
}

/** An answer that does not decode: `combineEvaluations` leaves it out and names it. */
const noEvaluation = { evaluated: undefined, proof: { e: -1n, s: -1n } };

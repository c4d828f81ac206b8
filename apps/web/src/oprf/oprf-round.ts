import { blindOprfInput, blindThresholdOprfInput, type OprfDomain, type OprfReply } from '@zeroid/protocol';
import { base64urlnopad } from '@scure/base';
import { requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import type { NodeKeys } from './oprf-nodes.ts';
import { forgetOprfKeys, fetchOprfKeys } from './fetch-oprf-keys.ts';
import { thresholdRound } from './threshold-oprf-round.ts';

/**
 * One v2 OPRF round (ristretto255): the server (or each node) sees one blinded element, and its
 * answer is unblinded only after its DLEQ proof checks out against the published key
 * (OprfProofError otherwise). In threshold mode the first t node answers that verify are combined
 * (`thresholdRound`). Only identities registered before protocol v3 need it, so it loads on demand
 * (decision 066).
 */
export async function oprfRound(domain: OprfDomain, normalised: string): Promise<Uint8Array> {
  const current = await fetchOprfKeys();
  if (current.kind === 'threshold') {
    return thresholdOprfRound(current.keys, domain, normalised).catch((error: unknown) => {
      forgetOprfKeys();
      throw error;
    });
  }
  const { request, finalize } = await blindOprfInput(current.publicKey, domain, normalised);
  const reply = await requestJson<OprfReply>(apiUrls.oprf(), { method: 'POST', body: { element: base64urlnopad.encode(request) } });
  return finalize(base64urlnopad.decode(reply.evaluation));
}

/** The v2 (ristretto255) threshold round of one input: its OPRF output. */
async function thresholdOprfRound(keys: NodeKeys, domain: OprfDomain, normalised: string): Promise<Uint8Array> {
  const round = await blindThresholdOprfInput(keys, domain, normalised);
  const result = await thresholdRound(keys.publicShares, keys.threshold, {
    element: base64urlnopad.encode(round.request),
    finalize: (answers) => round.finalize(answers),
  });
  return result.output;
}

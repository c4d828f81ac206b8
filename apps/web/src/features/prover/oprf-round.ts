import { blindOprfInput, type OprfDomain, type OprfKeyReply, type OprfReply } from '@zeroid/protocol';
import { base64urlnopad } from '@scure/base';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { fetchNodeKeys, type NodeKeys } from './oprf-nodes.ts';
import { thresholdOprfRound } from './threshold-oprf-round.ts';

/** The server's key, or in threshold mode the nodes that hold its shares (decision 021). */
type OprfSetup = { kind: 'single'; publicKey: Uint8Array } | { kind: 'threshold'; keys: NodeKeys };

let setup: Promise<OprfSetup> | undefined;

/** The server's published OPRF key, or its threshold nodes and their checked keys, fetched once per worker. */
export function oprfSetup(): Promise<OprfSetup> {
  setup ??= requestJson<OprfKeyReply>(apiUrls.oprfPublicKey()).then(async (reply): Promise<OprfSetup> => {
    if (!reply.nodes || reply.threshold === undefined) return { kind: 'single', publicKey: base64urlnopad.decode(reply.publicKey) };
    return { kind: 'threshold', keys: await fetchNodeKeys(reply.nodes, reply.threshold, reply.publicKey) };
  });
  setup.catch(() => (setup = undefined));
  return setup;
}

/**
 * One OPRF round: the server (or each node) sees one blinded element, and its answer is unblinded
 * only after its DLEQ proof checks out against the published key (OprfProofError otherwise). In
 * threshold mode the first t node answers that verify are combined (`thresholdOprfRound`).
 */
export async function oprfRound(domain: OprfDomain, normalised: string): Promise<Uint8Array> {
  const current = await oprfSetup();
  if (current.kind === 'threshold') {
    // A round that fails may have met nodes that were down: look at them afresh next time.
    return thresholdOprfRound(current.keys, domain, normalised).catch((error: unknown) => {
      setup = undefined;
      throw error;
    });
  }
  const { request, finalize } = await blindOprfInput(current.publicKey, domain, normalised);
  const reply = await requestJson<OprfReply>(apiUrls.oprf(), { method: 'POST', body: { element: base64urlnopad.encode(request) } });
  return finalize(base64urlnopad.decode(reply.evaluation));
}

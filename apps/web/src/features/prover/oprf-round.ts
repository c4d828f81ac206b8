import { blindOprfInput, type OprfDomain, type OprfKeyReply, type OprfReply } from '@zeroid/protocol';
import { decodePoint, type Point } from '@zeroid/protocol/v3';
import { base64urlnopad } from '@scure/base';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { fetchNodeKeys, type NodeKeys } from './oprf-nodes.ts';
import { thresholdOprfRound } from './threshold-oprf-round.ts';

/**
 * The server's key, or in threshold mode the nodes that hold its shares (decision 021); with the
 * protocol v3 key beside it when the server publishes one (decision 056: the single key's K, or the
 * nodes' v3 shares in `keys.v3`).
 */
export type OprfSetup =
  { kind: 'single'; publicKey: Uint8Array; v3: Point | undefined } | { kind: 'threshold'; keys: NodeKeys; v3: Point | undefined };

let setup: Promise<OprfSetup> | undefined;

/** The server's published OPRF keys, or its threshold nodes and their checked keys, fetched once per worker. */
export function oprfSetup(): Promise<OprfSetup> {
  setup ??= requestJson<OprfKeyReply>(apiUrls.oprfPublicKey()).then(async (reply): Promise<OprfSetup> => {
    const v3 = reply.v3 ? decodePoint(base64urlnopad.decode(reply.v3.publicKey)) : undefined;
    if (!reply.nodes || reply.threshold === undefined) return { kind: 'single', publicKey: base64urlnopad.decode(reply.publicKey), v3 };
    return { kind: 'threshold', keys: await fetchNodeKeys(reply.nodes, reply.threshold, reply.publicKey, reply.v3?.publicKey), v3 };
  });
  setup.catch(() => forgetOprfSetup());
  return setup;
}

/** A round that failed may have met nodes that were down: look at them afresh next time. */
export function forgetOprfSetup(): void {
  setup = undefined;
}

/**
 * One v2 OPRF round (ristretto255): the server (or each node) sees one blinded element, and its
 * answer is unblinded only after its DLEQ proof checks out against the published key
 * (OprfProofError otherwise). In threshold mode the first t node answers that verify are combined
 * (`thresholdOprfRound`). Only identities registered before protocol v3 need it.
 */
export async function oprfRound(domain: OprfDomain, normalised: string): Promise<Uint8Array> {
  const current = await oprfSetup();
  if (current.kind === 'threshold') {
    return thresholdOprfRound(current.keys, domain, normalised).catch((error: unknown) => {
      forgetOprfSetup();
      throw error;
    });
  }
  const { request, finalize } = await blindOprfInput(current.publicKey, domain, normalised);
  const reply = await requestJson<OprfReply>(apiUrls.oprf(), { method: 'POST', body: { element: base64urlnopad.encode(request) } });
  return finalize(base64urlnopad.decode(reply.evaluation));
}

import { blindOprfInput, type OprfDomain, type OprfKeyReply, type OprfReply } from '@zeroid/protocol';
import { base64urlnopad } from '@scure/base';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';

let publicKey: Promise<Uint8Array> | undefined;

/** The server's published OPRF key, fetched once per worker. */
export function oprfPublicKey(): Promise<Uint8Array> {
  publicKey ??= requestJson<OprfKeyReply>(apiUrls.oprfPublicKey()).then((reply) => base64urlnopad.decode(reply.publicKey));
  publicKey.catch(() => (publicKey = undefined));
  return publicKey;
}

/**
 * One OPRF round: the server sees one blinded element, and its answer is unblinded only after its
 * DLEQ proof checks out against the published key (OprfProofError otherwise).
 */
export async function oprfRound(domain: OprfDomain, normalised: string): Promise<Uint8Array> {
  const { request, finalize } = await blindOprfInput(await oprfPublicKey(), domain, normalised);
  const reply = await requestJson<OprfReply>(apiUrls.oprf(), { method: 'POST', body: { element: base64urlnopad.encode(request) } });
  return finalize(base64urlnopad.decode(reply.evaluation));
}

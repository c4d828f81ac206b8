import type { OprfKeyReply } from '@zeroid/protocol';
import { decodePoint, type Point } from '@zeroid/protocol/v3';
import { base64urlnopad } from '@scure/base';
import { requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { loadOnDemand } from '../shared/load-on-demand.ts';
import type { NodeKeys } from './oprf-nodes.ts';

/**
 * The server's key, or in threshold mode the nodes that hold its shares (decision 021); with the
 * protocol v3 key beside it when the server publishes one (decision 056: the single key's K, or the
 * nodes' v3 shares in `keys.v3`).
 */
export type OprfKeys =
  { kind: 'single'; publicKey: Uint8Array; v3: Point | undefined } | { kind: 'threshold'; keys: NodeKeys; v3: Point | undefined };

let published: Promise<OprfKeys> | undefined;

/**
 * The server's published OPRF keys, or its threshold nodes and their checked keys, fetched once per
 * worker. The nodes' checks load with threshold mode only: they need the v2 group's arithmetic, which
 * a fresh worker would otherwise load for nothing (docs/benchmarks.md, "Prover worker start-up").
 */
export function fetchOprfKeys(): Promise<OprfKeys> {
  published ??= requestJson<OprfKeyReply>(apiUrls.oprfPublicKey()).then(async (reply): Promise<OprfKeys> => {
    const v3 = reply.v3 ? decodePoint(base64urlnopad.decode(reply.v3.publicKey)) : undefined;
    if (!reply.nodes || reply.threshold === undefined) return { kind: 'single', publicKey: base64urlnopad.decode(reply.publicKey), v3 };
    const { fetchNodeKeys } = await loadOnDemand(() => import('./oprf-nodes.ts'));
    return { kind: 'threshold', keys: await fetchNodeKeys(reply.nodes, reply.threshold, reply.publicKey, reply.v3?.publicKey), v3 };
  });
  published.catch(() => forgetOprfKeys());
  return published;
}

/** A round that failed may have met nodes that were down: look at them afresh next time. */
export function forgetOprfKeys(): void {
  published = undefined;
}

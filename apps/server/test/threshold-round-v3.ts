import { normaliseInput, OPRF_ADMISSION_HEADER, type OprfDomain } from '@zeroid/protocol';
import {
  blindQuery,
  combineEvaluations,
  decodeEvaluation,
  decodePoint,
  encodePoint,
  SUITE_ID,
  unblindEvaluation,
} from '@zeroid/protocol/v3';
import { readNodeKeys } from '../src/oprf/nodes/read-node-keys.ts';
import type { Send, V3Round } from './zk-client.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

/**
 * The browser's protocol v3 round in threshold mode (decision 058), driven in Node for the tests'
 * zero-knowledge clients: the nodes and the v3 group key from the server's GET /oprf/public-key,
 * each node's v3 Kᵢ from its own, an admission for the point (POST /oprf/admission with `suite`),
 * the point sent to every node, each answer's DLEQ proof checked against its node's Kᵢ and the first
 * t that fit the group key combined (`combineEvaluations`), unblinded. The answers used go with the
 * registration (`V3Round.answers`), for the server to check and combine again.
 */
export async function nodesV3Round(send: Send, domain: OprfDomain, raw: string, { timeoutMs = 3000 } = {}): Promise<V3Round> {
  const published = (await send({ method: 'GET', url: '/oprf/public-key' })).json<{
    nodes: string[];
    threshold: number;
    v3?: { publicKey: string };
  }>();
  const groupKey = published.v3 && decodePoint(fromB64(published.v3.publicKey));
  if (!groupKey) throw new Error('The server publishes no v3 group key');
  const keys = await readNodeKeys(published.nodes, timeoutMs);
  const shares = new Map(keys.flatMap((reply, i) => (reply?.v3 ? [[i + 1, decodePoint(fromB64(reply.v3.publicKey))!] as const] : [])));
  const query = blindQuery(domain, normaliseInput(raw));
  const point = b64(encodePoint(query.blinded));
  const issued = await send({ method: 'POST', url: '/oprf/admission', payload: { request: point, suite: SUITE_ID } });
  if (issued.statusCode !== 200) throw new Error(`POST /oprf/admission answered ${issued.statusCode}: ${issued.body}`);
  const headers = { 'content-type': 'application/json', [OPRF_ADMISSION_HEADER]: issued.json<{ admission: string }>().admission };
  const replies = await Promise.all(
    published.nodes.map(async (url, i) => {
      try {
        const reply = await fetch(`${url}/oprf`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ element: point, suite: SUITE_ID }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        return reply.ok ? [{ index: i + 1, evaluation: ((await reply.json()) as { evaluation: string }).evaluation }] : [];
      } catch {
        return [];
      }
    }),
  );
  const answers = replies.flat();
  const decoded = answers.map(({ index, evaluation }) => {
    const answer = decodeEvaluation(fromB64(evaluation));
    return { index, evaluated: answer?.evaluated, proof: answer?.proof ?? { e: -1n, s: -1n } };
  });
  const { evaluated, used } = combineEvaluations(query.blinded, groupKey, shares, published.threshold, decoded);
  return {
    query,
    evaluated,
    output: unblindEvaluation(query, groupKey, evaluated).output,
    answers: answers.filter(({ index }) => used.includes(index)),
  };
}

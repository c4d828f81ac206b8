import { blindThresholdOprfInput, ThresholdUnavailableError, type OprfDomain } from '@zeroid/protocol';
import { base64urlnopad } from '@scure/base';
import { ApiError } from '../../shared/http.ts';
import { NODE_TIMEOUT_MS, NODES_UNAVAILABLE_MESSAGE, type KnownNode } from './oprf-nodes.ts';

type Answer = { index: number; evaluation: Uint8Array };

/**
 * One threshold OPRF round (decision 021): blind once and send the same element to every node at
 * once; as answers arrive, finalize with those in hand, so the first t that verify decide and a slow
 * or dead node costs nothing. Each answer's DLEQ proof is checked against that node's Kᵢ; a node
 * whose answer fails is left out and named in the console, never trusted.
 *
 * @throws ApiError when fewer than t answers verify (the caller keeps what was typed).
 */
export async function thresholdOprfRound(nodes: readonly KnownNode[], threshold: number, domain: OprfDomain, normalised: string) {
  const round = await blindThresholdOprfInput([...nodes], threshold, domain, normalised);
  const body = JSON.stringify({ element: base64urlnopad.encode(round.request) });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NODE_TIMEOUT_MS);
  const pending = new Map(nodes.map((node) => [node.index, ask(node, body, controller.signal)] as const));
  const answers: Answer[] = [];
  try {
    while (pending.size > 0) {
      const outcome = await Promise.race(pending.values());
      pending.delete(outcome.index);
      if (!('evaluation' in outcome)) continue;
      answers.push(outcome);
      if (answers.length < threshold) continue;
      try {
        const { output, rejected } = await round.finalize(answers);
        nameRejected(nodes, rejected);
        return output;
      } catch (error) {
        if (!(error instanceof ThresholdUnavailableError)) throw error;
        if (pending.size === 0) nameRejected(nodes, error.rejected);
      }
    }
    throw new ApiError(NODES_UNAVAILABLE_MESSAGE, 503);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

function nameRejected(nodes: readonly KnownNode[], rejected: number[]) {
  for (const node of nodes.filter(({ index }) => rejected.includes(index))) {
    console.warn(`OPRF node ${node.index} (${node.url}) is left out: its answer failed its proof against its published key`);
  }
}

/** POST /oprf to one node; a failure is logged and returned as such, so the race never rejects. */
async function ask(node: KnownNode, body: string, signal: AbortSignal): Promise<Answer | { index: number }> {
  try {
    const response = await fetch(`${node.url}/oprf`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const reply = (await response.json()) as { evaluation?: unknown };
    if (typeof reply.evaluation !== 'string') throw new Error('a reply without an evaluation');
    return { index: node.index, evaluation: base64urlnopad.decode(reply.evaluation) };
  } catch (error) {
    if (!signal.aborted)
      console.warn(`OPRF node ${node.index} (${node.url}) did not answer: ${error instanceof Error ? error.message : 'no answer'}`);
    return { index: node.index };
  }
}

import { blindThresholdOprfInput, ThresholdUnavailableError, type OprfDomain } from '@zeroid/protocol';
import { base64urlnopad } from '@scure/base';
import { ApiError } from '../../shared/http.ts';
import { NODE_TIMEOUT_MS, NODES_INCONSISTENT_MESSAGE, NODES_UNAVAILABLE_MESSAGE, type KnownNode, type NodeKeys } from './oprf-nodes.ts';

type Answer = { index: number; evaluation: Uint8Array };

/**
 * One threshold OPRF round (decision 021): blind once and send the same element to every node at
 * once; as answers arrive, finalize with those in hand, so the first t that verify decide and a slow
 * or dead node costs nothing. Each answer's DLEQ proof is checked against that node's Kᵢ, and only
 * answers whose Kᵢ interpolate to the group key together are combined (issue 24); a node whose
 * answer fails either is left out and named in the console, never trusted.
 *
 * @throws ApiError when no t answers may be combined (the caller keeps what was typed), saying
 *   whether too few nodes answered or their keys do not fit together.
 */
export async function thresholdOprfRound(keys: NodeKeys, domain: OprfDomain, normalised: string) {
  const nodes = keys.publicShares;
  const threshold = keys.threshold;
  const round = await blindThresholdOprfInput(keys, domain, normalised);
  const body = JSON.stringify({ element: base64urlnopad.encode(round.request) });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NODE_TIMEOUT_MS);
  const pending = new Map(nodes.map((node) => [node.index, ask(node, body, controller.signal)] as const));
  const answers: Answer[] = [];
  let inconsistent: number[] = [];
  try {
    while (pending.size > 0) {
      const outcome = await Promise.race(pending.values());
      pending.delete(outcome.index);
      if (!('evaluation' in outcome)) continue;
      answers.push(outcome);
      if (answers.length < threshold) continue;
      try {
        const result = await round.finalize(answers);
        nameLeftOut(nodes, result);
        return result.output;
      } catch (error) {
        if (!(error instanceof ThresholdUnavailableError)) throw error;
        inconsistent = error.inconsistent;
        if (pending.size === 0) nameLeftOut(nodes, error);
      }
    }
    throw new ApiError(inconsistent.length > 0 ? NODES_INCONSISTENT_MESSAGE : NODES_UNAVAILABLE_MESSAGE, 503);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

function nameLeftOut(nodes: readonly KnownNode[], { rejected, inconsistent }: { rejected: number[]; inconsistent: number[] }) {
  for (const node of nodes.filter(({ index }) => rejected.includes(index))) {
    console.warn(`OPRF node ${node.index} (${node.url}) is left out: its answer failed its proof against its published key`);
  }
  for (const node of nodes.filter(({ index }) => inconsistent.includes(index))) {
    console.warn(`OPRF node ${node.index} (${node.url}) is left out: its key does not interpolate to the group key with the others`);
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

import { OPRF_ADMISSION_HEADER, ThresholdUnavailableError, type OprfAdmissionReply } from '@zeroid/protocol';
import type { SUITE_ID } from '@zeroid/protocol/v3';
import { base64urlnopad } from '@scure/base';
import { ApiError, requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { NODE_TIMEOUT_MS, NODES_INCONSISTENT_MESSAGE, NODES_UNAVAILABLE_MESSAGE } from './node-round-timeout-and-messages.ts';

/** One node's answer: its index and the bytes of its evaluation (with its DLEQ proof). */
export type NodeEvaluation = { index: number; evaluation: Uint8Array };
type Node = { index: number; url: string };

/** What a threshold round sends, and how it combines what comes back (v2 or v3 alike). */
export interface NodeRound<T> {
  /** base64url of the blinded element, admitted by the server, then sent to every node. */
  element: string;
  /** Protocol v3's suite (decision 056); absent for v2. */
  suite?: typeof SUITE_ID | undefined;
  /** Combines the answers in hand, naming those left out; throws ThresholdUnavailableError while they are not enough. */
  finalize(answers: NodeEvaluation[]): Promise<T & { rejected: number[]; inconsistent: number[] }>;
}

/**
 * One threshold OPRF round (decision 021): have the server count the guess and admit the element
 * (POST /oprf/admission, decision 032: a client over its guess budget or waiting on failed
 * verifications is refused there with the server's 429, as at POST /oprf with the single key), then
 * send the same element, with the admission, to every node at once; as answers arrive, finalize with
 * those in hand, so the first t that verify decide and a slow or dead node costs nothing. Each
 * answer's DLEQ proof is checked against that node's Kᵢ, and only answers whose Kᵢ interpolate to the
 * group key together are combined (decision 033); a node whose answer fails either is left out and named
 * in the console, never trusted.
 *
 * @throws ApiError when no t answers may be combined (the caller keeps what was typed), saying
 *   whether too few nodes answered or their keys do not fit together.
 */
export async function thresholdRound<T>(nodes: readonly Node[], threshold: number, round: NodeRound<T>): Promise<T> {
  const suite = round.suite === undefined ? {} : { suite: round.suite };
  const { admission } = await requestJson<OprfAdmissionReply>(apiUrls.oprfAdmission(), {
    method: 'POST',
    body: { request: round.element, ...suite },
  });
  const body = JSON.stringify({ element: round.element, ...suite });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NODE_TIMEOUT_MS);
  const pending = new Map(nodes.map((node) => [node.index, ask(node, body, admission, controller.signal)] as const));
  const answers: NodeEvaluation[] = [];
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
        return result;
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

function nameLeftOut(nodes: readonly Node[], { rejected, inconsistent }: { rejected: number[]; inconsistent: number[] }) {
  for (const node of nodes.filter(({ index }) => rejected.includes(index))) {
    console.warn(`OPRF node ${node.index} (${node.url}) is left out: its answer failed its proof against its published key`);
  }
  for (const node of nodes.filter(({ index }) => inconsistent.includes(index))) {
    console.warn(`OPRF node ${node.index} (${node.url}) is left out: its key does not interpolate to the group key with the others`);
  }
}

/** POST /oprf to one node; a failure is logged and returned as such, so the race never rejects. */
async function ask(node: Node, body: string, admission: string, signal: AbortSignal): Promise<NodeEvaluation | { index: number }> {
  try {
    const response = await fetch(`${node.url}/oprf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [OPRF_ADMISSION_HEADER]: admission },
      body,
      signal,
    });
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

import { OPRF_ADMISSION_HEADER, ThresholdUnavailableError } from '@zeroid/protocol';
import { SUITE_ID } from '@zeroid/protocol/v3';
import { libsodiumReady } from '../libsodium.ts';
import type { AdmissionSuite } from '../oprf-admission-message.ts';
import { postToNode } from './post-to-node.ts';
import { sodiumThresholdRound, type OprfTask } from './sodium-threshold-round.ts';
import { usableNodes, type NodeFault, type OprfNode, type OprfNodeSet } from './oprf-node-set.ts';
import { v3ThresholdRound } from './threshold-round-v3.ts';

type Answer = { index: number; evaluation: Uint8Array };
type Outcome = Answer | NodeFault;

/**
 * Fewer than t nodes gave answers that may be combined: no output, so no verdict and nothing stored.
 * `code` says why: `OPRF_NODES_INCONSISTENT` when answers verified but their keys do not interpolate
 * to the group key together (a node on an old share, or another split's), else `OPRF_UNAVAILABLE`.
 */
export class OprfNodesUnavailable extends Error {
  readonly code: 'OPRF_UNAVAILABLE' | 'OPRF_NODES_INCONSISTENT';
  constructor(
    readonly faults: NodeFault[],
    /** Every node that answered refused this client its guess: its Retry-After, in seconds. */
    readonly rateLimitedFor: number | undefined,
  ) {
    super('Fewer OPRF nodes than the threshold gave answers that may be combined.');
    this.name = 'OprfNodesUnavailable';
    this.code = faults.some((fault) => fault.reason === 'inconsistent-key') ? 'OPRF_NODES_INCONSISTENT' : 'OPRF_UNAVAILABLE';
  }
}

/** The nodes `set` leaves out (of protocol v3's round with `suite`), as the faults of an evaluation that failed for want of them. */
export const leftOutFaults = (set: OprfNodeSet | undefined, suite?: AdmissionSuite): NodeFault[] =>
  (set?.nodes ?? []).flatMap((node) => {
    const problem = suite ? (set?.v3 ? node.v3Problem : 'no-v3-share') : node.publicKey ? undefined : node.problem;
    if (suite ? !problem : node.publicKey) return [];
    const reason = problem === 'inconsistent-key' || problem === 'keys-disagree' ? 'inconsistent-key' : 'no-public-key';
    return [{ index: node.index, url: node.url, reason }];
  });

/** The nodes of `set` asked in a round of `suite`: v2's usable nodes, or those whose v3 Kᵢ fit the v3 group key. */
const nodesFor = (set: OprfNodeSet | undefined, suite: AdmissionSuite): { index: number; url: string }[] =>
  suite ? (set?.nodes ?? []).filter((node) => set?.v3?.shares.has(node.index)) : usableNodes(set);

/**
 * Throws the 503 an evaluation would end in when the server already knows it cannot succeed: the
 * last read of the keys found fewer than t nodes whose keys fit (`/healthz` degraded). The routes
 * call it before they count a guess (decision 053), so a client spends nothing on an answer the
 * server knows it cannot give. `answering`: count only the nodes that answered that read, for a
 * guess that cannot be given back once counted (`POST /oprf/admission`); without it a node that
 * missed the read but whose last key still fits counts, as an evaluation still asks it.
 * @throws OprfNodesUnavailable
 */
export function assertEnoughNodes(
  set: OprfNodeSet | undefined,
  { answering = false, suite }: { answering?: boolean; suite?: AdmissionSuite } = {},
): asserts set is OprfNodeSet {
  const counted = nodesFor(set, suite).filter(({ index }) => !answering || set!.nodes[index - 1]?.problem !== 'unreachable');
  if (!set || counted.length < set.threshold) throw new OprfNodesUnavailable(leftOutFaults(set, suite), undefined);
}

export interface NodeCallOptions {
  timeoutMs: number;
  /** The end client's address, so each node keys its own guess budget by the person, not by this server. */
  forwardedFor?: string | undefined;
  /**
   * The admission the nodes require for this request (decision 032): signed here on the raw path,
   * whose route counted the guess before; asked of the server by a client (a test's, as the browser does).
   */
  admit?: ((request: Uint8Array, suite?: AdmissionSuite) => string | Promise<string>) | undefined;
  /** Protocol v3 (`SUITE_ID`): the nodes' v3 shares, one /oprf/batch with `suite` and one batch proof per node. */
  suite?: AdmissionSuite;
}

/**
 * One threshold OPRF round as a client of the nodes, for the raw path (the server sees the raw
 * values there by design). It blinds once and sends the same elements to t nodes, and to the others
 * as soon as one fails or after a short hedge delay; as answers arrive it tries to finalize with
 * those in hand and stops at the first t that verify, so a slow or dead node costs little. A node whose
 * answer fails its DLEQ proof against its published Kᵢ is left out and reported, never trusted; so is
 * one whose answer verifies but whose Kᵢ does not interpolate to the group key with the others
 * (`chooseCombinableAnswers`, decision 033). Only the nodes of `set` whose keys fit are asked.
 *
 * One task goes to a node's `POST /oprf`, as the browser's round does; several (a registration's
 * biometric and ID) go in one `POST /oprf/batch`, answered with one DLEQ proof for the batch: half the
 * requests and fewer scalar multiplications on both sides (decision 027). `outputs` follow `tasks`.
 *
 * @throws OprfNodesUnavailable when all answers are in (or timed out) and no t of them may be combined.
 */
export async function evaluateWithNodes(
  set: OprfNodeSet | undefined,
  tasks: readonly OprfTask[],
  { timeoutMs, forwardedFor, admit, suite }: NodeCallOptions,
): Promise<{ outputs: Uint8Array[]; faults: NodeFault[] }> {
  const faults: NodeFault[] = [];
  const nodes = set?.nodes ?? [];
  const threshold = set?.threshold ?? Number.POSITIVE_INFINITY;
  const known = nodesFor(set, suite);
  // Nodes the set leaves out are named when this evaluation fails for want of them.
  const leftOut = () => leftOutFaults(set, suite);
  assertEnoughNodes(set, { suite });

  await libsodiumReady;
  const round = suite
    ? v3ThresholdRound(set.v3!, tasks)
    : sodiumThresholdRound(
        {
          groupPublicKey: set.groupPublicKey,
          threshold,
          publicShares: usableNodes(set).map(({ index, publicKey }) => ({ index, publicKey })),
        },
        tasks,
      );
  const encoded = Buffer.from(round.request).toString('base64url');
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    ...(admit ? { [OPRF_ADMISSION_HEADER]: await admit(round.request, suite) } : {}),
  };
  // v3 always asks /oprf/batch: one batch proof per node, even for one point.
  const call = suite
    ? { path: '/oprf/batch', body: JSON.stringify({ request: encoded, suite: SUITE_ID }) }
    : tasks.length === 1
      ? { path: '/oprf', body: JSON.stringify({ element: encoded }) }
      : { path: '/oprf/batch', body: JSON.stringify({ request: encoded }) };
  // Not aborted once t answers verify: a request cut mid-way closes its kept-alive connection, and
  // under load the next one paid a new TCP connection. It ends by itself, or at the timeout.
  const signal = nodeDeadline(timeoutMs);
  // Ask t nodes first (taking turns, so the load spreads) and the rest only when one of them fails
  // or is slower than the hedge delay: each extra node asked is a scalar multiplication and a proof
  // spent there, and a wasted guess on its budget.
  // A node that did not answer its last call in time is asked last for a while (decision 075): with
  // one node hanging, a round no longer waits the hedge delay for it every other time.
  const rotated = [...known.slice(turn % known.length), ...known.slice(0, turn % known.length)];
  const order = [...rotated.filter((node) => !missedLately(node.url)), ...rotated.filter((node) => missedLately(node.url))];
  turn++;
  const pending = new Map<number, Promise<Outcome>>();
  const answers: Answer[] = [];
  let asked = 0;
  const askNext = () => {
    const node = order[asked++];
    if (node) pending.set(node.index, askNode(node, call, signal, headers));
  };
  for (let i = 0; i < threshold; i++) askNext();
  let hedged: (value: Outcome) => void = () => undefined;
  const HEDGE = -1;
  pending.set(HEDGE, new Promise<Outcome>((resolve) => (hedged = resolve)));
  // The others are asked when a node asked is slow next to its peers (decision 075): once the hedge
  // delay has passed and some node asked has answered or failed. While none has, every node is slow
  // alike (the nodes are busy, not one of them down), and asking the rest too would only add work;
  // at half the timeout they are asked all the same, in case every node asked is down.
  const started = performance.now();
  const askTheRest = () => hedged({ index: HEDGE, url: '', reason: 'timeout' });
  let delayPassed = false;
  let hedge = setTimeout(() => {
    delayPassed = true;
    if (answers.length + faults.length > 0) askTheRest();
    else hedge = setTimeout(askTheRest, Math.max(0, timeoutMs / 2 - hedgeDelay(timeoutMs)));
  }, hedgeDelay(timeoutMs));
  /** The first node asked has answered: the others get as long again as it took, at least the hedge delay. */
  const peerAnswered = () => {
    if (!pending.has(HEDGE) || answers.length + faults.length !== 1) return;
    if (delayPassed) {
      clearTimeout(hedge);
      const elapsed = performance.now() - started;
      hedge = setTimeout(askTheRest, elapsed);
    }
  };

  let retryAfter: number | undefined;
  let lastRejected: number[] = [];
  let lastInconsistent: number[] = [];
  try {
    while (pending.size > (pending.has(HEDGE) ? 1 : 0) || asked < order.length) {
      if (pending.size === (pending.has(HEDGE) ? 1 : 0)) askNext();
      const outcome = await Promise.race(pending.values());
      pending.delete(outcome.index);
      if (outcome.index === HEDGE) {
        while (asked < order.length) askNext();
        continue;
      }
      if ('reason' in outcome) {
        faults.push(outcome);
        askNext();
        continue;
      }
      answers.push(outcome);
      peerAnswered();
      if (answers.length < threshold) continue;
      try {
        const { outputs, rejected, inconsistent } = round.finalize(answers);
        for (const index of rejected) faults.push({ index, url: urlOf(nodes, index), reason: 'proof-failed' });
        for (const index of inconsistent) faults.push({ index, url: urlOf(nodes, index), reason: 'inconsistent-key' });
        return { outputs, faults };
      } catch (error) {
        // Some answer in hand does not verify, or does not fit the others: wait for the next node.
        if (!(error instanceof ThresholdUnavailableError)) throw error;
        lastRejected = error.rejected;
        lastInconsistent = error.inconsistent;
        askNext();
      }
    }
    for (const index of lastRejected) faults.push({ index, url: urlOf(nodes, index), reason: 'proof-failed' });
    for (const index of lastInconsistent) faults.push({ index, url: urlOf(nodes, index), reason: 'inconsistent-key' });
    faults.push(...leftOut());
    // Every node has answered or failed and no t of the answers verify together. If the nodes that
    // refused did so because this client is over its guess budget there, say so (a 429, not a 503).
    const limited = faults.filter((fault) => fault.reason === 'rate-limited').length;
    if (limited > known.length - threshold) retryAfter = 60;
    throw new OprfNodesUnavailable(faults, retryAfter);
  } finally {
    clearTimeout(hedge);
  }
}

/**
 * How long the first t nodes have before the others are asked too: 250 ms, or three times a
 * node's usual answer time when that is longer (a server under load), never more than a quarter
 * of the timeout. With a fixed 250 ms, a loaded server whose answers took longer asked every node
 * every time, which tripled the nodes' work and made answers slower still (decision 026; docs/benchmarks.md,
 * "Threshold round").
 */
const HEDGE_MS = 250;
const hedgeDelay = (timeoutMs: number) => Math.min(Math.max(HEDGE_MS, 3 * typicalAnswerMs), timeoutMs / 4);
/** A moving average of the time a node took to answer well, in ms (this process, all nodes). */
let typicalAnswerMs = 0;
const noteAnswerTime = (ms: number) => {
  typicalAnswerMs = typicalAnswerMs === 0 ? ms : 0.95 * typicalAnswerMs + 0.05 * ms;
};
let turn = 0;
/** How long a node that missed its timeout is asked last: then it is tried again among the first. */
const MISSED_MS = 5000;
/** Nodes (by URL) that missed their timeout or could not be reached, and until when they are asked last. */
const missed = new Map<string, number>();
const missedLately = (url: string) => (missed.get(url) ?? 0) > performance.now();

/**
 * A signal that aborts a round's node calls `timeoutMs` after they were sent, one turn of the event
 * loop late: a thread busy with other rounds' proofs when the timer falls due has answers waiting
 * unread on its sockets, and Node runs due timers before it reads them. Deferred to `setImmediate`,
 * the answers that came in time are read first, so this thread's own CPU time is not counted as the
 * node's slowness (decision 075). Unref'd, as AbortSignal.timeout is.
 */
function nodeDeadline(timeoutMs: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => setImmediate(() => controller.abort()).unref(), timeoutMs).unref();
  return controller.signal;
}

const urlOf = (nodes: readonly OprfNode[], index: number) => nodes.find((node) => node.index === index)?.url ?? '';

/** POST /oprf (or /oprf/batch) to one node; every failure becomes a fault, so the race above never rejects. */
async function askNode(
  node: Pick<OprfNode, 'index' | 'url'>,
  { path, body }: { path: string; body: string },
  signal: AbortSignal,
  headers: Record<string, string>,
): Promise<Outcome> {
  const fault = (reason: NodeFault['reason'], status?: number): NodeFault => ({ index: node.index, url: node.url, reason, status });
  let response: { status: number; text: string };
  const started = performance.now();
  try {
    response = await postToNode(new URL(`${node.url}${path}`), body, headers, signal);
  } catch {
    missed.set(node.url, performance.now() + MISSED_MS);
    return fault(signal.aborted ? 'timeout' : 'unreachable');
  }
  if (response.status === 429) return fault('rate-limited', 429);
  if (response.status < 200 || response.status > 299) return fault('refused', response.status);
  try {
    const reply = JSON.parse(response.text) as { evaluation?: unknown };
    if (typeof reply.evaluation !== 'string' || !/^[A-Za-z0-9_-]{1,512}$/.test(reply.evaluation))
      return fault('malformed', response.status);
    noteAnswerTime(performance.now() - started);
    missed.delete(node.url);
    return { index: node.index, evaluation: new Uint8Array(Buffer.from(reply.evaluation, 'base64url')) };
  } catch {
    return fault('malformed', response.status);
  }
}

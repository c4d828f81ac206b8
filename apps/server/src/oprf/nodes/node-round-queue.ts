import { OprfNodesUnavailable } from './evaluate-with-nodes.ts';

/**
 * The queue in front of the nodes is full: nothing was sent to a node, nothing evaluated, nothing
 * stored. A 503 `OPRF_BUSY` with `retryAfterSeconds`; an OprfNodesUnavailable, so the guess the
 * route counted is given back as for any evaluation that gave no output (decision 053).
 */
export class OprfNodesBusy extends OprfNodesUnavailable {
  constructor(readonly retryAfterSeconds: number) {
    super([], undefined);
    this.name = 'OprfNodesBusy';
    this.message = 'The queue in front of the OPRF nodes is full.';
  }
}

export interface NodeRoundQueue {
  /** Runs `work` once fewer than `concurrency` runs are in flight; waits its turn (first come, first served) or throws OprfNodesBusy. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Runs in flight and runs waiting now (for /metrics and the tests). */
  depth(): { running: number; waiting: number };
}

/** How far Retry-After may say to wait, in seconds. */
const MAX_RETRY_AFTER_S = 30;
/**
 * The longest wait the queue takes on, in ms: a request whose turn would come later is refused at
 * once. A burst of 60 raw registrations drained at 2 to 3 a second on the 2-core test machine under
 * other load; the connection of a POST waiting here stays open that long and a run more
 * (`allowQueuedRequests`), so the client reads an answer, never a closed connection.
 */
export const MAX_QUEUE_WAIT_MS = 45_000;

/**
 * A bounded queue in front of the threshold rounds (decision 075): at most `concurrency` derivations
 * talk to the nodes at once, up to `waiting` more wait their turn in arrival order, as long as the
 * runs ahead would let them start within MAX_QUEUE_WAIT_MS at the pace runs have been finishing.
 * Beyond either bound a derivation is refused at once (OprfNodesBusy, a 503 with Retry-After) rather
 * than sent.
 *
 * Why: a node answers one evaluation after another on its event loop, and a protocol v3 batch costs it
 * tens of milliseconds of CPU. Sent all at once, a burst of 60 raw registrations put 40 to 60 batches
 * in each node's queue at the same moment, the last answers came after OPRF_NODE_TIMEOUT_MS, which
 * counted the node's queue as the node's slowness, and the hedge to the third node added half as much
 * work again: most of the burst ended in 503 OPRF_UNAVAILABLE. Held here instead, the wait is spent
 * before a round starts, and its node timeout (`evaluateWithNodes`) starts only when it is sent.
 */
export function nodeRoundQueue({ concurrency, waiting }: { concurrency: number; waiting: number }): NodeRoundQueue {
  let running = 0;
  const queue: { start: () => void; refuse: (error: OprfNodesBusy) => void; since: number }[] = [];
  /** A moving average of one run's duration, in ms: how fast the queue drains, for Retry-After. */
  let typicalRunMs = 0;
  /** How long a newcomer would wait: the runs ahead of it, `concurrency` at a time. */
  const expectedWaitMs = () => ((queue.length + 1) / concurrency) * typicalRunMs;
  const retryAfter = () => Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(((queue.length / concurrency + 1) * typicalRunMs) / 1000)));

  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running < concurrency) running++;
      else if (queue.length < waiting && expectedWaitMs() <= MAX_QUEUE_WAIT_MS) {
        await new Promise<void>((start, refuse) => queue.push({ start, refuse, since: performance.now() }));
      } else throw new OprfNodesBusy(retryAfter());
      const started = performance.now();
      try {
        return await work();
      } finally {
        const ms = performance.now() - started;
        typicalRunMs = typicalRunMs === 0 ? ms : 0.9 * typicalRunMs + 0.1 * ms;
        // The slot passes straight to the next in line, so a newcomer never overtakes the queue. One
        // that has waited past MAX_QUEUE_WAIT_MS after all (runs slowed down after it came) is refused
        // now, while its client is still there to read the answer.
        let next = queue.shift();
        while (next && performance.now() - next.since > MAX_QUEUE_WAIT_MS) {
          next.refuse(new OprfNodesBusy(retryAfter()));
          next = queue.shift();
        }
        if (next) next.start();
        else running--;
      }
    },
    depth: () => ({ running, waiting: queue.length }),
  };
}

import type { FastifyInstance } from 'fastify';
import { MAX_QUEUE_WAIT_MS } from '../oprf/nodes/node-round-queue.ts';

/** A request's time on the nodes once its turn came: both rounds, their timeout, and the rest. */
const RUN_MARGIN_MS = 15_000;

/**
 * Threshold mode (decision 075): a POST may wait its turn in the queue in front of the nodes for up to
 * MAX_QUEUE_WAIT_MS, and its connection carries nothing meanwhile. The server closes a connection
 * silent for 20 s (`connectionTimeout`), which closed queued requests without an answer; for a POST
 * the silence allowed is the queue's longest wait and a run. Connections that send nothing, or send
 * slowly, are still bounded by the header and request timeouts.
 */
export function allowQueuedRequests(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    // With a listener of its own, as `inject()`'s response needs one: it ends a connection silent past
    // the allowance, as the server's own timeout does.
    if (request.method === 'POST') reply.raw.setTimeout(MAX_QUEUE_WAIT_MS + RUN_MARGIN_MS, () => request.raw.socket?.destroy());
  });
}

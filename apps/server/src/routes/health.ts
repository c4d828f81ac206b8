import type { FastifyInstance } from 'fastify';
import { readyGuide, aliveGuide } from './health.openapi.ts';
import { REGISTRATION_CREDENTIAL_SETUP, REGISTRATION_V3_SETUP } from '@zeroid/protocol/v3';
import type { AppDeps } from '../app-deps.ts';
import { replyNotReady } from '../http/reply-not-ready.ts';
import { replyProblem } from '../http/reply-problem.ts';
import { treeReadiness } from '../member-tree/tree-readiness.ts';
import { Problem } from '../problem.ts';

/**
 * Liveness (the process answers) and readiness (warmed up, storage answers, the tree is loaded, not
 * shutting down). A ready answer also says what the v3 registration setup is (`setup`, decision
 * 072) and the credential circuit's (`credentialSetup`, decision 085): a setup that is not final does not make the instance unready, but nobody should read
 * `ready` as "the setup is trustworthy".
 */
export function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  const { lifecycle, oprf, oprfNodes } = deps;
  const setup = { ...REGISTRATION_V3_SETUP.state };
  // The credential circuit's own setup (decision 085), reported beside v3's under its own name.
  const credentialSetup = { ...REGISTRATION_CREDENTIAL_SETUP.state };
  app.get('/livez', { schema: { 'x-guide': aliveGuide } }, async () => ({ status: 'ok' }));
  app.get('/healthz', { schema: { 'x-guide': readyGuide } }, async (request, reply) => {
    if (lifecycle.warmingUp) {
      return replyProblem(reply, new Problem(503, 'WARMING_UP', 'This instance is still starting.', { 'retry-after': '1' }));
    }
    if (lifecycle.draining) {
      return replyProblem(reply, new Problem(503, 'SHUTTING_DOWN', 'This instance is shutting down.', { 'retry-after': '5' }));
    }
    // Threshold mode: not ready until t nodes have published keys that fit the group key and the
    // database (decision 021). Afterwards a node outage shows per request (503 OPRF_UNAVAILABLE),
    // and here only as `degraded` with the nodes left out (decision 033), still 200: every instance
    // shares the nodes, so taking instances out of rotation would not help.
    if (!oprf && !oprfNodes?.current) {
      return replyProblem(
        reply,
        new Problem(503, 'OPRF_NODES_UNAVAILABLE', 'Fewer OPRF nodes than the threshold have published their keys yet.', {
          'retry-after': '5',
        }),
      );
    }
    try {
      const { members, root } = await treeReadiness(deps);
      const set = oprfNodes?.current;
      const leftOut = (set?.nodes ?? []).flatMap(({ index, problem }) => (problem ? [{ index, problem }] : []));
      // Protocol v3's shares, once the nodes hold some: a node that serves v2 only is named too.
      const v3LeftOut = set?.v3 ? set.nodes.flatMap(({ index, v3Problem }) => (v3Problem ? [{ index, problem: v3Problem }] : [])) : [];
      if (leftOut.length > 0 || v3LeftOut.length > 0) {
        const nodes = { leftOut, ...(v3LeftOut.length > 0 ? { v3LeftOut } : {}) };
        return { status: 'degraded', members, root, oprfNodes: nodes, setup, credentialSetup };
      }
      return { status: 'ready', members, root, setup, credentialSetup };
    } catch (error) {
      return replyNotReady(request, reply, error);
    }
  });
}

import type { FastifyInstance } from 'fastify';
import { challengeGuide } from './challenge.openapi.ts';
import { ChallengeReply } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessLimited } from '../http/guess-limits.ts';

/** POST /challenge: a fresh one-time challenge for a registration or a proof. */
export function challengeRoute(app: FastifyInstance, deps: RouteDeps) {
  app.post(
    '/challenge',
    { ...guessLimited(deps.limits), schema: { 'x-guide': challengeGuide, response: { 200: ChallengeReply } } },
    async () => deps.useCases.issueChallenge(),
  );
}

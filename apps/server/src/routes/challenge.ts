import type { FastifyInstance } from 'fastify';
import { challengeGuide } from './challenge.openapi.ts';
import { ChallengeReply } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { guessLimited } from '../http/guess-limits.ts';
import { issueChallenge } from '../proofs/challenges.ts';

/** POST /challenge: a fresh one-time challenge for a registration or a proof. */
export function challengeRoute(app: FastifyInstance, deps: AppDeps) {
  app.post(
    '/challenge',
    { ...guessLimited(deps.limits), schema: { 'x-guide': challengeGuide, response: { 200: ChallengeReply } } },
    async () => issueChallenge(deps),
  );
}

import type { FastifyInstance } from 'fastify';
import { reserveGuide, releaseGuide } from './reservations.openapi.ts';
import { ReservationRelease, ReservationReleaseReply, ReservationReply, ReservationRequest } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessLimited } from '../http/guess-limits.ts';
import { typed } from '../http/typed-app.ts';
import { releaseReservation, reserveGuesses } from '../limits/guess-reservations.ts';

/**
 * A flow's guesses taken at its start (decision 074). POST /reservations takes `guesses` OPRF
 * evaluations from the client's bucket at once, or none (a 429 whose Retry-After is when the bucket
 * holds them); the flow's later requests carry the reservation in `zeroid-reservation` and draw on
 * it, so a registration or an erasure is never refused halfway. POST /reservations/release gives
 * back what the flow did not use (a verification that needed no second round). A reservation is
 * bound to the client that took it and lasts ten minutes; what it still holds then is spent.
 */
export function reservationRoutes(app: FastifyInstance, { limits }: RouteDeps) {
  const api = typed(app);
  api.post(
    '/reservations',
    { ...guessLimited(limits), schema: { 'x-guide': reserveGuide, body: ReservationRequest, response: { 200: ReservationReply } } },
    async (request) => {
      const taken = await reserveGuesses(limits, request.ip, request.body.guesses);
      return { ...taken, expiresAt: new Date(taken.expiresAt).toISOString() };
    },
  );
  api.post(
    '/reservations/release',
    { ...guessLimited(limits), schema: { 'x-guide': releaseGuide, body: ReservationRelease, response: { 200: ReservationReleaseReply } } },
    async (request) => ({ released: await releaseReservation(limits, request.ip, request.body.reservation) }),
  );
}

import { errorExample, expiresAt } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** POST /reservations */
export const reserveGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'Take a flow’s guesses at its start',
  description:
    'Takes the OPRF evaluations a flow will need (a registration 4, a verification 2, an erasure 3) from the client’s guess budget at once, or none: a 429 whose Retry-After is exactly when the budget holds them. The flow’s later calls carry the reservation in the `zeroid-reservation` header and draw on it, so a flow is never refused halfway. It serves only the address that took it, for ten minutes.',
  request: { registration: { summary: 'A registration’s four', value: { guesses: 4 } } },
  replies: {
    '200': { taken: { summary: 'Taken', value: { reservation: 'q3Vb1m0m3lYyQz5l3d4sJc1fWm7c2kZr0gQyXo6l2aU', guesses: 4, expiresAt } } },
    '429': errorExample('TOO_MANY_GUESSES', 'Too many guesses from your network. Please try again in 900 seconds.'),
  },
};

/** POST /reservations/release */
export const releaseGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'Give back what a flow did not use',
  description: 'Ends the reservation and returns its unused guesses to the client’s budget (they were never evaluated).',
  request: { release: { summary: 'A reservation', value: { reservation: 'q3Vb1m0m3lYyQz5l3d4sJc1fWm7c2kZr0gQyXo6l2aU' } } },
  replies: { '200': { released: { summary: 'One guess given back', value: { released: 1 } } } },
};

import { Type, type Static } from '@sinclair/typebox';
import { closed } from './schema-parts.ts';

/**
 * The header a flow's later requests carry its reservation in (POST /reservations): their guesses are
 * drawn from what the flow took at its start, so a flow that needs several OPRF evaluations gets all
 * of them or none.
 */
export const RESERVATION_HEADER = 'zeroid-reservation';

/** A reservation: 32 random bytes, base64url. */
const reservation = Type.String({
  pattern: '^[A-Za-z0-9_-]{43}$',
  description: 'a flow’s reservation, sent back in the `zeroid-reservation` header',
});

export const ReservationRequest = Type.Object(
  { guesses: Type.Integer({ minimum: 1, maximum: 8, description: 'the OPRF evaluations the flow will need, all taken now' }) },
  closed,
);
export const ReservationReply = Type.Object(
  {
    reservation,
    guesses: Type.Integer({ minimum: 1, maximum: 8, description: 'the guesses taken for the flow' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  closed,
);
export const ReservationRelease = Type.Object({ reservation }, closed);
export const ReservationReleaseReply = Type.Object(
  { released: Type.Integer({ minimum: 0, description: 'the guesses the flow had not used, given back' }) },
  closed,
);

export type ReservationReply = Static<typeof ReservationReply>;

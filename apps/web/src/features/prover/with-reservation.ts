import type { ReservationReply } from '@zeroid/protocol';
import { carryReservation, requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';

/**
 * The OPRF evaluations each flow may need (decision 074), taken at its start: a registration's two
 * rounds and the two its POST /register is charged; a verification's v3 round and, for a person
 * registered before v3, the v2 one; an erasure's as a verification's, plus the ID's round.
 */
export const FLOW_GUESSES = { register: 4, verify: 2, erase: 3 } as const;

/**
 * Runs `run` with its guesses reserved at once (POST /reservations), so the server never refuses it
 * halfway: every API call it makes carries the reservation. A refusal (429, with the exact wait) comes
 * before anything is evaluated. What the flow did not use goes back to this device's budget at its end.
 */
export async function withReservation<T>(guesses: number, run: () => Promise<T>): Promise<T> {
  const { reservation } = await requestJson<ReservationReply>(apiUrls.reservations(), { method: 'POST', body: { guesses } });
  carryReservation(reservation);
  try {
    return await run();
  } finally {
    carryReservation(undefined);
    // Best effort: if it is lost, the unused guesses are spent when the reservation expires.
    requestJson(apiUrls.reservationRelease(), { method: 'POST', body: { reservation } }).catch(() => undefined);
  }
}

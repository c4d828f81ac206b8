import type { ReservationReply } from '@zeroid/protocol';
import { carryReservation, requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';

/**
 * The OPRF evaluations each flow may need (decision 074), taken at its start; what it did not use goes
 * back at its end:
 * - a registration: its two v3 rounds, the two its POST /register is charged, and the v2 biometric's
 *   round that looks for an identity to move, with the v2 ID's round when it finds one (decision 073);
 * - a verification: its v3 round and, for a person registered before v3, the v2 one;
 * - an erasure: the biometric's v3 round (and v2 round when it is not found under v3), the ID's v3
 *   round, and the v2 rounds of a v2 identity erased in the same body (decision 073).
 */
export const FLOW_GUESSES = { register: 6, verify: 2, erase: 4 } as const;

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

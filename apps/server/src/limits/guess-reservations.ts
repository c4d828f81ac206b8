import { randomBytes } from 'node:crypto';
import { clientKey } from './client-key.ts';
import type { GuessLimits } from './create-guess-limits.ts';
import type { Reservation } from './guess-budget.ts';

/**
 * Takes a flow's `guesses` at once for the client at `address` (decision 074), or throws GuessRefused
 * and takes none: the reservation its later requests carry, bound to this client.
 */
export async function reserveGuesses(limits: GuessLimits, address: string, guesses: number): Promise<Reservation> {
  return limits.budget.reserve(clientKey(address, limits.ipv6Prefix), guesses, () => randomBytes(32).toString('base64url'));
}

/** Ends the client's reservation and gives back the guesses it still held; how many came back. */
export async function releaseReservation(limits: GuessLimits, address: string, reservation: string): Promise<number> {
  return limits.budget.release(clientKey(address, limits.ipv6Prefix), reservation);
}

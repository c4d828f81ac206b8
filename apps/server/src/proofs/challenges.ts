import { randomBytes } from 'node:crypto';
import type { ChallengeRepository } from '../storage/types.ts';

/** What issuing a challenge needs: where challenges are kept, and how long one lives. */
export interface ChallengeServices {
  storage: { challenges: ChallengeRepository };
  config: { challengeTtlMs: number };
}

/**
 * One-time challenges: 31 random bytes, so always below the BN254 scalar field modulus, written as
 * canonical decimal (the only form we store or compare). Replay protection rests on consuming a
 * challenge exactly once, atomically, in the database, never on the bytes of a proof: a Groth16
 * proof with negated points still verifies.
 */
export async function issueChallenge({ storage, config }: ChallengeServices, now = new Date()) {
  const challenge = BigInt(`0x${randomBytes(31).toString('hex')}`).toString();
  const expiresAt = new Date(now.getTime() + config.challengeTtlMs);
  await storage.challenges.issue(challenge, expiresAt, now);
  return { challenge, expiresAt: expiresAt.toISOString() };
}

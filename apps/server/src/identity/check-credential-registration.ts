import { isFieldElement } from '@zeroid/protocol';
import { dayOf } from '@zeroid/protocol/credential';
import type { CredentialClaim, ZkRegisterV3Body } from '@zeroid/protocol/v3';
import { issuersRoot } from '../credentials/issuers-root.ts';
import type { TrustedIssuer } from '../credentials/trusted-issuers.ts';
import { REGISTRATION_CREDENTIAL_KEY } from '../proofs/verifier/verification-keys.ts';
import { badRequest } from '../problem.ts';
import { checkRegistrationV3, type CheckedRegistrationV3, type V3Evaluator } from './check-registration-v3.ts';

/**
 * A v3 registration whose ID is a credential (decision 085), step one: registration-v3's cheap checks
 * (`checkRegistrationV3`), then the two public inputs the credential circuit adds, each against what
 * the server holds itself:
 * - `issuersRoot` must be the root of the tree of today's `TRUSTED_ISSUERS`. There is no window of
 *   earlier roots: the list changes only with a restart, and an issuer the operator removed must stop
 *   registering at once (decision 079), which a window would delay.
 * - `today` must be a day the challenge can belong to. Here, before any work, a day no challenge alive
 *   now can have is refused: outside dayOf(now − TTL) … dayOf(now + TTL). `registerProven` then holds it
 *   to the challenge's own days (`challengeDayProblem`): from the day it was issued to the day it
 *   expires. A later day only makes the expiry check stricter; an earlier one would let a credential
 *   that expired before the challenge was issued prove.
 * - `leaf`, the credential leaf the proof outputs (decision 086), must be a field element; the proof
 *   then holds only if it is the leaf the circuit computes, and it is what the identity is filed with.
 * The proof is then verified under the credential circuit's key, with the leaf as the third signal and
 * the day and the root appended.
 * @throws Problem 400 `INVALID_FIELD_ELEMENT`, `ISSUER_NOT_TRUSTED` or `CREDENTIAL_DAY_INVALID`, or what
 *   `checkRegistrationV3` throws.
 */
export function checkCredentialRegistration(
  body: ZkRegisterV3Body & { credential: CredentialClaim },
  evaluator: V3Evaluator,
  policy: { trustedIssuers: readonly TrustedIssuer[]; challengeTtlMs: number },
  now: Date,
): CheckedRegistrationV3 {
  const { today, issuersRoot: claimedRoot, leaf } = body.credential;
  if (!isFieldElement(leaf)) {
    throw badRequest('INVALID_FIELD_ELEMENT', 'The credential leaf must be a decimal number below the BN254 field modulus.');
  }
  if (policy.trustedIssuers.length === 0) {
    throw badRequest('ISSUER_NOT_TRUSTED', 'This server trusts no credential issuer: register the ID itself instead.');
  }
  const root = issuersRoot(policy.trustedIssuers);
  if (claimedRoot !== root) {
    throw badRequest(
      'ISSUER_NOT_TRUSTED',
      'The proof is made for issuers this server does not trust now (GET /issuers lists them): please start again.',
    );
  }
  const earliest = dayOf(new Date(now.getTime() - policy.challengeTtlMs));
  const latest = dayOf(new Date(now.getTime() + policy.challengeTtlMs));
  if (today < earliest || today > latest) {
    throw credentialDayInvalid();
  }
  const checked = checkRegistrationV3(body, evaluator);
  const [commitment, idTag, ...inputs] = checked.publicSignals;
  return {
    ...checked,
    circuit: REGISTRATION_CREDENTIAL_KEY,
    publicSignals: [commitment!, idTag!, leaf, ...inputs, String(today), root],
    credentialDay: today,
    credentialLeaf: leaf,
  };
}

/**
 * Whether a credential proof's `today` is a day of its challenge: not before the day the challenge was
 * issued (so a credential must have been valid when the challenge was), and not after the day it
 * expires. A challenge issued before migration 024 has no issue time and accepts only its expiry's day.
 */
export function challengeDayProblem(today: number, times: { issuedAt?: Date; expiresAt: Date }) {
  const first = dayOf(times.issuedAt ?? times.expiresAt);
  if (today >= first && today <= dayOf(times.expiresAt)) return undefined;
  return credentialDayInvalid();
}

const credentialDayInvalid = () =>
  badRequest('CREDENTIAL_DAY_INVALID', 'The proof shows the credential valid on another day than its challenge’s: please start again.');

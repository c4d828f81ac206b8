import { asciiField } from '../v3/oprf-suite.ts';

/**
 * The first field of every credential, and its version: a credential is one line,
 * `zeroid-credential-v1.<issuer>.<expires>.<id>.<signature>`, fields joined by dots (base64url has
 * none), so that a person can paste it whole where they would type an ID (decision 079).
 */
export const CREDENTIAL_PREFIX = 'zeroid-credential-v1';

/** The `<expires>` field of a credential that never expires. */
export const NEVER_EXPIRES = 'never';

/** Domain separator of the signed message: m = Poseidon([CREDENTIAL_SIGNATURE_DS, t, expiryDay]). */
export const CREDENTIAL_SIGNATURE_DS = asciiField('zeroid/credential/v1');

/**
 * Label of a credential's ID tag: Poseidon([CREDENTIAL_ID_TAG_LABEL, A.x, A.y, y_id]). Plain IDs use
 * `ID_TAG_LABEL` with a two-input Poseidon, so no plain registration (raw or proven) can ever produce a
 * credential's tag, and two issuers' credentials for the same ID text give two tags.
 */
export const CREDENTIAL_ID_TAG_LABEL = asciiField('zeroid/credential-id-tag/v1');

/**
 * Label of the credential leaf: Poseidon([CREDENTIAL_LEAF_DS, A.x, A.y, secret]) (decision 086). Its own
 * label, so a leaf is never an ID tag nor any other value of the protocol with four inputs.
 */
export const CREDENTIAL_LEAF_DS = asciiField('zeroid/credential-leaf/v1');

/** A credential as it was read: every field decoded and canonical; the signature not yet checked. */
export interface Credential {
  /** The issuer's public key as `issuerPublicKey` prints it (43 base64url characters). */
  issuerKey: string;
  /** The issuer's key as the affine point the signature and the ID tag use. */
  issuer: { x: bigint; y: bigint };
  /** The normalised ID the issuer vouches for. Secret: drop it once derived. */
  id: string;
  /** `YYYY-MM-DD`, the last day (UTC) on which the credential is valid, or undefined for never. */
  expires: string | undefined;
  /** Days from 1970-01-01 to `expires`, or 0 for never: what the signature covers. */
  expiryDay: number;
  signature: { R8: [bigint, bigint]; S: bigint };
}

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number (days since 1970-01-01) of a `YYYY-MM-DD` date, or undefined if it is no real date after 1970-01-01. */
export function dayNumber(date: string): number | undefined {
  const match = ISO_DAY.exec(date);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2027-02-30 over to March: a date that does not print back is not a date.
  if (new Date(ms).toISOString().slice(0, 10) !== date) return undefined;
  const day = ms / DAY_MS;
  return day >= 1 ? day : undefined;
}

/** Today's day number in UTC at `now`, the clock a credential's expiry is compared with. */
export function dayOf(now: Date): number {
  return Math.floor(now.getTime() / DAY_MS);
}

/** Whether a credential is expired on the day of `now` (UTC): valid through the whole of its `expires` day. */
export function isExpired(credential: Pick<Credential, 'expiryDay'>, now: Date): boolean {
  return credential.expiryDay !== 0 && dayOf(now) > credential.expiryDay;
}

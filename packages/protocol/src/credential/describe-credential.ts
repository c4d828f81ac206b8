import type { Credential } from './credential-format.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * What a pasted credential is, in one sentence a person reads before anything is proven: its issuer's
 * name (GET /issuers) and its last valid day, e.g. "Credential from Example University, valid until
 * 1 March 2027". It says nothing of the ID, which the person pasted and can read. The date is written
 * the same in every locale, from the credential's `YYYY-MM-DD` (UTC), never through the device's clock.
 */
export function describeCredential(credential: Pick<Credential, 'expires'>, issuerName: string): string {
  if (credential.expires === undefined) return `Credential from ${issuerName}, with no expiry`;
  const [year, month, day] = credential.expires.split('-').map(Number) as [number, number, number];
  return `Credential from ${issuerName}, valid until ${day} ${MONTHS[month - 1]} ${year}`;
}

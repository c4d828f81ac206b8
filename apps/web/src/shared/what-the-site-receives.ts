/**
 * What a sign-in's site receives, as the sign-in screen and the phone's sign-in say it under the site's
 * name: a pseudonym and, when the site asks for `credential` (decision 089), the issuer's name.
 */
export function whatTheSiteReceives(asksCredential: boolean): string {
  return asksCredential
    ? 'It receives a pseudonym for this site and, if your ID was registered with a credential and you let it, the name of the organisation that issued it: not your ID, not your credential, not your biometric, not your DID.'
    : 'It receives only a pseudonym for this site: not your ID, not your biometric, not your DID.';
}

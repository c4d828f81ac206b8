/** What a sign-in found of the credential its site asked about (the prover's `SignInProofs` says it so). */
export type CredentialFound = { credential: 'not-asked' | 'declined' | 'none' } | { credential: 'shared'; issuerName: string };

/**
 * What the screen says, as it sends the sign-in, of the credential its site asked about (decision 089):
 * the issuer's name it will be told, or that it will be told of none: because none was found, or because
 * the person unticked the box and chose not to tell. Nothing when the site did not ask.
 * Shown by the sign-in screen and by the phone's sign-in.
 */
export function credentialOutcome(found: CredentialFound, site: string): string | undefined {
  switch (found.credential) {
    case 'not-asked':
      return undefined;
    case 'declined':
      return `You chose not to tell ${site} which organisation vouches for your ID: it will not be told of a credential.`;
    case 'none':
      return `No credential was found for your identity: ${site} will not be told of one.`;
    case 'shared':
      return `${site} will be told that ${found.issuerName} vouches for your ID.`;
  }
}

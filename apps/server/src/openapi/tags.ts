/** The reference's table of contents, in reading order: each operation's guide names one of these. */
export const TAGS = [
  { name: 'Registration and verification', description: "The specification's calls, in their raw and zero-knowledge forms." },
  {
    name: 'Zero-knowledge client',
    description: 'What a client proving on its own device needs: the OPRF, challenges, the group and the proving artifacts.',
  },
  {
    name: 'Cross-device verification',
    description: 'A screen shows a QR code; a phone opens it and verifies; the screen follows the outcome.',
  },
  {
    name: 'Sign in with ZeroID (OpenID Connect)',
    description:
      'ZeroID as an OpenID provider. A site uses the standard endpoints with any certified OpenID Connect library; the `/signin` calls are those of ZeroID’s own sign-in screen. ZeroID keeps no login beyond one sign-in; RP-initiated logout (`/oidc/session/end`), once confirmed, revokes the person’s tokens at that site and returns to its registered `post_logout_redirect_uri`.',
  },
  { name: 'Decentralised identifiers', description: 'Every identity has a did:key that anyone can resolve.' },
  { name: 'Operations', description: 'Health for load balancers and orchestrators.' },
] as const;
export type Tag = (typeof TAGS)[number]['name'];

import { Type, type Static } from '@sinclair/typebox';
import { closed, decimal } from '../schema-parts.ts';

/**
 * What a v3 registration body says when its ID is a credential (decisions 085, 086): the proof is then
 * one of `circuits/registration-credential.circom`, and these two of its public inputs are named here
 * so that the server can refuse a stale day or a stale list of issuers with a clear message. Neither
 * says anything about the credential: the day is the calendar's, the root is every trusted issuer's.
 * `leaf` is the proof's third output, the credential leaf the server files for a later sign-in; it
 * hides the issuer and the identity's secret (`credentialLeaf`).
 */
export const CredentialClaim = Type.Object(
  {
    today: Type.Integer({
      minimum: 1,
      maximum: 4_294_967_295,
      description:
        'the UTC day number (days since 1970-01-01) the proof shows the credential valid on: the challenge’s day or the day it expires',
    }),
    issuersRoot: decimal('the root of the trusted issuers’ tree, `issuersRoot` of GET /issuers, that the proof shows the issuer is in'),
    leaf: decimal(
      'the credential leaf Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret) the proof outputs (its third public signal), below the BN254 field modulus: it goes into the credential tree a sign-in proves membership of, and hides the issuer and the secret',
    ),
  },
  {
    ...closed,
    description:
      'Present when the ID is a credential: the proof is of the credential circuit and shows the ID was signed by a trusted issuer, without saying which, and has not expired. The credential, the ID and their hashes are never sent.',
  },
);
export type CredentialClaim = Static<typeof CredentialClaim>;

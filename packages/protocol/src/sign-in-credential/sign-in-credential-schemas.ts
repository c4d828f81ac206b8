import { Type, type Static } from '@sinclair/typebox';
import { closed, decimal } from '../schema-parts.ts';
import { Groth16Points } from '../v3/wire.ts';
import { SIGN_IN_CREDENTIAL_MAX_DEPTH } from './sign-in-credential-input.ts';

/**
 * The credential proof a sign-in sends beside its Semaphore proof when the site asked for `credential`
 * (decision 087): a Groth16 proof of `circuits/sign-in-credential.circom` that a credential leaf of
 * `issuer` is in the credential tree of root `merkleTreeRoot`, with the sign-in's nullifier. Its scope
 * and message are the sign-in's own, never sent twice. It names the issuer and hides which leaf, the
 * secret and the registration the leaf came from.
 */
export const WireCredentialSignInProof = Type.Object(
  {
    issuer: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'the issuer’s public key, as `npm run issuer -- public-key` prints it (and GET /issuers lists it)',
    }),
    merkleTreeRoot: decimal('a root of the credential tree the leaf is in'),
    merkleTreeDepth: Type.Integer({
      minimum: 0,
      maximum: SIGN_IN_CREDENTIAL_MAX_DEPTH,
      description: 'the depth of the tree the proof was made for (informative: the circuit takes any depth up to 24)',
    }),
    nullifier: decimal('Poseidon(scope, secret): the sign-in proof’s own nullifier'),
    points: Groth16Points,
  },
  {
    ...closed,
    description:
      'A proof that the person signing in holds a credential of `issuer`, tied to the sign-in by the same nullifier. The credential, its ID and which registration it came from are not in it.',
  },
);
export type WireCredentialSignInProof = Static<typeof WireCredentialSignInProof>;

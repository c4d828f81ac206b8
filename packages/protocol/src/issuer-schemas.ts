import { Type, type Static } from '@sinclair/typebox';
import { closed, decimal } from './schema-parts.ts';

/**
 * GET /issuers: the issuers whose credentials this server registers (`TRUSTED_ISSUERS`, decision 079),
 * in the operator's order, and whether a plain ID is refused. Public, as a credential's issuer key is:
 * the web app names a pasted credential's issuer from it before anything is sent.
 */
export const IssuersReply = Type.Object(
  {
    issuers: Type.Array(
      Type.Object(
        {
          name: Type.String({ description: "the operator's name for the issuer" }),
          publicKey: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'as `npm run issuer -- public-key` prints it' }),
        },
        closed,
      ),
    ),
    credentialRequired: Type.Boolean({ description: '`REQUIRE_CREDENTIAL`: a plain ID is refused at registration' }),
    issuersRoot: decimal(
      'the root of the Poseidon Merkle tree of the issuers above, in this order (leaves Poseidon(A.x, A.y), depth 5): a credential proof shows its issuer is a leaf',
    ),
  },
  closed,
);
export type IssuersReply = Static<typeof IssuersReply>;

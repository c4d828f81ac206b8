import { Type, type Static } from '@sinclair/typebox';
import { closed, decimal } from './schema-parts.ts';

/**
 * The extra proof of a sign-in that tells the site which organisation vouches for the person
 * (decision 088): membership of a leaf Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret) in the
 * credential tree, for the issuer key A it makes public, with the nullifier Poseidon(scope, secret)
 * of the ordinary sign-in proof. It says nothing of which leaf.
 */
export const WireCredentialSignInProof = Type.Object(
  {
    issuer: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'the issuer’s public key, as `npm run issuer -- public-key` prints it',
    }),
    merkleTreeRoot: decimal('a root of the credential tree, from its root history'),
    merkleTreeDepth: Type.Integer({ minimum: 0, maximum: 32 }),
    nullifier: decimal('Poseidon(scope, secret): the ordinary sign-in proof’s nullifier'),
    points: Type.Array(decimal('coordinate'), { minItems: 8, maxItems: 8 }),
  },
  {
    ...closed,
    description:
      'Sent with a sign-in proof only when the site asked for `credential`: the same person (the same nullifier) holds a leaf of the credential tree for this issuer.',
  },
);
export type WireCredentialSignInProof = Static<typeof WireCredentialSignInProof>;

/** One credential leaf of a bucket, with its LeanIMT Merkle proof. */
export const CredentialMemberWithProof = Type.Object(
  {
    leaf: decimal('a credential leaf'),
    leafIndex: Type.Integer({ minimum: 0, description: 'the leaf’s position in the credential tree' }),
    proofIndex: Type.Integer({ minimum: 0, description: 'LeanIMT proof index (path bits)' }),
    siblings: Type.Array(decimal('sibling')),
  },
  closed,
);

/**
 * GET /credential-members?bucket=…: the credential tree's size, depth and root, and, for a bucket (the
 * first hex characters of sha256 of the decimal leaf, as many as `bucketHexChars`), every leaf in it
 * with its Merkle proof. The server learns the bucket, never which leaf a sign-in proves.
 */
export const CredentialMembersReply = Type.Object(
  {
    size: Type.Integer({ minimum: 0 }),
    depth: Type.Integer({ minimum: 1, maximum: 32 }),
    root: decimal('current root of the credential tree'),
    bucketHexChars: Type.Integer({ minimum: 0, maximum: 4 }),
    bucket: Type.Optional(Type.String()),
    members: Type.Optional(Type.Array(CredentialMemberWithProof)),
  },
  closed,
);
export type CredentialMembersReply = Static<typeof CredentialMembersReply>;

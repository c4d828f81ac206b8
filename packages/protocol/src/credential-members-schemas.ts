import { Type, type Static } from '@sinclair/typebox';
import { closed, decimal } from './schema-parts.ts';

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
 * GET /credential-members?bucket=…: the credential tree's size, depth and root, the member tree's
 * `bucketHexChars`, and, for a bucket of the member tree (the first hex characters of sha256 of the
 * decimal identity commitment, as many as `bucketHexChars`: the bucket GET /members takes), the
 * credential leaf of every identity in it that has one, with its Merkle proof, never the commitments.
 * The server learns the bucket GET /members told it, never which leaf a sign-in proves.
 */
export const CredentialMembersReply = Type.Object(
  {
    size: Type.Integer({ minimum: 0 }),
    depth: Type.Integer({ minimum: 1, maximum: 32 }),
    root: decimal('current root of the credential tree'),
    bucketHexChars: Type.Integer({ minimum: 0, maximum: 4, description: 'the member tree’s bucket length, as GET /members says it' }),
    bucket: Type.Optional(Type.String()),
    members: Type.Optional(Type.Array(CredentialMemberWithProof)),
  },
  closed,
);
export type CredentialMembersReply = Static<typeof CredentialMembersReply>;

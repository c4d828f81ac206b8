import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /credential-members */
export const credentialMembersGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'The credential tree, or one k-anonymous bucket of it',
  description:
    'The tree of credential leaves (one per identity registered with a credential; a leaf hides both the person and the issuer), which a sign-in proves membership of when a site asks for `credential`. Without `bucket`: its size, depth and root, and the member tree’s `bucketHexChars`. With `bucket`, the same bucket as GET /members takes (the first hex characters of sha256 of the decimal identity commitment, exactly `bucketHexChars` of them): every credential leaf of an identity whose commitment is in that bucket, with its position in the credential tree and its Merkle proof; never the commitments, never an erased leaf. A device asks for its own commitment’s bucket once and looks there for its leaf under each trusted issuer, so the server learns the bucket GET /members told it, never which leaf is proven. Counted as a guess, as GET /members is.',
  replies: {
    '200': {
      bucket: {
        summary: 'A bucket',
        value: {
          size: 1,
          depth: 1,
          root: '8472918341107093361089012306329917843101638512066213213488617262719282381563',
          bucketHexChars: 0,
          bucket: '',
          members: [
            {
              leaf: '8472918341107093361089012306329917843101638512066213213488617262719282381563',
              leafIndex: 0,
              proofIndex: 0,
              siblings: [],
            },
          ],
        },
      },
    },
  },
};

import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /members */
export const membersGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'The group, or one k-anonymous bucket of it',
  description:
    'Without `bucket`: the group’s size, depth and root. With `bucket` (the first hex characters of the commitment’s hash): every member in it with its Merkle proof. The server learns the bucket, never which member verifies.',
  replies: {
    '200': {
      bucket: {
        summary: 'A bucket',
        value: {
          size: 1,
          depth: 1,
          root: '5939796729025575893449925993801550624359221883375368278276469315998285656686',
          bucketHexChars: 0,
          bucket: '',
          members: [
            {
              commitment: '5939796729025575893449925993801550624359221883375368278276469315998285656686',
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

import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /issuers */
export const issuersGuide: OperationGuide = {
  tag: 'Registration and verification',
  summary: 'The issuers whose credentials register here',
  description:
    'The operator’s `TRUSTED_ISSUERS`, with their names, and `REQUIRE_CREDENTIAL`. A credential (`npm run issuer -- issue`) is one line sent as `id_info`: the server checks its signature, that its issuer is listed here and that it has not expired, derives the identity from its ID in that issuer’s own ID-tag space, and keeps neither the credential nor the ID. Refusals: `MALFORMED_CREDENTIAL`, `CREDENTIAL_SIGNATURE_INVALID`, `ISSUER_NOT_TRUSTED`, `CREDENTIAL_EXPIRED`, and `CREDENTIAL_REQUIRED` for a plain ID on either path when credentials are required. `issuersRoot` is the root of the Poseidon Merkle tree of these issuers in this order, which a zero-knowledge registration with a credential proves its hidden issuer is in.',
  replies: {
    '200': {
      one: {
        summary: 'One trusted issuer, plain IDs still accepted',
        value: {
          issuers: [{ name: 'Example University', publicKey: 'XtGKu4yllQRQwdQ61w4oYP4coWTf0sjdVXRge2oTqIE' }],
          credentialRequired: false,
          issuersRoot: '3574564371982775872325254121758795096176071840378252561171556799032783195096',
        },
      },
    },
  },
};

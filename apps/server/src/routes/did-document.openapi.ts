import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /did/{did} */
export const didDocumentGuide: OperationGuide = {
  tag: 'Decentralised identifiers',
  summary: 'Resolve a DID to its DID document',
};

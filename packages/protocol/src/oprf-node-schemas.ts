import { Type, type Static } from '@sinclair/typebox';

/**
 * GET /oprf/public-key on an OPRF node: the suite, the node's place (`index`) and its public share
 * Kᵢ, plus the threshold and the group public key its share belongs to, so a client can check the
 * node list (`checkPublicShares`) before it trusts any node. Keys are base64url.
 */
export const OprfNodeKeyReply = Type.Object(
  {
    suite: Type.String(),
    index: Type.Integer({ minimum: 1, maximum: 255 }),
    publicKey: Type.String({ description: 'base64url of Kᵢ = kᵢ·G' }),
    threshold: Type.Integer({ minimum: 2, maximum: 255 }),
    groupPublicKey: Type.String({ description: 'base64url of the group public key K = k·G' }),
  },
  { additionalProperties: false },
);
export type OprfNodeKeyReply = Static<typeof OprfNodeKeyReply>;

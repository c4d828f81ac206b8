import { Type, type Static } from '@sinclair/typebox';
import { OprfNodeV3KeyInfo, V3SuiteField } from './v3/key-info.ts';

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
    v3: Type.Optional(OprfNodeV3KeyInfo),
  },
  { additionalProperties: false },
);
export type OprfNodeKeyReply = Static<typeof OprfNodeKeyReply>;

/** The most elements a node evaluates in one POST /oprf/batch: a registration's biometric and ID. */
export const OPRF_BATCH_MAX = 2;

/**
 * POST /oprf/batch on an OPRF node (decision 027): a serialized EvaluationRequest of one or two
 * blinded elements, answered (as POST /oprf, `OprfReply`) by one serialized Evaluation with ONE
 * RFC 9497 DLEQ proof for the whole batch. The server's raw path sends a registration's two
 * elements this way: one request and one proof per node instead of two. Each element is one guess.
 */
export const OprfBatchRequest = Type.Object(
  {
    request: Type.String({
      pattern: '^[A-Za-z0-9_-]{1,128}$',
      description: 'base64url of a serialized EvaluationRequest with one or two elements (v2), or one or two 32-byte points (v3)',
    }),
    suite: Type.Optional(V3SuiteField),
  },
  { additionalProperties: false },
);
export type OprfBatchRequest = Static<typeof OprfBatchRequest>;

/**
 * The header that carries an admission to an OPRF node (decision 032): a ZeroID server's Ed25519
 * signature over the request's blinded elements and the time, issued after the server counted the
 * client's guess. A node evaluates nothing without one.
 */
export const OPRF_ADMISSION_HEADER = 'zeroid-admission';

/**
 * POST /oprf/admission on a ZeroID server in threshold mode (decision 032): the serialized
 * EvaluationRequest (one or two blinded elements) the client is about to send to the nodes. The
 * server counts one guess per element, as POST /oprf does in single-key mode, and admits it.
 */
export const OprfAdmissionRequest = Type.Object(
  {
    request: Type.String({
      pattern: '^[A-Za-z0-9_-]{1,128}$',
      description: 'base64url of the serialized EvaluationRequest the nodes will evaluate (v2), or of its one or two 32-byte points (v3)',
    }),
    suite: Type.Optional(V3SuiteField),
  },
  { additionalProperties: false },
);
export type OprfAdmissionRequest = Static<typeof OprfAdmissionRequest>;

export const OprfAdmissionReply = Type.Object(
  { admission: Type.String({ description: 'base64url; send it to each node in the zeroid-admission header' }) },
  { additionalProperties: false },
);
export type OprfAdmissionReply = Static<typeof OprfAdmissionReply>;

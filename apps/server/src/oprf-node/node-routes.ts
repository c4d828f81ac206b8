import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  OPRF_ADMISSION_HEADER,
  OPRF_BATCH_MAX,
  OPRF_SUITE,
  OprfBatchRequest,
  OprfNodeKeyReply,
  OprfReply,
  OprfRequest,
} from '@zeroid/protocol';
import { babyJubjubSuite, decodePoint, decodeScalar, SUITE_ID } from '@zeroid/protocol/v3';
import { guessLimited } from '../http/guess-limits.ts';
import { replyNotReady } from '../http/reply-not-ready.ts';
import { libsodiumReady } from '../oprf/libsodium.ts';
import type { OprfShareFile } from '../oprf/oprf-share-file.ts';
import { sodiumBlindedElements, sodiumBlindEvaluateBatch } from '../oprf/sodium-voprf.ts';
import { v3BlindedPoints, v3EvaluateBatch } from '../oprf/batch-v3.ts';
import { invalidElement, Problem } from '../problem.ts';
import type { admissionChecker } from './check-admission.ts';
import type { nodeLimits } from '../limits/node-limits.ts';
import { typed } from '../http/typed-app.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * The blinded elements of a base64url EvaluationRequest of 1 to `max` elements, checked (canonical,
 * not the identity) before anything is spent; libsodium 1.0.18+ decodes them (`libsodiumReady` first).
 * @throws `invalidElement` (INVALID_ELEMENT) otherwise: a 400, as the server's POST /oprf.
 */
function blindedElements(encoded: string, max: number): Uint8Array[] {
  const elements = sodiumBlindedElements(new Uint8Array(Buffer.from(encoded, 'base64url')), max);
  if (elements) return elements;
  throw invalidElement('ristretto255', max);
}

/**
 * A node's routes. POST /oprf is the server's POST /oprf, wire for wire, with the node's share kᵢ:
 * one blinded element in, kᵢ·B out with an RFC 9497 DLEQ proof against Kᵢ, so a client can tell a
 * node that used anything but its share. GET /oprf/public-key publishes Kᵢ, the node's place and the
 * group key it belongs to.
 *
 * The evaluation and its proof run on libsodium (sodium-voprf.ts, decision 026), many times faster on
 * the event loop than voprf-ts on noble's BigInt code, which capped a node's evaluations a second
 * (docs/benchmarks.md, "Node evaluation"). POST /oprf/batch (decision 027) evaluates one or two elements with one proof
 * for both: the server's raw path sends a registration's biometric and ID together. Each element is
 * one guess on the client's budget.
 *
 * Both evaluate only with an admission (decision 032): the `zeroid-admission` header, signed by a
 * ZeroID server over these very elements after it counted the client's guess. Without one, or with a
 * forged, stale or borrowed one, 403, before anything is spent; the node's own limits then apply as a
 * second line.
 *
 * With `suite` (protocol v3, decision 056) the same routes evaluate Baby Jubjub points with the
 * node's v3 share, under the same gate (1 or 2 valid subgroup points, else 400), the same admission
 * rule (signed for v3 points: a v2 admission does not admit them, decision 058) and the same limits:
 * /oprf answers Z ‖ e ‖ s with its DLEQ proof, /oprf/batch Z₁ ‖ Z₂ ‖ e ‖ s with one proof for both.
 * A node whose share file predates v3 answers 409 `OPRF_SUITE_UNAVAILABLE` to those.
 */
export function nodeRoutes(
  app: FastifyInstance,
  {
    share,
    limits,
    checkAdmission,
    ping,
  }: {
    share: OprfShareFile;
    limits: ReturnType<typeof nodeLimits>;
    checkAdmission: ReturnType<typeof admissionChecker>;
    ping: () => Promise<void>;
  },
) {
  const api = typed(app);
  const keyReply: OprfNodeKeyReply = {
    suite: OPRF_SUITE,
    index: share.index,
    publicKey: b64(share.publicKey),
    threshold: share.threshold,
    groupPublicKey: b64(share.groupPublicKey),
    ...(share.v3 ? { v3: { suite: SUITE_ID, publicKey: b64(share.v3.publicKey), groupPublicKey: b64(share.v3.groupPublicKey) } } : {}),
  };
  const v3 = share.v3 && { share: decodeScalar(share.v3.share)!, publicKey: decodePoint(share.v3.publicKey)! };
  app.get('/oprf/public-key', { schema: { response: { 200: OprfNodeKeyReply } } }, async () => keyReply);
  const burst = guessLimited({ perMinute: limits.perMinute }, limits.burstPerMinute);

  api.post('/oprf', { ...burst, schema: { body: OprfRequest, response: { 200: OprfReply } } }, async (request) =>
    request.body.suite ? evaluateV3(request, request.body.element, false) : evaluate(request, request.body.element, 1),
  );
  api.post('/oprf/batch', { ...burst, schema: { body: OprfBatchRequest, response: { 200: OprfReply } } }, async (request) =>
    request.body.suite ? evaluateV3(request, request.body.request, true) : evaluate(request, request.body.request, OPRF_BATCH_MAX),
  );

  async function evaluate(request: FastifyRequest, encoded: string, max: number): Promise<OprfReply> {
    await libsodiumReady;
    // Refused (400, then 403) before it spends a guess; each valid element draws on the client's budget.
    const elements = blindedElements(encoded, max);
    const verdict = checkAdmission(
      request.headers[OPRF_ADMISSION_HEADER] as string | undefined,
      Uint8Array.from([0, elements.length, ...elements.flatMap((element) => [...element])]),
    );
    if (verdict !== 'admitted') throw admissionRefused(verdict);
    await limits.admit(request.ip, elements.length);
    return { evaluation: b64(sodiumBlindEvaluateBatch(share.share, share.publicKey, elements)) };
  }

  /** Protocol v3: one point (/oprf) with its own proof, or one or two (/oprf/batch) with one batch proof. */
  async function evaluateV3(request: FastifyRequest, encoded: string, batch: boolean): Promise<OprfReply> {
    if (!share.v3 || !v3) {
      throw new Problem(
        409,
        'OPRF_SUITE_UNAVAILABLE',
        `This node holds no ${SUITE_ID} share yet (its share file predates protocol v3): give it its file from \`npm run oprf -- refresh\`.`,
      );
    }
    const bytes = new Uint8Array(Buffer.from(encoded, 'base64url'));
    const points = v3BlindedPoints(bytes, batch ? OPRF_BATCH_MAX : 1);
    if (!points) {
      throw invalidElement('Baby Jubjub', batch ? OPRF_BATCH_MAX : 1);
    }
    const verdict = checkAdmission(request.headers[OPRF_ADMISSION_HEADER] as string | undefined, bytes, SUITE_ID);
    if (verdict !== 'admitted') throw admissionRefused(verdict);
    await limits.admit(request.ip, points.length);
    const evaluation = batch ? v3EvaluateBatch(v3.share, v3.publicKey, points) : await babyJubjubSuite.blindEvaluate(share.v3.share, bytes);
    return { evaluation: b64(evaluation) };
  }

  app.get('/livez', async () => ({ status: 'ok' }));
  app.get('/healthz', async (request, reply) => {
    try {
      await ping();
      // A node whose file predates v3 says so: it answers v2 rounds only (decision 058).
      return { status: 'ready', index: share.index, v3: share.v3 ? 'serving' : 'no-share' };
    } catch (error) {
      return replyNotReady(request, reply, error);
    }
  });
}

/** 403: this node evaluates only what a ZeroID server admitted (decision 032). */
function admissionRefused(verdict: 'missing' | 'invalid' | 'expired'): Problem {
  return verdict === 'missing'
    ? new Problem(
        403,
        'ADMISSION_REQUIRED',
        'This node evaluates only with an admission from a ZeroID server: ask the server (POST /oprf/admission) for one, and send it in the zeroid-admission header.',
      )
    : new Problem(
        403,
        'ADMISSION_INVALID',
        verdict === 'expired'
          ? 'The admission has expired: ask the server for a new one.'
          : 'The admission is not signed by a server this node trusts, or not for these elements.',
      );
}

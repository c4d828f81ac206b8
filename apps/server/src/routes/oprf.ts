import type { FastifyInstance } from 'fastify';
import { publicKeyGuide, evaluateGuide, admissionGuide } from './oprf.openapi.ts';
import {
  assertBlindedRequest,
  OPRF_BATCH_MAX,
  OPRF_SUITE,
  OprfAdmissionReply,
  OprfAdmissionRequest,
  OprfKeyReply,
  OprfReply,
  OprfRequest,
  ProtocolInputError,
} from '@zeroid/protocol';
import { SUITE_ID, babyJubjubSuite, decodePoint, encodePoint, type Point } from '@zeroid/protocol/v3';
import type { AppDeps } from '../app-deps.ts';
import { admitGuess, guessLimited } from '../http/guess-limits.ts';
import { OPRF_EVALUATION } from '../limits/guess-costs.ts';
import { oprfUnavailable, Problem } from '../problem.ts';
import { sodiumBlindedElements } from '../oprf/sodium-voprf.ts';
import { libsodiumReady } from '../oprf/libsodium.ts';
import { typed } from '../http/typed-app.ts';
import { v3BlindedPoints } from '../oprf/batch-v3.ts';

/**
 * The OPRF (RFC 9497, VOPRF mode). POST /oprf evaluates exactly one blinded element with the
 * server's key and proves (DLEQ) that it used the published key. Every guess at a biometric or ID
 * must pass through here, since stored values are useless without the key: this is the brute-force
 * gate, under both rate limits. GET /oprf/public-key publishes the key the client checks proofs against.
 *
 * In threshold mode (decision 021) this process holds no key: GET /oprf/public-key publishes the
 * group key with the nodes, the threshold and the admission key, POST /oprf tells a client to ask the
 * nodes, and POST /oprf/admission is where their guess is counted first (decision 032): the same
 * burst limit, failure throttle, guess budget and global budget as POST /oprf in single-key mode, one
 * guess per element, and then a signed admission for exactly those elements, without which no node
 * evaluates them. A client this server refuses gets no more guesses through the nodes than it would
 * get here with the single key.
 */
export function oprfRoutes(app: FastifyInstance, { oprf, oprfV3, oprfNodes, admissions, limits, metrics }: AppDeps) {
  const api = typed(app);
  api.post(
    '/oprf/admission',
    { ...guessLimited(limits), schema: { 'x-guide': admissionGuide, body: OprfAdmissionRequest, response: { 200: OprfAdmissionReply } } },
    async (request) => {
      if (!admissions) {
        throw new Problem(409, 'OPRF_SINGLE_KEY_MODE', 'This server holds the OPRF key itself: send the blinded element to POST /oprf.');
      }
      await libsodiumReady;
      const { suite } = request.body;
      const bytes = new Uint8Array(Buffer.from(request.body.request, 'base64url'));
      // A malformed request is refused (400) before it spends an attempt, as at POST /oprf; v3's
      // points must be canonical points of Baby Jubjub's prime-order subgroup (decodePoint).
      const elements = suite ? v3BlindedPoints(bytes, OPRF_BATCH_MAX) : sodiumBlindedElements(bytes, OPRF_BATCH_MAX);
      if (!elements) {
        const group = suite ? 'Baby Jubjub' : 'ristretto255';
        throw new ProtocolInputError('INVALID_ELEMENT', `The request is not 1 to ${OPRF_BATCH_MAX} valid ${group} points.`);
      }
      // Fewer than t nodes answered the last read with keys that fit: the 503 before the guess is
      // counted, since the server cannot give it back once the client holds the admission (decision 053).
      // The same for v3: a v3 round needs t nodes whose v3 shares fit the v3 group key.
      const v3 = oprfNodes?.current?.v3;
      if (suite && (!v3 || v3.shares.size < v3.threshold)) {
        throw oprfUnavailable('Fewer OPRF nodes than the threshold serve protocol v3 now. Please try again shortly.');
      }
      const cost = { ...OPRF_EVALUATION, guesses: OPRF_EVALUATION.guesses * elements.length };
      await admitGuess(request, limits, cost, oprfNodes, { answering: true });
      metrics.oprfEvaluations.inc({ kind: 'admitted' }, elements.length);
      // Signed for this suite: a v2 admission does not admit v3 points, nor the reverse (decision 058).
      return { admission: admissions.issue(bytes, Date.now(), suite) };
    },
  );

  if (!oprf) {
    app.get('/oprf/public-key', { schema: { 'x-guide': publicKeyGuide, response: { 200: OprfKeyReply } } }, async () => {
      const set = oprfNodes?.current;
      if (!set) {
        throw oprfUnavailable('The OPRF nodes have not published their keys yet. Please try again shortly.');
      }
      return {
        suite: OPRF_SUITE,
        publicKey: Buffer.from(set.groupPublicKey).toString('base64url'),
        threshold: set.threshold,
        nodes: set.nodes.map((node) => node.url),
        ...(set.v3 ? { v3: v3KeyInfo(set.v3.groupKey) } : {}),
        ...(admissions ? { admissionKey: Buffer.from(admissions.publicKey).toString('base64url') } : {}),
      };
    });
    app.post('/oprf', { schema: { 'x-guide': evaluateGuide, body: OprfRequest } }, async () => {
      throw new Problem(
        409,
        'OPRF_THRESHOLD_MODE',
        'This server holds no OPRF key: send the blinded element to the OPRF nodes listed at GET /oprf/public-key, and combine the answers of the threshold.',
      );
    });
    return;
  }

  const publicKey = Buffer.from(oprf.publicKey).toString('base64url');
  const v3Info = oprfV3 && v3KeyInfo(oprfV3.publicKey);
  app.get('/oprf/public-key', { schema: { 'x-guide': publicKeyGuide, response: { 200: OprfKeyReply } } }, async () => ({
    suite: OPRF_SUITE,
    publicKey,
    ...(v3Info ? { v3: v3Info } : {}),
  }));

  api.post(
    '/oprf',
    { ...guessLimited(limits), schema: { 'x-guide': evaluateGuide, body: OprfRequest, response: { 200: OprfReply } } },
    async (request) => {
      const element = new Uint8Array(Buffer.from(request.body.element, 'base64url'));
      // A malformed element is refused (400) before it spends an attempt; a valid one draws on the
      // client's guess budget, since the server cannot tell a guess from an honest round. Protocol v3
      // (decision 056) costs the same guess: its element is one Baby Jubjub point, checked by
      // `decodePoint` (canonical, on the curve, in the subgroup, not the identity).
      const v3Key = request.body.suite === SUITE_ID ? oprfV3 : undefined;
      if (!v3Key) assertBlindedRequest(element);
      else if (!decodePoint(element))
        throw new ProtocolInputError('INVALID_ELEMENT', 'The blinded element is not one valid Baby Jubjub point.');
      await admitGuess(request, limits, OPRF_EVALUATION);
      const evaluation = v3Key ? await babyJubjubSuite.blindEvaluate(v3Key.privateKey, element) : await oprf.blindEvaluate(element);
      metrics.oprfEvaluations.inc({ kind: 'blinded' });
      return { evaluation: Buffer.from(evaluation).toString('base64url') };
    },
  );
}

/** GET /oprf/public-key's `v3`: the key every v3 registration is proven against (decision 056). */
const v3KeyInfo = (publicKey: Point) => ({ suite: SUITE_ID, publicKey: Buffer.from(encodePoint(publicKey)).toString('base64url') });

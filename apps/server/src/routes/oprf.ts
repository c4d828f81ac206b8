import type { FastifyInstance } from 'fastify';
import { publicKeyGuide, evaluateGuide, admissionGuide } from './oprf.openapi.ts';
import { OPRF_SUITE, OprfAdmissionReply, OprfAdmissionRequest, OprfKeyReply, OprfReply, OprfRequest } from '@zeroid/protocol';
import { SUITE_ID, encodePoint, type Point } from '@zeroid/protocol/v3';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { typed } from '../http/typed-app.ts';
import { admitNodeRound } from '../identity/admit-node-round.ts';
import { evaluateBlinded } from '../identity/evaluate-blinded.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { oprfUnavailable, Problem } from '../problem.ts';

/**
 * The OPRF (RFC 9497, VOPRF mode). POST /oprf evaluates exactly one blinded element with the
 * server's key and proves (DLEQ) that it used the published key. Every guess at a biometric or ID
 * must pass through here, since stored values are useless without the key: this is the brute-force
 * gate, under the burst limit and the guess limits (identity/evaluate-blinded.ts). GET /oprf/public-key publishes the key the client checks proofs against.
 *
 * In threshold mode (decision 021) this process holds no key: GET /oprf/public-key publishes the
 * group key with the nodes, the threshold and the admission key, POST /oprf tells a client to ask the
 * nodes, and POST /oprf/admission is where their guess is counted first (decision 032,
 * identity/admit-node-round.ts): the same burst limit, failure throttle, guess budget and global
 * budget as POST /oprf in single-key mode. A client this server refuses gets no more guesses through
 * the nodes than it would get here with the single key.
 */
export function oprfRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { oprf, oprfV3, oprfNodes, admissions, limits, metrics } = deps;
  const api = typed(app);
  api.post(
    '/oprf/admission',
    { ...guessLimited(limits), schema: { 'x-guide': admissionGuide, body: OprfAdmissionRequest, response: { 200: OprfAdmissionReply } } },
    async (request) => {
      const admit = guessAdmitter(limits, guessClient(request), oprfNodes, { answering: true });
      const bytes = new Uint8Array(Buffer.from(request.body.request, 'base64url'));
      return { admission: await admitNodeRound(deps, admit, bytes, request.body.suite) };
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
      const evaluation = await evaluateBlinded(
        { oprf, oprfV3, metrics },
        guessAdmitter(limits, guessClient(request)),
        element,
        request.body.suite,
      );
      return { evaluation: Buffer.from(evaluation).toString('base64url') };
    },
  );
}

/** GET /oprf/public-key's `v3`: the key every v3 registration is proven against (decision 056). */
const v3KeyInfo = (publicKey: Point) => ({ suite: SUITE_ID, publicKey: Buffer.from(encodePoint(publicKey)).toString('base64url') });

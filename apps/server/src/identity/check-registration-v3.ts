import { isFieldElement, SNARK_SCALAR_FIELD } from '@zeroid/protocol';
import {
  decodePoint,
  didHash,
  encodePoint,
  registrationPublicSignals,
  v3RegistrationMessage,
  type Point,
  type V3Round,
  type ZkRegisterV3Body,
} from '@zeroid/protocol/v3';
import { combineV3Answers } from '../oprf/nodes/combine-answers-v3.ts';
import type { OprfNodeSet } from '../oprf/nodes/oprf-node-set.ts';
import type { OprfV3Key } from '../oprf/oprf-key-v3.ts';
import { badRequest, invalidElement, oprfUnavailable } from '../problem.ts';
import { verifyDidSignature } from './verify-did-signature.ts';

declare const checked: unique symbol;
/**
 * A v3 registration whose cheap checks passed (`checkRegistrationV3`): what `registerProven` takes,
 * with the proof's public signals built by the server and the blinded points to record.
 */
export interface CheckedRegistrationV3 {
  readonly [checked]: true;
  commitment: string;
  idTag: string;
  did: string;
  challenge: string;
  /** The canonical encodings of B_bio and B_id (`encodePoint`, base64url): `registration_queries` rows. */
  queries: [string, string];
  proof: string[];
  publicSignals: string[];
  /** The verification key's name when not registration-v3's: the credential circuit's (decision 085). */
  circuit?: string;
  /** The credential circuit's public day (decision 085), checked against the challenge's own times when it is consumed. */
  credentialDay?: number;
  /** The credential leaf the credential circuit's proof outputs (decision 086), filed with the identity. */
  credentialLeaf?: string;
}

/** Where Z = k·B comes from: the single key, or the threshold nodes' v3 keys (undefined until they publish them). */
export type V3Evaluator = { key: OprfV3Key } | { nodes: OprfNodeSet['v3'] };

const invalidPoint = () => invalidElement('Baby Jubjub', 'each');
const notField = () =>
  badRequest('INVALID_FIELD_ELEMENT', 'The commitment, the ID tag and the challenge must each be below the BN254 field modulus.');

/**
 * A protocol v3 registration (decision 056), step one: the checks that cost no challenge, no guess and
 * no pairing, in the plan's order. The values are field elements; both blinded points decode
 * (canonical, on the curve, in the subgroup, not the identity); the DID's key signed
 * `v3RegistrationMessage` (so the DID, which the circuit binds only by its hash, is the registrant's);
 * Z = k·B is computed with the single key, or combined from the nodes' answers, each checked against
 * its node's published v3 key. Then the statement the proof must make is built here, from those
 * values alone: the client's idea of Z, K or the signals is never read.
 * @throws Problem (400) naming the first check that failed; 503 when the
 *   threshold nodes have published no v3 key yet.
 */
export function checkRegistrationV3(body: ZkRegisterV3Body, evaluator: V3Evaluator): CheckedRegistrationV3 {
  const { commitment, idTag, did, challenge } = body;
  const idTagField = BigInt(`0x${idTag}`);
  if (!isFieldElement(commitment) || !isFieldElement(challenge) || idTagField >= SNARK_SCALAR_FIELD) throw notField();
  const bioBlinded = decodeBlinded(body.bio);
  const idBlinded = decodeBlinded(body.id);
  if (!verifyDidSignature(did, v3RegistrationMessage({ challenge, commitment, idTag, did }), body.didSignature)) {
    throw badRequest('INVALID_SIGNATURE', 'The DID signature does not match the registration.');
  }
  const { groupKey, evaluate } = evaluation(evaluator, body);
  const statement = {
    bioBlinded,
    bioEvaluated: evaluate(bioBlinded, body.bio),
    idBlinded,
    idEvaluated: evaluate(idBlinded, body.id),
    groupKey,
    challenge: BigInt(challenge),
    didHash: didHash(did),
  };
  return {
    commitment,
    idTag,
    did,
    challenge,
    queries: [encoded(bioBlinded), encoded(idBlinded)],
    proof: body.proof,
    publicSignals: registrationPublicSignals(commitment, idTagField, statement),
  } as CheckedRegistrationV3;
}

function decodeBlinded(round: V3Round): Point {
  const point = decodePoint(new Uint8Array(Buffer.from(round.blinded, 'base64url')));
  if (!point) throw invalidPoint();
  return point;
}

/** The key K the proof names, and how Z is obtained for one round, by mode. */
function evaluation(
  evaluator: V3Evaluator,
  body: ZkRegisterV3Body,
): { groupKey: Point; evaluate: (blinded: Point, round: V3Round) => Point } {
  const answered = body.bio.answers !== undefined || body.id.answers !== undefined;
  if ('key' in evaluator) {
    if (answered)
      throw badRequest('EVALUATION_REFUSED', 'This server holds the OPRF key itself: send the blinded points without node answers.');
    const { scalar, publicKey } = evaluator.key;
    return { groupKey: publicKey, evaluate: (blinded) => blinded.multiply(scalar) };
  }
  const v3 = evaluator.nodes;
  if (!v3) {
    throw oprfUnavailable('The OPRF nodes have not published their protocol v3 keys yet. Please try again shortly.');
  }
  if (!body.bio.answers || !body.id.answers) {
    throw badRequest('EVALUATION_REFUSED', 'Threshold mode: each round must carry the node answers it combined.');
  }
  return { groupKey: v3.groupKey, evaluate: (blinded, round) => combineV3Answers(v3, blinded, round.answers!) };
}

const encoded = (point: Point) => Buffer.from(encodePoint(point)).toString('base64url');

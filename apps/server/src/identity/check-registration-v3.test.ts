import { beforeAll, describe, expect, it } from 'vitest';
import {
  G,
  blindQuery,
  deriveRegistration,
  encodeEvaluation,
  encodePoint,
  evaluateBlinded,
  publicShare,
  randomScalar,
  splitKey,
  v3RegistrationMessage,
  type ZkRegisterV3Body,
  signWithDid,
} from '@zeroid/protocol/v3';
import { ProtocolInputError } from '@zeroid/protocol';
import { Problem } from '../problem.ts';
import { libsodiumReady } from '../oprf/libsodium.ts';
import { checkRegistrationV3, type V3Evaluator } from './check-registration-v3.ts';

/**
 * The cheap checks of a v3 registration by mode (decision 056): the single key computes Z itself
 * and refuses node answers; threshold mode requires them and combines them into the same statement.
 */
const key = randomScalar();
const shares = splitKey(key, 2, 3);
const single: V3Evaluator = { key: { privateKey: new Uint8Array(32), scalar: key, publicKey: G.multiply(key) } };
const threshold: V3Evaluator = {
  nodes: { groupKey: G.multiply(key), shares: new Map(shares.map((share) => [share.index, publicShare(share).publicKey])), threshold: 2 },
};
const bio = blindQuery('bio', 'check registration bio').blinded;
const id = blindQuery('id', 'check registration id').blinded;
const encoded = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const answers = (point: typeof bio) =>
  shares.slice(0, 2).map((share) => {
    const { evaluated, proof } = evaluateBlinded(share.share, point);
    return { index: share.index, evaluation: encoded(encodeEvaluation(evaluated, proof)) };
  });
let body: ZkRegisterV3Body;

beforeAll(async () => {
  // The DID signature is checked with libsodium, ready once the server's services are (createServices).
  await libsodiumReady;
  const registration = deriveRegistration(randomScalar(), randomScalar());
  const fields = { commitment: registration.commitment, idTag: registration.idTag, did: registration.didKey.did, challenge: '42' };
  body = {
    ...fields,
    bio: { blinded: encoded(encodePoint(bio)) },
    id: { blinded: encoded(encodePoint(id)) },
    proof: ['1', '2', '3', '4', '5', '6', '7', '8'],
    didSignature: signWithDid(v3RegistrationMessage(fields), registration.didKey.secretKey),
  };
});

const outcome = (candidate: ZkRegisterV3Body, evaluator: V3Evaluator) => {
  try {
    return checkRegistrationV3(candidate, evaluator).publicSignals;
  } catch (error) {
    if (error instanceof ProtocolInputError) return `400 ${error.code}`;
    return error instanceof Problem ? `${error.statusCode} ${error.code}` : String(error);
  }
};

describe('checkRegistrationV3', () => {
  it('builds the same statement from the nodes’ answers as from the single key', () => {
    const withAnswers = { ...body, bio: { ...body.bio, answers: answers(bio) }, id: { ...body.id, answers: answers(id) } };
    expect(outcome(withAnswers, threshold)).toEqual(outcome(body, single));
    expect(outcome(body, single)).toHaveLength(14);
  });

  it('refuses answers with the single key, a round without them in threshold mode, and waits for the nodes’ v3 keys', () => {
    expect(outcome({ ...body, bio: { ...body.bio, answers: answers(bio) } }, single)).toBe('400 EVALUATION_REFUSED');
    expect(outcome({ ...body, bio: { ...body.bio, answers: answers(bio) } }, threshold)).toBe('400 EVALUATION_REFUSED');
    expect(outcome(body, { nodes: undefined })).toBe('503 OPRF_UNAVAILABLE');
  });

  it('refuses an answer for the other round’s point', () => {
    const swapped = { ...body, bio: { ...body.bio, answers: answers(id) }, id: { ...body.id, answers: answers(id) } };
    expect(outcome(swapped, threshold)).toBe('400 EVALUATION_REFUSED');
  });

  it('refuses numbers at or above the field modulus, an invalid point and a signature of other values, in that order', () => {
    expect(outcome({ ...body, idTag: 'f'.repeat(64) }, single)).toBe('400 INVALID_FIELD_ELEMENT');
    expect(outcome({ ...body, bio: { blinded: 'A'.repeat(43) } }, single)).toBe('400 INVALID_ELEMENT');
    expect(outcome({ ...body, challenge: '43' }, single)).toBe('400 INVALID_SIGNATURE');
  });
});

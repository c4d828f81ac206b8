import { numberToBytesBE } from '@noble/curves/utils.js';
import { OprfProofError, ProtocolInputError } from '../errors.ts';
import type { OprfSuite } from '../oprf-group-suite.ts';
import type { OprfKeyShare, OprfPublicShare } from '../threshold-oprf.ts';
import { Fn, G, Point, decodePoint, decodeScalar, encodePoint, randomScalar } from './baby-jubjub-group.ts';
import { blindQuery } from './blind-query.ts';
import { checkPublicShares } from './check-public-shares.ts';
import { combineEvaluations } from './combine-evaluations.ts';
import { verifyDleq } from './dleq-proof.ts';
import { evaluateBlinded } from './evaluate-blinded.ts';
import { decodeEvaluation, encodeEvaluation } from './evaluation-codec.ts';
import { evaluateOutput } from './evaluate-output.ts';
import { SUITE_ID } from './oprf-suite.ts';
import { publicShare, recoverKey, splitKey } from './threshold-key.ts';
import { unblindEvaluation } from './unblind-evaluation.ts';

const invalidElement = () => new ProtocolInputError('INVALID_ELEMENT', 'The blinded element is not one valid Baby Jubjub point.');
/** An output on the wire: y as 32 big-endian bytes (the DID's HKDF reads the same bytes). */
const outputBytes = (y: bigint) => numberToBytesBE(y, 32);

function privateScalar(bytes: Uint8Array): bigint {
  const key = decodeScalar(bytes);
  if (!key) throw new RangeError('An OPRF v3 private key or share is a canonical non-zero 32-byte scalar below ℓ');
  return key;
}

function groupPoint(bytes: Uint8Array, what: string): Point {
  const point = decodePoint(bytes);
  if (!point) throw new RangeError(`${what} is not a valid Baby Jubjub point`);
  return point;
}

const toShare = ({ index, share }: OprfKeyShare) => ({ index, share: privateScalar(share) });
const fromShare = ({ index, share }: { index: number; share: bigint }): OprfKeyShare => ({ index, share: Fn.toBytes(share) });

/**
 * Protocol v3's suite behind the suite interface (decision 040): keys and shares are 32-byte
 * little-endian scalars, elements 32-byte points, an evaluation Z ‖ e ‖ s (96 bytes), an output y as
 * 32 big-endian bytes. The browser's registration uses `blindQuery` and keeps the round for the
 * registration proof; this interface serves verification, the nodes and the tools.
 */
export const babyJubjubSuite: OprfSuite = {
  id: SUITE_ID,
  elementBytes: 32,
  async generateKeyPair() {
    const key = randomScalar();
    return { privateKey: Fn.toBytes(key), publicKey: encodePoint(G.multiply(key)) };
  },
  publicKey: (privateKey) => encodePoint(G.multiply(privateScalar(privateKey))),

  async blindEvaluate(privateKey, request) {
    const blinded = decodePoint(request);
    if (!blinded) throw invalidElement();
    const { evaluated, proof } = evaluateBlinded(privateScalar(privateKey), blinded);
    return encodeEvaluation(evaluated, proof);
  },
  evaluate: async (privateKey, domain, normalised) => evaluateOutput(privateScalar(privateKey), domain, normalised),

  async blind(publicKey, domain, normalised) {
    const groupKey = groupPoint(publicKey, 'The OPRF public key');
    const round = blindQuery(domain, normalised);
    return {
      request: encodePoint(round.blinded),
      async finalize(evaluation) {
        const decoded = decodeEvaluation(evaluation);
        if (!decoded || !verifyDleq(groupKey, round.blinded, decoded.evaluated, decoded.proof)) throw new OprfProofError();
        return outputBytes(unblindEvaluation(round, groupKey, decoded.evaluated).output);
      },
    };
  },
  async blindThreshold({ groupPublicKey, threshold, publicShares }, domain, normalised) {
    const groupKey = groupPoint(groupPublicKey, 'The group public key');
    const shares = new Map(publicShares.map(({ index, publicKey }) => [index, groupPoint(publicKey, `Node ${index}'s public key`)]));
    const round = blindQuery(domain, normalised);
    return {
      request: encodePoint(round.blinded),
      async finalize(answers) {
        const decoded = answers.map(({ index, evaluation }) => {
          const answer = decodeEvaluation(evaluation);
          return { index, evaluated: answer?.evaluated, proof: answer?.proof ?? { e: -1n, s: -1n } };
        });
        // Only answers whose Kᵢ interpolate to K are combined; additive blinding then unblinds with K.
        const { evaluated, rejected, inconsistent } = combineEvaluations(round.blinded, groupKey, shares, threshold, decoded);
        return { output: outputBytes(unblindEvaluation(round, groupKey, evaluated).output), rejected, inconsistent };
      },
    };
  },

  splitKey: (privateKey, threshold, count) => splitKey(privateScalar(privateKey), threshold, count).map(fromShare),
  recoverKey: (shares) => Fn.toBytes(recoverKey(shares.map(toShare))),
  refreshShares: (shares, threshold, count) => splitKey(recoverKey(shares.map(toShare)), threshold, count).map(fromShare),
  publicShare: (share): OprfPublicShare => ({ index: share.index, publicKey: encodePoint(publicShare(toShare(share)).publicKey) }),
  checkPublicShares: (groupPublicKey, shares, threshold) =>
    checkPublicShares(
      groupPoint(groupPublicKey, 'The group public key'),
      shares.map(({ index, publicKey }) => ({ index, publicKey: decodePoint(publicKey) })),
      threshold,
    ),
};

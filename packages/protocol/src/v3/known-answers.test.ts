import { describe, expect, it } from 'vitest';
import { Base8, addPoint, mulPointEscalar, type Point as ZkPoint } from '@zk-kit/baby-jubjub';
import { challengeHash } from '@taceo/oprf-core';
import { bn254 } from '@taceo/poseidon2';
import { bytesToHex } from '@noble/hashes/utils.js';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { normaliseInput } from '../normalise-input.ts';
import { G, encodePoint, pointFromAffine, type Point } from './baby-jubjub-group.ts';
import { blindQuery } from './blind-query.ts';
import { deriveRegistration, provingIdentityV3 } from './derive-registration.ts';
import { verifyDleq } from './dleq-proof.ts';
import { evaluateBlinded } from './evaluate-blinded.ts';
import { FINALIZE_DS, SUITE_ID } from './oprf-suite.ts';
import { queryPoint } from './query-point.ts';
import { unblindEvaluation } from './unblind-evaluation.ts';
import known from '../vectors/protocol-v3.json' with { type: 'json' };

interface Affine {
  x: string;
  y: string;
  bytes: string;
}
const key = BigInt(known.key);
const groupKey = G.multiply(key);
const point = (p: Point) => {
  const { x, y } = p.toAffine();
  return { x: x.toString(), y: y.toString(), bytes: bytesToHex(encodePoint(p)) };
};
const zk = (p: Affine): ZkPoint<bigint> => [BigInt(p.x), BigInt(p.y)];
const zkNeg = ([x, y]: ZkPoint<bigint>): ZkPoint<bigint> => [(SNARK_SCALAR_FIELD - x) % SNARK_SCALAR_FIELD, y];
const same = (a: ZkPoint<bigint>, b: Affine) => expect([a[0].toString(), a[1].toString()]).toEqual([b.x, b.y]);

describe('protocol v3 known answers (src/vectors/protocol-v3.json)', () => {
  it('names the suite and the group key of its key', () => {
    expect(known.suite).toBe(SUITE_ID);
    expect(point(groupKey)).toEqual(known.groupKey);
  });

  it('hashes a text to one t in both domains, and to one query per domain (decision 062)', () => {
    const text = normaliseInput(known.vectors[0]!.bio);
    const [bio, id] = [blindQuery('bio', text, 1n), blindQuery('id', text, 1n)];
    expect(id.hashedText).toBe(bio.hashedText);
    expect(bio.hashedText.toString()).toBe(known.vectors[0]!.bioRound.text);
    expect(id.query).not.toBe(bio.query);
  });

  for (const [n, vector] of known.vectors.entries()) {
    it(`vector ${n}: this code gives every value`, () => {
      for (const [domain, text, expected] of [
        ['bio', vector.bio, vector.bioRound],
        ['id', vector.id, vector.idRound],
      ] as const) {
        const round = blindQuery(domain, normaliseInput(text), BigInt(expected.blind));
        expect(round.hashedText.toString()).toBe(expected.text);
        expect(round.query.toString()).toBe(expected.query);
        expect(point(queryPoint(round.query))).toEqual(expected.point);
        expect(point(round.blinded)).toEqual(expected.blinded);
        const { evaluated, proof } = evaluateBlinded(key, round.blinded, BigInt(expected.nonce));
        expect(point(evaluated)).toEqual(expected.evaluated);
        expect({ e: proof.e.toString(), s: proof.s.toString() }).toEqual(expected.proof);
        const { unblinded, output } = unblindEvaluation(round, groupKey, evaluated);
        expect(point(unblinded)).toEqual(expected.unblinded);
        expect(output.toString()).toBe(expected.output);
      }
      const registration = deriveRegistration(BigInt(vector.bioRound.output), BigInt(vector.idRound.output));
      expect(registration.secretScalar.toString()).toBe(vector.secretScalar);
      expect(registration.commitment).toBe(vector.commitment);
      expect(registration.idTag).toBe(vector.idTag);
      expect(registration.didKey.did).toBe(vector.did);
      // Verification derives the biometric half alone: the same secret and leaf.
      const proving = provingIdentityV3(BigInt(vector.bioRound.output));
      expect({ secret: proving.secretScalar.toString(), commitment: proving.commitment }).toEqual({
        secret: vector.secretScalar,
        commitment: vector.commitment,
      });
    });

    it(`vector ${n}: independent implementations agree (zk-kit's Baby Jubjub, TACEO's hashes)`, () => {
      for (const round of [vector.bioRound, vector.idRound]) {
        const blind = BigInt(round.blind);
        // B = H₁(x) + r·G, Z = k·B, N = Z − r·K, all in @zk-kit/baby-jubjub's arithmetic.
        const blinded = addPoint(zk(round.point), mulPointEscalar(Base8, blind));
        same(blinded, round.blinded);
        same(mulPointEscalar(blinded, key), round.evaluated);
        same(addPoint(zk(round.evaluated), zkNeg(mulPointEscalar(mulPointEscalar(Base8, key), blind))), round.unblinded);
        // N = k·H₁(x): the unblinding undid the blind.
        same(mulPointEscalar(zk(round.point), key), round.unblinded);
        // Finalize and the proof's challenge, recomputed from the library's permutations.
        expect(bn254.t3.permutation([FINALIZE_DS, BigInt(round.query), BigInt(round.unblinded.y)])[1]!.toString()).toBe(round.output);
        const nonce = BigInt(round.nonce);
        const [r1, r2] = [mulPointEscalar(Base8, nonce), mulPointEscalar(blinded, nonce)];
        const affine = ([x, y]: ZkPoint<bigint>) => ({ x, y });
        const e = challengeHash(
          affine(mulPointEscalar(Base8, key)),
          affine(blinded),
          affine(zk(round.evaluated)),
          affine(Base8),
          affine(r1),
          affine(r2),
        );
        expect(e.toString()).toBe(round.proof.e);
      }
      // Semaphore's public key of the secret, in zk-kit's arithmetic (the commitment is checked by the circuit).
      const publicKey = pointFromAffine({
        x: mulPointEscalar(Base8, BigInt(vector.secretScalar))[0],
        y: mulPointEscalar(Base8, BigInt(vector.secretScalar))[1],
      });
      expect(publicKey?.equals(G.multiply(BigInt(vector.secretScalar)))).toBe(true);
    });

    it(`vector ${n}: its proofs verify, and not for another key or point`, () => {
      const round = vector.bioRound;
      const [blinded, evaluated] = [round.blinded, round.evaluated].map((p) => pointFromAffine({ x: BigInt(p.x), y: BigInt(p.y) })!);
      const proof = { e: BigInt(round.proof.e), s: BigInt(round.proof.s) };
      expect(verifyDleq(groupKey, blinded!, evaluated!, proof)).toBe(true);
      expect(verifyDleq(G.multiply(key + 1n), blinded!, evaluated!, proof)).toBe(false);
      expect(verifyDleq(groupKey, blinded!, evaluated!.add(G), proof)).toBe(false);
      expect(verifyDleq(groupKey, blinded!, evaluated!, { ...proof, s: proof.s + 1n })).toBe(false);
    });
  }
});

import { Field } from '@noble/curves/abstract/modular.js';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { BabyJubjub } from '../../packages/protocol/src/baby-jubjub-commitment.ts';
import { SNARK_SCALAR_FIELD } from '../../packages/protocol/src/field.ts';

/**
 * A satisfying input for bench/binding/registration-cost-model.circom, computed the long way in
 * JavaScript: a 2HashDH OPRF on Baby Jubjub with a random server key, blinded and unblinded as a
 * browser would. `expected` is what the circuit must output, so a timing run also checks that the
 * cost model computes what it claims to.
 */
const p = SNARK_SCALAR_FIELD;
const Fp = Field(p);
type Point = InstanceType<typeof BabyJubjub>;
const n = BabyJubjub.Fn.ORDER;
const A = 168698n;
const Z = 5n;

/** The circuit's HashToBabyJubjub: Elligator 2 on the Montgomery form, the even root, to Edwards, ×8. */
function hashToBabyJubjub(domain: bigint, h: bigint): Point {
  const u = poseidon2([domain, h]);
  const x1 = Fp.div(Fp.neg(A), Fp.add(1n, Fp.mul(Z, Fp.sqr(u))));
  const g = (x: bigint) => Fp.add(Fp.add(Fp.mul(Fp.sqr(x), x), Fp.mul(A, Fp.sqr(x))), x);
  const x2 = Fp.sub(Fp.neg(x1), A);
  const square = Fp.pow(g(x1), (p - 1n) / 2n) === 1n;
  const x = square ? x1 : x2;
  let y = Fp.sqrt(g(x));
  if (y & 1n) y = Fp.neg(y);
  const edwardsX = Fp.div(x, y);
  const edwardsY = Fp.div(Fp.sub(x, 1n), Fp.add(x, 1n));
  return BabyJubjub.fromAffine({ x: edwardsX, y: edwardsY }).double().double().double();
}

const randomScalar = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(40));
  return (BigInt(`0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`) % (n - 1n)) + 1n;
};
const randomField = () => randomScalar();
const inverse = (a: bigint) => Field(n).inv(a);

/** One OPRF round on Baby Jubjub: what the client sends and keeps, what the server answers. */
function oprfRound(domain: bigint, h: bigint, serverKey: bigint) {
  const point = hashToBabyJubjub(domain, h);
  const blind = randomScalar();
  const blinded = point.multiply(blind);
  const evaluated = blinded.multiply(serverKey);
  const unblinded = point.multiply(serverKey);
  const output = poseidon4([3n, h, unblinded.x, unblinded.y]);
  return {
    inverseBlind: inverse(blind),
    blinded: [blinded.x, blinded.y],
    evaluated: [evaluated.x, evaluated.y],
    output,
  };
}

export function costModelInput() {
  const serverKey = randomScalar();
  const bioHash = randomField();
  const idHash = randomField();
  const bio = oprfRound(1n, bioHash, serverKey);
  const id = oprfRound(2n, idHash, serverKey);
  const secret = poseidon2([4n, bio.output]) & ((1n << 250n) - 1n);
  const publicKey = BabyJubjub.BASE.multiply(secret);
  const commitment = poseidon2([publicKey.x, publicKey.y]);
  const idTag = poseidon2([5n, id.output]);
  const challenge = randomField();
  const text = (values: bigint[]) => values.map(String);
  return {
    input: {
      bioHash: String(bioHash),
      bioInverseBlind: String(bio.inverseBlind),
      bioBlinded: text(bio.blinded),
      bioEvaluated: text(bio.evaluated),
      idHash: String(idHash),
      idInverseBlind: String(id.inverseBlind),
      idBlinded: text(id.blinded),
      idEvaluated: text(id.evaluated),
      challenge: String(challenge),
    },
    /** snarkjs's public signals: outputs first, then the public inputs in declaration order. */
    expected: text([commitment, idTag, ...bio.blinded, ...bio.evaluated, ...id.blinded, ...id.evaluated, challenge]),
  };
}

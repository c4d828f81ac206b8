import { beforeAll, describe, expect, it } from 'vitest';
import { BASE_FIELD_MODULUS, loadBn254, mcl, SCALAR_FIELD_MODULUS, type G2 } from './bn254.ts';
import { isInG2 } from './g2-membership.ts';

/** [k]Q by plain double-and-add: right for any point of the twist (mcl's own multiplication assumes G2). */
function multiply(point: G2, k: bigint): G2 {
  let acc = new mcl.G2();
  for (const bit of k.toString(2)) {
    acc = mcl.dbl(acc);
    if (bit === '1') acc = mcl.add(acc, point);
  }
  return acc;
}

/** Points of the twist y² = x³ + 3/(9+u), found by trying x = i + u: almost all outside G2. */
function twistPoints(count: number): G2[] {
  const b = mcl.div(fp2('3 0'), fp2('9 1'));
  const points: G2[] = [];
  for (let i = 1; points.length < count; i++) {
    const x = fp2(`${i} 1`);
    const [found, y] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), b)) as [boolean, InstanceType<typeof mcl.Fp2> | null];
    if (!found || !y) continue;
    const point = new mcl.G2();
    point.setX(x);
    point.setY(y);
    point.setZ(fp2('1 0'));
    points.push(point);
  }
  return points;
}

function fp2(value: string) {
  const element = new mcl.Fp2();
  element.setStr(value, 10);
  return element;
}

beforeAll(loadBn254);

describe('isInG2 (the fast membership test for BN254)', () => {
  it('agrees with [r]Q = O on points inside G2, outside it, and of every order the cofactor allows', () => {
    // The twist has r·c points, c = 2p − r, whose small prime factors are what make a membership
    // test easy to get wrong: a component of order 10069 must be caught as surely as a random point.
    const cofactor = 2n * BASE_FIELD_MODULUS - SCALAR_FIELD_MODULUS;
    const factors = [10069n, 5864401n, 1875725156269n];
    expect(factors.every((f) => cofactor % f === 0n)).toBe(true);
    const cases: G2[] = [];
    for (const [i, t] of twistPoints(6).entries()) {
      const inG2 = multiply(t, cofactor);
      const cofactorPart = multiply(t, SCALAR_FIELD_MODULUS);
      cases.push(t, inG2, cofactorPart, mcl.add(inG2, cofactorPart), mcl.hashAndMapToG2(`point ${i}`));
      for (const f of factors) cases.push(multiply(t, cofactor / f), mcl.add(inG2, multiply(cofactorPart, cofactor / f)));
    }
    const verdicts = cases.filter((q) => !q.isZero()).map((q) => [isInG2(q), q.isValidOrder()]);
    expect(verdicts.map(([fast]) => fast)).toEqual(verdicts.map(([, slow]) => slow));
    expect(verdicts.filter(([fast]) => fast).length).toBeGreaterThanOrEqual(12);
    expect(verdicts.filter(([fast]) => !fast).length).toBeGreaterThanOrEqual(30);
  });
});

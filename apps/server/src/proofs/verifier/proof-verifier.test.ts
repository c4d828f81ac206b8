import { verifyProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../artifacts.ts';
import { makeProofs, releaseSnarkjs } from '../../../test/real-proofs.ts';
import { BatchVerifier, type VerificationKey } from './batch-verify.ts';
import { BASE_FIELD_MODULUS, mcl, SCALAR_FIELD_MODULUS, type G2 } from './bn254.ts';
import { createProofVerifier, type ProofVerifier } from './proof-verifier.ts';
import { semaphoreClaim } from './semaphore-claim.ts';
import { verificationKeys } from './verification-keys.ts';

let proofs: SemaphoreProof[];
let batch: BatchVerifier;
let pool: ProofVerifier;

beforeAll(async () => {
  const artifacts = await Artifacts.load();
  const keys = await verificationKeys(artifacts);
  // Two depths, so a batch can mix keys.
  proofs = [...(await makeProofs(4, 2)), ...(await makeProofs(2, 3))];
  await releaseSnarkjs();
  batch = await BatchVerifier.create((key) => JSON.parse(keys[key]!) as VerificationKey);
  pool = createProofVerifier({ keys, threads: 2 });
}, 120_000);
afterAll(async () => {
  await pool?.close();
  await releaseSnarkjs();
});

const claims = (list: SemaphoreProof[]) => list.map(semaphoreClaim);

/** verifyProof's verdict on canonical input; anything non-canonical (which snarkjs may read leniently) we refuse. */
const expectedVerdict = async (proof: SemaphoreProof) => {
  const numbers = [proof.merkleTreeRoot, proof.nullifier, proof.message, proof.scope, ...proof.points];
  if (!numbers.every((n) => /^(0|[1-9][0-9]*)$/.test(String(n)) && BigInt(n) < 2n ** 256n)) return false;
  // A coordinate at or above q names the same point as its remainder to snarkjs; we refuse it.
  if (proof.points.some((n) => BigInt(n) >= BASE_FIELD_MODULUS)) return false;
  return verifyProof(proof).catch(() => false);
};
const bump = (decimal: string) => (BigInt(decimal) + 1n).toString();

/** A proof changed in one place; `which` picks the place. */
function mutate(proof: SemaphoreProof, which: number, other: SemaphoreProof): SemaphoreProof {
  const points = [...proof.points] as SemaphoreProof['points'];
  switch (which % 12) {
    case 11:
      points[which % 8] = (BigInt(points[which % 8]!) + BASE_FIELD_MODULUS).toString();
      return { ...proof, points };
    case 7:
      return { ...proof, merkleTreeRoot: ` ${proof.merkleTreeRoot}` };
    case 8:
      points[which % 8] = `-${points[which % 8]!}`;
      return { ...proof, points };
    case 9:
      return { ...proof, message: (BigInt(proof.message) + 2n ** 256n).toString() };
    case 10:
      points[which % 8] = `0x${BigInt(points[which % 8]!).toString(16)}`;
      return { ...proof, points };
    case 0:
      return { ...proof, merkleTreeRoot: bump(proof.merkleTreeRoot) };
    case 1:
      return { ...proof, nullifier: bump(proof.nullifier) };
    case 2:
      return { ...proof, message: bump(proof.message) };
    case 3:
      points[which % 8] = bump(points[which % 8]!);
      return { ...proof, points };
    case 4:
      return { ...proof, points: other.points };
    case 5:
      points[0] = other.points[0]!;
      points[1] = other.points[1]!;
      return { ...proof, points };
    default:
      return { ...proof, scope: other.scope };
  }
}

describe('batched Groth16 verification', () => {
  it('accepts real proofs of two depths, alone and together', () => {
    for (const proof of proofs) expect(batch.verify(claims([proof]))).toEqual([true]);
    expect(batch.verify(claims(proofs))).toEqual(proofs.map(() => true));
  });

  it("gives a lone proof, checked with its key's precomputed (−α, β) loop, verifyProof's verdict on each change", async () => {
    for (const [i, proof] of proofs.entries()) {
      for (let which = 0; which < 7; which++) {
        const changed = mutate(proof, which, proofs[(i + 1) % proofs.length]!);
        expect(batch.verify(claims([changed]))).toEqual([await expectedVerdict(changed)]);
      }
    }
    // The same claim alone and beside others: one verdict, whichever way its batch was checked.
    const bad = mutate(proofs[0]!, 3, proofs[1]!);
    expect(batch.verify(claims([bad]))).toEqual([false]);
    expect(batch.verify(claims([bad, ...proofs]))).toEqual([false, ...proofs.map(() => true)]);
  });

  it('rejects exactly the one bad proof in a batch and accepts the others', () => {
    for (let bad = 0; bad < proofs.length; bad++) {
      const list = proofs.map((p, i) => (i === bad ? mutate(p, bad, proofs[(i + 1) % proofs.length]!) : p));
      expect(batch.verify(claims(list))).toEqual(proofs.map((_, i) => i !== bad));
    }
  });

  it('refuses public signals at or above the field modulus, points off the curve and garbage', () => {
    const [proof] = proofs as [SemaphoreProof];
    const claim = semaphoreClaim(proof);
    const r = SCALAR_FIELD_MODULUS.toString();
    expect(batch.verify([{ ...claim, publicSignals: [r, ...claim.publicSignals.slice(1)] }])).toEqual([false]);
    expect(batch.verify([{ ...claim, proof: { ...claim.proof, pi_a: ['1', '3', '1'] } }])).toEqual([false]);
    expect(batch.verify([{ ...claim, proof: { ...claim.proof, pi_c: ['x', 'y', '1'] } }])).toEqual([false]);
    expect(batch.verify([{ ...claim, key: 'semaphore-99' }, { ...claim, key: 'registration-v3' }, claim])).toEqual([false, false, true]);
  });

  it('refuses B on the twist but outside G2, and coordinates at or above q', async () => {
    const [proof] = proofs as [SemaphoreProof];
    const claim = semaphoreClaim(proof);
    // A point on the twist y² = x³ + 3/(9+u): with overwhelming probability outside the r-torsion.
    const twistB = new mcl.Fp2();
    twistB.setStr('3 0');
    const nine = new mcl.Fp2();
    nine.setStr('9 1');
    const b = mcl.div(twistB, nine);
    let outside: G2 | undefined;
    for (let x0 = 1; !outside; x0++) {
      const x = new mcl.Fp2();
      x.setInt(x0, 1);
      const [isSquare, y] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), b));
      if (!isSquare) continue;
      const point = new mcl.G2();
      point.setX(x);
      point.setY(y);
      const one = new mcl.Fp2();
      one.setInt(1, 0);
      point.setZ(one);
      outside = point;
    }
    expect(outside.isValid()).toBe(true);
    expect(outside.isValidOrder()).toBe(false);
    const [, x0, x1, y0, y1] = outside.getStr(10).split(' ') as [string, string, string, string, string];
    const piB = [
      [x0, x1],
      [y0, y1],
    ];
    expect(batch.verify([{ ...claim, proof: { ...claim.proof, pi_b: piB } }, claim])).toEqual([false, true]);

    const aliased = [String(BigInt(claim.proof.pi_a[0]!) + BASE_FIELD_MODULUS), claim.proof.pi_a[1]!];
    expect(batch.verify([{ ...claim, proof: { ...claim.proof, pi_a: aliased } }, claim])).toEqual([false, true]);
    expect(batch.verify([{ ...claim, proof: { ...claim.proof, pi_a: [...claim.proof.pi_a.slice(0, 2), '2'] } }])).toEqual([false]);
  });

  it('gives the verdicts of verifyProof (snarkjs) on valid and mutated proofs, and refuses non-canonical numbers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(proofs.length - 1), fc.option(fc.nat(1000), { freq: 2 })), { minLength: 1, maxLength: 6 }),
        async (picks) => {
          const list = picks.map(([i, mutation]) =>
            mutation === null ? proofs[i]! : mutate(proofs[i]!, mutation, proofs[(i + 1) % proofs.length]!),
          );
          const expected = await Promise.all(list.map(expectedVerdict));
          expect(await Promise.all(list.map((p) => pool.verify(p)))).toEqual(expected);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 60) },
    );
  }, 300_000);

  it('runs on worker threads with concurrent calls batched, each with its own verdict', async () => {
    const list = Array.from({ length: 40 }, (_, i) =>
      i % 5 === 3 ? mutate(proofs[i % proofs.length]!, i, proofs[0]!) : proofs[i % proofs.length]!,
    );
    const expected = await Promise.all(list.map(expectedVerdict));
    expect(await Promise.all(list.map((p) => pool.verify(p)))).toEqual(expected);
    expect(expected.filter(Boolean).length).toBeGreaterThanOrEqual(30);
    expect(expected.filter((v) => !v).length).toBeGreaterThan(0);
  }, 60_000);
});

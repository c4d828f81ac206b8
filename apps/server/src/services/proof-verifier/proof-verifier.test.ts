import { verifyProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { buildBn128, type Bn128 } from 'ffjavascript';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../artifacts.ts';
import { makeProofs, releaseSnarkjs } from '../../../test/real-proofs.ts';
import { BatchVerifier, type VerificationKey } from './batch-verify.ts';
import { createProofVerifier, type ProofVerifier } from './proof-verifier.ts';
import { semaphoreClaim } from './semaphore-claim.ts';
import { verificationKeyPaths } from './verification-keys.ts';

let proofs: SemaphoreProof[];
let curve: Bn128;
let batch: BatchVerifier;
let pool: ProofVerifier;

beforeAll(async () => {
  const artifacts = await Artifacts.load();
  const keyPaths = verificationKeyPaths(artifacts);
  // Two depths, so a batch can mix keys.
  proofs = [...(await makeProofs(4, 2)), ...(await makeProofs(2, 3))];
  await releaseSnarkjs();
  curve = await buildBn128(true);
  batch = new BatchVerifier(curve, (depth) => JSON.parse(readFileSync(keyPaths[depth]!, 'utf8')) as VerificationKey);
  pool = createProofVerifier({ keyPaths, threads: 2 });
}, 120_000);
afterAll(async () => {
  await pool?.close();
  await curve?.terminate();
  await releaseSnarkjs();
});

const claims = (list: SemaphoreProof[]) => list.map(semaphoreClaim);

/** verifyProof's verdict on canonical input; anything non-canonical (which snarkjs may read leniently) we refuse. */
const expectedVerdict = async (proof: SemaphoreProof) => {
  const numbers = [proof.merkleTreeRoot, proof.nullifier, proof.message, proof.scope, ...proof.points];
  if (!numbers.every((n) => /^(0|[1-9][0-9]*)$/.test(String(n)) && BigInt(n) < 2n ** 256n)) return false;
  return verifyProof(proof).catch(() => false);
};
const bump = (decimal: string) => (BigInt(decimal) + 1n).toString();

/** A proof changed in one place; `which` picks the place. */
function mutate(proof: SemaphoreProof, which: number, other: SemaphoreProof): SemaphoreProof {
  const points = [...proof.points] as SemaphoreProof['points'];
  switch (which % 11) {
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

  it('rejects exactly the one bad proof in a batch and accepts the others', () => {
    for (let bad = 0; bad < proofs.length; bad++) {
      const list = proofs.map((p, i) => (i === bad ? mutate(p, bad, proofs[(i + 1) % proofs.length]!) : p));
      expect(batch.verify(claims(list))).toEqual(proofs.map((_, i) => i !== bad));
    }
  });

  it('refuses public signals at or above the field modulus, points off the curve and garbage', () => {
    const [proof] = proofs as [SemaphoreProof];
    const claim = semaphoreClaim(proof);
    const r = curve.r.toString();
    expect(batch.verify([{ ...claim, publicSignals: [r, ...claim.publicSignals.slice(1)] }])).toEqual([false]);
    expect(batch.verify([{ ...claim, proof: { ...claim.proof, pi_a: ['1', '3', '1'] } }])).toEqual([false]);
    expect(batch.verify([{ ...claim, proof: { ...claim.proof, pi_c: ['x', 'y', '1'] } }])).toEqual([false]);
    expect(batch.verify([{ ...claim, depth: 99 }, claim])).toEqual([false, true]);
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

import { verifyProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { entry, repeat, type BenchEntry } from '../stats.ts';

/** A verifier under test: verifies one proof; many calls may be in flight at once. */
export interface ProofVerifier {
  verify(proof: SemaphoreProof): Promise<boolean>;
  close(): Promise<void>;
}

/** Proofs a second of `verifyProof` (which is `snarkjs.groth16.verify`) awaited one after another. */
async function snarkjsLoop(proofs: SemaphoreProof[], seconds: number): Promise<number> {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < seconds * 1000) {
    if (!(await verifyProof(proofs[n % proofs.length]!))) throw new Error('the baseline rejected a valid proof');
    n++;
  }
  return n / ((performance.now() - started) / 1000);
}

/** Proofs a second of our verifier, with 64 verifications in flight (as under concurrent requests). */
async function ours(verifier: ProofVerifier, proofs: SemaphoreProof[], seconds: number): Promise<number> {
  const started = performance.now();
  let n = 0;
  const lane = async () => {
    while (performance.now() - started < seconds * 1000) {
      if (!(await verifier.verify(proofs[n % proofs.length]!))) throw new Error('our verifier rejected a valid proof');
      n++;
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  return n / ((performance.now() - started) / 1000);
}

/** server.verify_throughput: our verifier against the snarkjs loop, alternating, in the same process. */
export async function runVerifier(
  proofs: SemaphoreProof[],
  verifier: ProofVerifier,
  { runs, seconds }: { runs: number; seconds: number },
): Promise<{ entries: BenchEntry[]; baselineRps: number[]; oursRps: number[] }> {
  await snarkjsLoop(proofs, 0.5); // warm up both
  await ours(verifier, proofs, 0.5);
  const baseline: number[] = [];
  const measured = await repeat(runs, async () => {
    baseline.push(await snarkjsLoop(proofs, seconds));
    const rate = await ours(verifier, proofs, seconds);
    console.error(`  snarkjs ${baseline.at(-1)!.toFixed(1)}/s, ours ${rate.toFixed(1)}/s`);
    return rate;
  });
  return {
    entries: [
      entry('server.verify_throughput', 'proofs/s', 'higher', measured, baseline, '`snarkjs.groth16.verify` in a loop, one process'),
    ],
    baselineRps: baseline,
    oursRps: measured,
  };
}

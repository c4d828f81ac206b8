import { verifyProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { ownCpuMs } from '../process-cpu.ts';
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

/**
 * Proofs a second of our verifier, with 64 verifications in flight (as under concurrent requests), and
 * the CPU milliseconds this process spent per proof meanwhile (its worker threads included).
 */
async function ours(verifier: ProofVerifier, proofs: SemaphoreProof[], seconds: number): Promise<{ rate: number; cpuMsPerProof: number }> {
  const started = performance.now();
  const cpuBefore = ownCpuMs();
  let n = 0;
  const lane = async () => {
    while (performance.now() - started < seconds * 1000) {
      if (!(await verifier.verify(proofs[n % proofs.length]!))) throw new Error('our verifier rejected a valid proof');
      n++;
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  return { rate: n / ((performance.now() - started) / 1000), cpuMsPerProof: (ownCpuMs() - cpuBefore) / n };
}

/** server.verify_throughput: our verifier against the snarkjs loop, alternating, in the same process. */
export async function runVerifier(
  proofs: SemaphoreProof[],
  verifier: ProofVerifier,
  { runs, seconds }: { runs: number; seconds: number },
): Promise<{ entries: BenchEntry[]; baselineRps: number[]; oursRps: number[]; oursCpuMsPerProof: number[] }> {
  await snarkjsLoop(proofs, 0.5); // warm up both
  await ours(verifier, proofs, 0.5);
  const baseline: number[] = [];
  const cpuMsPerProof: number[] = [];
  const measured = await repeat(runs, async () => {
    baseline.push(await snarkjsLoop(proofs, seconds));
    const { rate, cpuMsPerProof: cpu } = await ours(verifier, proofs, seconds);
    cpuMsPerProof.push(cpu);
    console.error(`  snarkjs ${baseline.at(-1)!.toFixed(1)}/s, ours ${rate.toFixed(1)}/s, ${cpu.toFixed(2)} ms CPU a proof`);
    return rate;
  });
  return {
    entries: [
      entry('server.verify_throughput', 'proofs/s', 'higher', measured, baseline, '`snarkjs.groth16.verify` in a loop, one process'),
    ],
    baselineRps: baseline,
    oursRps: measured,
    oursCpuMsPerProof: cpuMsPerProof,
  };
}

import { availableParallelism } from 'node:os';
import type { SemaphoreProof } from '@semaphore-protocol/proof';
import type { Groth16Claim } from './batch-verify.ts';
import { threadEntry } from '../../threads/thread-entry.ts';
import { threadPool } from '../../threads/thread-pool.ts';
import { semaphoreClaim } from './semaphore-claim.ts';

export interface ProofVerifier {
  /**
   * The Groth16 verdict on a Semaphore proof: `verifyProof`'s, except that it also refuses B outside
   * G2 and any number not in canonical decimal (which snarkjs may read leniently).
   */
  verify(proof: SemaphoreProof): Promise<boolean>;
  /** The verdict on any Groth16 claim under one of our keys (a v3 registration proof: `registrationClaim`), in the same batches. */
  verifyClaim(claim: Groth16Claim): Promise<boolean>;
  close(): Promise<void>;
}

export interface ProofVerifierOptions {
  /** Verification key text per key name (`verificationKeys`: the pinned Semaphore keys and the v3 registration's, as checked at start). */
  keys: Record<string, string>;
  /** Worker threads; default one per core. */
  threads?: number;
  /** Most proofs in one batch. */
  maxBatch?: number;
  /** Fewest proofs a batch starts with while another batch is running (with none running, any number). */
  minBatch?: number;
  /** Start every worker now rather than at the first proof (a server does; a test app need not). */
  eager?: boolean;
}

/**
 * Verifies Semaphore proofs on worker threads, in batches: proofs that arrive while every worker is
 * busy wait and go together into the next batch, so under load the cost per proof falls toward one
 * Miller loop, and a lone proof is checked at once. No timer adds latency.
 */
export function createProofVerifier({
  keys,
  threads = availableParallelism(),
  maxBatch = 32,
  minBatch = 8,
  eager = false,
}: ProofVerifierOptions): ProofVerifier {
  const pool = threadPool(threadEntry('verifier-worker', import.meta.url), {
    workerData: { keys, name: 'zeroid-proof-verifier' },
    threads,
    eager,
  });
  const queue: Array<{ claim: Groth16Claim; resolve: (verdict: boolean) => void; reject: (error: unknown) => void }> = [];
  let inFlight = 0;
  let scheduled = false;

  const pump = () => {
    while (queue.length > 0 && inFlight < threads) {
      // A batch pays a fixed cost (three pairs of the key and a final exponentiation: about three
      // proofs' worth), so while another batch runs, a free worker waits for 8 proofs rather than
      // taking one or two; the running batch's end pumps again. Decision 030.
      if (inFlight > 0 && queue.length < minBatch) break;
      const size = Math.min(maxBatch, Math.ceil(queue.length / (threads - inFlight)));
      const batch = queue.splice(0, size);
      inFlight++;
      (pool.run(batch.map((entry) => entry.claim)) as Promise<boolean[]>)
        .then(
          (verdicts) => batch.forEach((entry, i) => entry.resolve(verdicts[i] === true)),
          (error: unknown) => batch.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          inFlight--;
          pump();
        });
    }
  };

  const verifyClaim = (claim: Groth16Claim) =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ claim, resolve, reject });
      // Let the other requests of this turn of the event loop join the batch.
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      }
    });

  return {
    verify(proof) {
      let claim: Groth16Claim;
      try {
        claim = semaphoreClaim(proof);
      } catch {
        return Promise.resolve(false);
      }
      return verifyClaim(claim);
    },
    verifyClaim,
    close: () => pool.destroy(),
  };
}

import { availableParallelism } from 'node:os';
import { commitmentFromRawBio, deriveFromRaw, type RawDerivation, type RawValues } from './raw-identity.ts';
import { singleKeyOutputs } from './single-key-outputs.ts';
import { noisyDeriver, type NoisyDerivation, type NoisyTask } from '../../noisy/noisy-derivation.ts';
import { NOISY_REQUESTS_PER_THREAD, noisyGate, type NoisyGate } from '../../noisy/noisy-gate.ts';
import { threadEntry } from '../../threads/thread-entry.ts';
import { threadPool } from '../../threads/thread-pool.ts';

/** The raw path's derivations, wherever they run. */
export interface RawDeriver {
  /** `client` is the end client's address: threshold mode forwards it, so each OPRF node keeps its own budget per person. */
  registration(raw: RawValues, client?: string): Promise<RawDerivation>;
  /** The biometric's commitment under each version: v3's, and v2's for an identity registered before it. */
  commitment(bioInfo: string, client?: string): Promise<{ v3: string; v2: string }>;
  /**
   * A noisy biometric's lockers, with the server's key (decision 084); absent in threshold mode,
   * where the configuration refuses EXPERIMENTAL_NOISY_BIOMETRICS.
   */
  noisy?(task: NoisyTask, client?: string): Promise<NoisyDerivation>;
  /** The bound on the noisy requests held at once, sized to the threads (decision 084); with `noisy`. */
  noisyGate?: NoisyGate;
  /** Resolves once every thread can derive at full speed. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** On the calling thread: for tests and for `DERIVATION_THREADS=0`. */
export function inProcessDeriver(privateKey: Uint8Array): RawDeriver {
  const { v2, v3 } = singleKeyOutputs(privateKey);
  const noisy = noisyDeriver(privateKey);
  return {
    registration: (raw) => deriveFromRaw(v2, v3, raw),
    commitment: (bioInfo) => commitmentFromRawBio(v2, v3, bioInfo),
    noisy: (task) => noisy(task),
    noisyGate: noisyGate(NOISY_REQUESTS_PER_THREAD),
    ready: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * On a pool of worker threads (piscina). A raw registration costs four OPRF evaluations (ID and
 * biometric under v2 and v3), Baby Jubjub and Ed25519 multiplications and Poseidon hashes
 * (docs/benchmarks.md, "Raw derivation"); on the event loop that would cap the server on one core
 * and make every other request wait behind them. The workers hold the OPRF key in memory, as the
 * main thread does.
 */
export function workerDeriver(privateKey: Uint8Array, threads = availableParallelism()): RawDeriver {
  const pool = threadPool(threadEntry('raw-deriver-worker', import.meta.url), {
    workerData: { privateKey: Array.from(privateKey) },
    threads,
    eager: true,
  });
  return {
    registration: (raw) => pool.run({ kind: 'registration', ...raw }),
    commitment: (bioInfo) => pool.run({ kind: 'commitment', bioInfo }),
    // Some 20,000 locker evaluations: seconds of a thread, never of the event loop.
    noisy: (task) => pool.run({ kind: 'noisy', ...task }),
    noisyGate: noisyGate(threads * NOISY_REQUESTS_PER_THREAD),
    // Each worker warms up before its first task (raw-deriver-worker.ts), and piscina hands one task
    // to each idle worker: one task per thread finishes when the slowest has warmed up.
    ready: async () => {
      await Promise.all(Array.from({ length: threads }, () => pool.run({ kind: 'commitment', bioInfo: 'ready' })));
    },
    close: () => pool.destroy(),
  };
}

import { availableParallelism } from 'node:os';
import type { OprfEvaluator } from '@zeroid/protocol';
import { commitmentFromRawBio, deriveFromRaw } from './raw-identity.ts';
import { threadEntry } from '../../threads/thread-entry.ts';
import { threadPool } from '../../threads/thread-pool.ts';

/** The raw path's derivations, wherever they run. */
export interface RawDeriver {
  /** `client` is the end client's address: threshold mode forwards it, so each OPRF node keeps its own budget per person. */
  registration(
    raw: { idInfo: string; bioInfo: string; withSecretScalar?: boolean },
    client?: string,
  ): Promise<{ commitment: string; did: string; idTag: string; secretScalar?: string }>;
  commitment(bioInfo: string, client?: string): Promise<string>;
  /** Resolves once every thread can derive at full speed. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** On the calling thread: for tests and for `DERIVATION_THREADS=0`. */
export function inProcessDeriver(oprf: OprfEvaluator): RawDeriver {
  return {
    registration: (raw) => deriveFromRaw(oprf, raw),
    commitment: (bioInfo) => commitmentFromRawBio(oprf, bioInfo),
    ready: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * On a pool of worker threads (piscina). A raw registration costs two OPRF evaluations, a Baby
 * Jubjub and an Ed25519 multiplication and a Poseidon hash (docs/benchmarks.md, "Raw derivation"); on the event
 * loop that would cap the server on one core
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
    // Each worker warms up before its first task (raw-deriver-worker.ts), and piscina hands one task
    // to each idle worker: one task per thread finishes when the slowest has warmed up.
    ready: async () => {
      await Promise.all(Array.from({ length: threads }, () => pool.run({ kind: 'commitment', bioInfo: 'ready' })));
    },
    close: () => pool.destroy(),
  };
}

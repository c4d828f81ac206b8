import { workerData } from 'node:worker_threads';
import { OprfEvaluator } from '@zeroid/protocol';
import { sodiumRistrettoMultiply } from '../../oprf/libsodium.ts';
import { commitmentFromRawBio, deriveFromRaw } from './raw-identity.ts';

/**
 * Derivations a worker runs on made-up inputs before it takes its first task. Cold, a raw
 * registration's derivation is several times slower (WebAssembly compiled, BigInt code interpreted)
 * until a few hundred have run; without this, the first second of load after /healthz said ready ran
 * far slower (docs/benchmarks.md, "Raw derivation").
 */
const WARM_UP_DERIVATIONS = 200;

/** One worker of `workerDeriver`: the same derivations as the main thread, with its own evaluator. */
const oprf = new OprfEvaluator(Uint8Array.from((workerData as { privateKey: number[] }).privateKey), sodiumRistrettoMultiply);

type Task = { kind: 'registration'; idInfo: string; bioInfo: string } | { kind: 'commitment'; bioInfo: string };

function derive(task: Task) {
  return task.kind === 'registration' ? deriveFromRaw(oprf, task) : commitmentFromRawBio(oprf, task.bioInfo);
}

// piscina awaits a promised handler before the worker runs a task, so tasks wait for the warm-up.
export default (async () => {
  for (let i = 0; i < WARM_UP_DERIVATIONS; i++) await deriveFromRaw(oprf, { idInfo: `warm-up ${i}`, bioInfo: `warm-up ${i}` });
  return derive;
})();

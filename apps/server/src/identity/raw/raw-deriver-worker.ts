import { workerData } from 'node:worker_threads';
import { commitmentFromRawBio, deriveFromRaw, type RawValues } from './raw-identity.ts';
import { singleKeyOutputs } from './single-key-outputs.ts';
import { noisyDeriver, type NoisyTask } from '../../noisy/noisy-derivation.ts';

/**
 * Derivations a worker runs on made-up inputs before it takes its first task. Cold, a raw
 * registration's derivation is several times slower (WebAssembly compiled, BigInt code interpreted)
 * until it has run a while; without this, the first second of load after /healthz said ready ran far
 * slower (docs/benchmarks.md, "Raw derivation"). Protocol v3's half, on WebAssembly (decision 063),
 * builds its module on the first one and reaches its speed within a few: 30 are enough.
 */
const WARM_UP_DERIVATIONS = 30;

/**
 * One worker of `workerDeriver`: the same derivations as the main thread, with its own outputs. It
 * receives the v2 key and derives the v3 key from it (decision 056).
 */
const privateKey = Uint8Array.from((workerData as { privateKey: number[] }).privateKey);
const { v2, v3 } = singleKeyOutputs(privateKey);
// A noisy biometric's lockers (decision 084); its key is derived once, when this thread starts.
const noisy = noisyDeriver(privateKey);

type Task = ({ kind: 'registration' } & RawValues) | { kind: 'commitment'; bioInfo: string } | ({ kind: 'noisy' } & NoisyTask);

function derive(task: Task) {
  if (task.kind === 'noisy') return noisy(task);
  return task.kind === 'registration' ? deriveFromRaw(v2, v3, task) : commitmentFromRawBio(v2, v3, task.bioInfo);
}

// piscina awaits a promised handler before the worker runs a task, so tasks wait for the warm-up.
export default (async () => {
  for (let i = 0; i < WARM_UP_DERIVATIONS; i++) await deriveFromRaw(v2, v3, { idInfo: `warm-up ${i}`, bioInfo: `warm-up ${i}` });
  return derive;
})();

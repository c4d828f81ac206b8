import { workerData } from 'node:worker_threads';
import { OprfEvaluator } from '@zeroid/protocol';
import { sodiumRistrettoMultiply } from './libsodium.ts';
import { commitmentFromRawBio, deriveFromRaw } from './raw-identity.ts';

/** One worker of `workerDeriver`: the same derivations as the main thread, with its own evaluator. */
const oprf = new OprfEvaluator(Uint8Array.from((workerData as { privateKey: number[] }).privateKey), sodiumRistrettoMultiply);

type Task = { kind: 'registration'; idInfo: string; bioInfo: string } | { kind: 'commitment'; bioInfo: string };

export default function derive(task: Task) {
  return task.kind === 'registration' ? deriveFromRaw(oprf, task) : commitmentFromRawBio(oprf, task.bioInfo);
}

import { workerData } from 'node:worker_threads';
import { BatchVerifier, type Groth16Claim, type VerificationKey } from './batch-verify.ts';

/** One worker of the proof verifier: its own BN254 (mcl's WebAssembly) and its own decoded keys, from the checked text it was started with. */
const { keys } = workerData as { keys: Record<string, string> };
const verifier = BatchVerifier.create((key) => {
  const text = Object.hasOwn(keys, key) ? keys[key] : undefined;
  if (!text) throw new RangeError(`No verification key ${key}`);
  return JSON.parse(text) as VerificationKey;
});

export default async function verifyBatch(claims: Groth16Claim[]): Promise<boolean[]> {
  return (await verifier).verify(claims);
}

import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { BatchVerifier, type Groth16Claim, type VerificationKey } from './batch-verify.ts';

/** One worker of the proof verifier: its own BN254 (mcl's WebAssembly) and its own decoded keys. */
const { keyPaths } = workerData as { keyPaths: Record<string, string> };
const verifier = BatchVerifier.create((key) => {
  const file = Object.hasOwn(keyPaths, key) ? keyPaths[key] : undefined;
  if (!file) throw new RangeError(`No verification key ${key}`);
  return JSON.parse(readFileSync(file, 'utf8')) as VerificationKey;
});

export default async function verifyBatch(claims: Groth16Claim[]): Promise<boolean[]> {
  return (await verifier).verify(claims);
}

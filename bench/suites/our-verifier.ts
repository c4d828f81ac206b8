import { Artifacts } from '../../apps/server/src/proofs/artifacts.ts';
import { createProofVerifier } from '../../apps/server/src/proofs/verifier/proof-verifier.ts';
import { verificationKeyPaths } from '../../apps/server/src/proofs/verifier/verification-keys.ts';
import type { ProofVerifier } from './verifier.ts';

/** The verifier the server uses for `POST /verify`: batched, one worker thread per core. */
export async function createBenchVerifier(): Promise<ProofVerifier> {
  return createProofVerifier({ keyPaths: verificationKeyPaths(await Artifacts.load()), eager: true });
}

import { benchServices } from '../server.ts';
import type { ProofVerifier } from './verifier.ts';

/**
 * The verifier the server uses for `POST /verify`, as `createServices` builds it: batched, one worker
 * thread per core, started at once. Closing it closes the services around it.
 */
export async function createBenchVerifier(): Promise<ProofVerifier> {
  // No derivation threads: the raw path is not measured here, and its threads would share the cores.
  const services = await benchServices({ DERIVATION_THREADS: '0' });
  return { verify: (proof) => services.proofVerifier.verify(proof), close: () => services.close() };
}

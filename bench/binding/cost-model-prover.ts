import { groth16 } from 'snarkjs';

/**
 * Bundled by bench/binding-costs.ts and loaded into Chromium: snarkjs's Groth16 prover on the
 * registration cost model, artifacts in memory as the web app keeps Semaphore's.
 */
let artifacts: { wasm: Uint8Array; zkey: Uint8Array } | undefined;

export async function setup(): Promise<void> {
  const load = async (name: string) => new Uint8Array(await (await fetch(`/cost-model/${name}`)).arrayBuffer());
  const [wasm, zkey] = await Promise.all([load('registration-cost-model.wasm'), load('registration-cost-model.zkey')]);
  artifacts = { wasm, zkey };
}

/** Proves once; returns the time taken and the public signals, to check against the expected ones. */
export async function prove(input: Record<string, unknown>): Promise<{ ms: number; publicSignals: string[] }> {
  if (!artifacts) throw new Error('setup() first');
  const started = performance.now();
  // The types say string (a path or URL); snarkjs reads bytes too.
  const { publicSignals } = await groth16.fullProve(input as never, artifacts.wasm, artifacts.zkey);
  return { ms: performance.now() - started, publicSignals };
}

import { groth16 } from 'snarkjs';

/**
 * Bundled by bench/registration-v3-proof.ts and loaded into Chromium: snarkjs's Groth16 prover on the
 * v3 registration circuit, its artifacts fetched once and kept in memory, as the web app keeps them.
 */
let artifacts: { wasm: Uint8Array; zkey: Uint8Array } | undefined;

export async function setup(): Promise<void> {
  const load = async (name: string) => new Uint8Array(await (await fetch(`/v3/${name}`)).arrayBuffer());
  const [wasm, zkey] = await Promise.all([load('registration-v3.wasm'), load('registration-v3.zkey')]);
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

import { groth16 } from 'snarkjs';

/**
 * snarkjs's Groth16 prover for a page of the bench, on one circuit whose artifacts are fetched once by
 * `setup()` and kept in memory, as the web app keeps Semaphore's.
 */
export function inPageGroth16(wasmUrl: string, zkeyUrl: string) {
  let artifacts: { wasm: Uint8Array; zkey: Uint8Array } | undefined;
  const load = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
  return {
    setup: async (): Promise<void> => {
      const [wasm, zkey] = await Promise.all([load(wasmUrl), load(zkeyUrl)]);
      artifacts = { wasm, zkey };
    },
    /** Proves once; returns the time taken and the public signals, to check against the expected ones. */
    prove: async (input: Record<string, unknown>): Promise<{ ms: number; publicSignals: string[] }> => {
      if (!artifacts) throw new Error('setup() first');
      const started = performance.now();
      // The types say string (a path or URL); snarkjs reads bytes too.
      const { publicSignals } = await groth16.fullProve(input as never, artifacts.wasm, artifacts.zkey);
      return { ms: performance.now() - started, publicSignals };
    },
  };
}

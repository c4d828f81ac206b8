import { Group } from '@semaphore-protocol/group';
import { Identity } from '@semaphore-protocol/identity';
import { generateProof } from '@semaphore-protocol/proof';
import { BASELINE_HEADER } from './baseline-header.ts';

/**
 * The baseline of browser.verify_journey, bundled by the benchmark and loaded into the same page:
 * bare `generateProof` at the same depth, with the artifacts already in memory, nothing else.
 */
let state: { identity: Identity; group: Group; depth: number; wasm: Uint8Array; zkey: Uint8Array } | undefined;

export async function setup(depth: number, members: number): Promise<void> {
  // The header keeps these downloads out of the journey's artifact byte count (a query the server
  // does not know would be a 400).
  const load = async (name: string) =>
    new Uint8Array(await (await fetch(`/artifacts/${name}`, { headers: { [BASELINE_HEADER]: '1' } })).arrayBuffer());
  const [wasm, zkey] = await Promise.all([load(`semaphore-${depth}.wasm`), load(`semaphore-${depth}.zkey`)]);
  const identity = new Identity('bare prover baseline');
  const others = Array.from({ length: members - 1 }, (_, i) => BigInt(i + 1) * 7919n);
  state = { identity, group: new Group([...others, identity.commitment]), depth, wasm, zkey };
}

export async function prove(run: number): Promise<number> {
  if (!state) throw new Error('setup() first');
  const { identity, group, depth, wasm, zkey } = state;
  const started = performance.now();
  // The type says string (a path or URL); snarkjs takes bytes too, as the web app passes them.
  await generateProof(identity, group, `bare ${run}`, `bare scope ${run}`, depth, { wasm, zkey } as unknown as {
    wasm: string;
    zkey: string;
  });
  return performance.now() - started;
}

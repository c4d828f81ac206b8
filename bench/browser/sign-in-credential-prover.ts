import { proveSignInCredential, type SignInCredentialInput } from '@zeroid/protocol';

/**
 * Bundled by bench/suites/registration-proof.ts for `npm run bench -- sign-in-credential` and loaded
 * into Chromium: the protocol's own `proveSignInCredential` (decision 087), as the web app's prover
 * worker calls it, on the sign-in credential circuit's artifacts fetched once and kept in memory.
 * Its public signals here are the proof's root and nullifier, the two the circuit outputs.
 */
let artifacts: { wasm: Uint8Array; zkey: Uint8Array } | undefined;
const load = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

export async function setup(): Promise<void> {
  const [wasm, zkey] = await Promise.all([load('/v3/sign-in-credential.wasm'), load('/v3/sign-in-credential.zkey')]);
  artifacts = { wasm, zkey };
}

export async function prove(input: SignInCredentialInput): Promise<{ ms: number; publicSignals: string[] }> {
  if (!artifacts) throw new Error('setup() first');
  const started = performance.now();
  const proof = await proveSignInCredential(input, artifacts);
  return { ms: performance.now() - started, publicSignals: [proof.merkleTreeRoot, proof.nullifier] };
}

export { knownAnswer } from './registration-prover-v3.ts';

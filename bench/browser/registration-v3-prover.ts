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

/**
 * The client's v3 work for one known answer, in the page: both rounds blinded with the vector's blinds,
 * unblinded against the vector's evaluations, then the derivations. Shows that protocol v3 (with
 * `@taceo/oprf-core` and `@taceo/poseidon2`) runs from the browser bundle and agrees with Node.
 */
export async function knownAnswer(
  vector: KnownAnswer,
  groupKey: { x: string; y: string },
): Promise<{ ms: number; commitment: string; idTag: string; did: string }> {
  const { blindQuery, deriveRegistration, pointFromAffine, unblindEvaluation } = await import('@zeroid/protocol/v3');
  const { normaliseInput } = await import('@zeroid/protocol');
  const point = (p: { x: string; y: string }) => pointFromAffine({ x: BigInt(p.x), y: BigInt(p.y) })!;
  const started = performance.now();
  const key = point(groupKey);
  const bio = blindQuery('bio', normaliseInput(vector.bio), BigInt(vector.bioRound.blind));
  const id = blindQuery('id', normaliseInput(vector.id), BigInt(vector.idRound.blind));
  const registration = deriveRegistration(
    unblindEvaluation(bio, key, point(vector.bioRound.evaluated)).output,
    unblindEvaluation(id, key, point(vector.idRound.evaluated)).output,
  );
  return { ms: performance.now() - started, commitment: registration.commitment, idTag: registration.idTag, did: registration.didKey.did };
}

interface KnownAnswer {
  id: string;
  bio: string;
  bioRound: { blind: string; evaluated: { x: string; y: string } };
  idRound: { blind: string; evaluated: { x: string; y: string } };
}

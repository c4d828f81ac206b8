import { inPageGroth16 } from './in-page-groth16.ts';

/**
 * Bundled by bench/suites/registration-proof.ts and loaded into Chromium: snarkjs's Groth16 prover on the
 * v3 registration circuit, its artifacts fetched once and kept in memory, as the web app keeps them.
 */
export const { setup, prove } = inPageGroth16('/v3/registration-v3.wasm', '/v3/registration-v3.zkey');

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

import { Group } from '@semaphore-protocol/group';
import { Identity } from '@semaphore-protocol/identity';
import { generateProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { terminateCurve } from './support/terminate-curve.ts';

/**
 * `count` real Semaphore v4 proofs over one group of `groupSize` identities, each with its own scope,
 * from the pinned local artifacts (never downloaded).
 */
export async function makeProofs(count: number, groupSize = 2): Promise<SemaphoreProof[]> {
  const artifacts = await Artifacts.load();
  const identities = Array.from({ length: groupSize }, (_, i) => new Identity(`bench identity ${i}`));
  const group = new Group(identities.map((identity) => identity.commitment));
  const depth = Math.max(1, group.depth);
  const snarkArtifacts = { wasm: artifacts.get(`semaphore-${depth}.wasm`)!.path, zkey: artifacts.get(`semaphore-${depth}.zkey`)!.path };
  const proofs: SemaphoreProof[] = [];
  for (let i = 0; i < count; i++) {
    proofs.push(await generateProof(identities[i % groupSize]!, group, `message ${i}`, `scope ${i}`, depth, snarkArtifacts));
  }
  return proofs;
}

/** snarkjs keeps its curve's worker threads alive after proving; they would keep the process up. */
export async function releaseSnarkjs() {
  await terminateCurve();
}

import { createRequire } from 'node:module';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { Identity } from '@semaphore-protocol/identity';
import { generateProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { normaliseInput, type OprfDomain } from '@zeroid/protocol';
import { babyJubjubSuite, deriveRegistration, v3ErasureMessage, v3KeyFromV2, type RegistrationV3 } from '@zeroid/protocol/v3';

const semaphoreArtifacts = path.dirname(createRequire(import.meta.url).resolve('@zk-kit/semaphore-artifacts/package.json'));
/** Semaphore's depth-1 circuit, from the artifacts package on disk (never downloaded). */
const DEPTH_1 = { wasm: path.join(semaphoreArtifacts, 'semaphore-1.wasm'), zkey: path.join(semaphoreArtifacts, 'semaphore-1.zkey') };

/** A person's protocol v3 identity, with the two OPRF outputs it came from. */
export type V3Identity = RegistrationV3 & { outputBio: bigint; outputId: bigint };

/**
 * What the browser derives for a person under protocol v3 after its OPRF rounds with a single-key
 * server whose (v2) key is `privateKey`: that server evaluates v3 with `v3KeyFromV2` of it (decision
 * 056). A test that set the key computes the outputs directly, as the raw path does.
 */
export async function v3Identity(privateKey: Uint8Array, person: { id_info: string; bio_info: string }): Promise<V3Identity> {
  const key = v3KeyFromV2(privateKey);
  const output = async (domain: OprfDomain, text: string) =>
    BigInt(`0x${Buffer.from(await babyJubjubSuite.evaluate(key, domain, normaliseInput(text))).toString('hex')}`);
  const [outputBio, outputId] = await Promise.all([output('bio', person.bio_info), output('id', person.id_info)]);
  return { ...deriveRegistration(outputBio, outputId), outputBio, outputId };
}

/** What Semaphore's `generateProof` reads of an identity: its secret scalar and its commitment. */
type Holder = { secretScalar: bigint; commitment: bigint | string };

/**
 * A depth-1 Semaphore proof in the identity's own group (a LeanIMT of one leaf has that leaf as its
 * root), as an erasure's proofs are: of a v3 identity, or of a v2 one (a zk-kit `Identity`).
 */
export function ownGroupProof(identity: Holder, message: string, scope: string): Promise<SemaphoreProof> {
  const commitment = BigInt(identity.commitment);
  // A fresh Merkle proof each time: generateProof pads `siblings` in place.
  return generateProof(
    semaphoreHolder(identity),
    { root: commitment, leaf: commitment, index: 0, siblings: [] },
    message,
    scope,
    1,
    DEPTH_1,
  );
}

/**
 * An identity as `generateProof` takes one, from its secret scalar and commitment, all it uses (a v3
 * identity has no EdDSA key to make a zk-kit `Identity` of).
 */
export const semaphoreHolder = (identity: Holder) =>
  ({ secretScalar: identity.secretScalar, commitment: BigInt(identity.commitment) }) as unknown as Identity;

/** The erasure's sign-in proofs (decision 048): one per scope of GET /erase/sign-in-scopes, in the identity's own group. */
export async function signInProofs(identity: Holder, challenge: string, scopes: readonly string[]): Promise<SemaphoreProof[]> {
  const proofs: SemaphoreProof[] = [];
  for (const scope of scopes) proofs.push(await ownGroupProof(identity, challenge, scope));
  return proofs;
}

/**
 * A v3 identity's zero-knowledge erasure (`ZkEraseV3Body`), as the web app sends it: y_id, its own
 * proof with message and scope the challenge, the DID key's signature over `v3ErasureMessage`, and a
 * sign-in proof per scope. `idOutput`, `ownProof`, `signer` and `signInProofs` replace the honest
 * ones, for the refusals (or to reuse proofs already made for this challenge).
 */
export async function v3ErasureBody(
  identity: V3Identity,
  challenge: string,
  scopes: readonly string[],
  forged: { idOutput?: string; ownProof?: SemaphoreProof; signer?: Uint8Array; signInProofs?: SemaphoreProof[] } = {},
) {
  const fields = {
    commitment: identity.commitment,
    did: identity.didKey.did,
    idOutput: forged.idOutput ?? String(identity.outputId),
    challenge,
  };
  return {
    ...fields,
    ownProof: forged.ownProof ?? (await ownGroupProof(identity, challenge, challenge)),
    didSignature: Buffer.from(ed25519.sign(v3ErasureMessage(fields), forged.signer ?? identity.didKey.secretKey)).toString('base64url'),
    signInProofs: forged.signInProofs ?? (await signInProofs(identity, challenge, scopes)),
  };
}

import { deriveCommitment, deriveDidKey, deriveIdTag, deriveProvingIdentity, normaliseInput, type OprfDomain } from '@zeroid/protocol';
import { credentialIdTag, credentialLeaf } from '@zeroid/protocol/credential';
import { deriveRegistration, provingIdentityV3, type AffinePoint } from '@zeroid/protocol/v3';
import { threadV3Arithmetic } from '../../oprf/baby-jubjub-wasm/wasm-baby-jubjub.ts';
import { libsodiumReady, sodiumEd25519PublicKey } from '../../oprf/libsodium.ts';

/** Whatever computes the finalized OPRF output of an input: the server's key, or the threshold nodes. */
export interface OprfOutputs {
  evaluate(domain: OprfDomain, normalised: string): Promise<Uint8Array>;
  /**
   * The outputs of several inputs in one round, in order, where that is cheaper than one round each
   * (the threshold nodes: one request and one proof per node for a registration, decision 027).
   */
  evaluateMany?(tasks: readonly { domain: OprfDomain; normalised: string }[]): Promise<Uint8Array[]>;
}

/** One protocol version's identity of a person: what its row holds, and (erasure only) its secret scalar. */
export interface RawIdentity {
  commitment: string;
  did: string;
  idTag: string;
  secretScalar?: string;
  /** v3 only, for an ID that came from a credential: the credential leaf (decision 086), filed with the identity. */
  credentialLeaf?: string;
}

/**
 * A person's identity under both protocols (decision 056): v3, which every registration now makes,
 * and v2, which an identity registered before protocol v3 still holds (never moved: its DID would change).
 */
export interface RawDerivation {
  v3: RawIdentity;
  v2: RawIdentity;
}

/**
 * A raw request's values, normalised. `issuer` is set when the ID came from a credential (checked by
 * `credentials/credential-id.ts`): its ID tag is then the credential's (decision 079).
 */
export type RawValues = { idInfo: string; bioInfo: string; withSecretScalar?: boolean; issuer?: AffinePoint };

/** A v3 output, y as 32 big-endian bytes, as the number the derivations take. */
const outputNumber = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

/** The biometric's and the ID's outputs, in one round where the outputs allow it. */
async function outputsOf(oprf: OprfOutputs, bio: string, id: string): Promise<Uint8Array[]> {
  const tasks = [
    { domain: 'bio', normalised: bio },
    { domain: 'id', normalised: id },
  ] as const;
  return oprf.evaluateMany ? oprf.evaluateMany(tasks) : Promise.all(tasks.map((task) => oprf.evaluate(task.domain, task.normalised)));
}

/**
 * The specification's raw path: the client sent its raw ID and biometric, so the server runs the
 * client's side of the derivation on its behalf, with the same protocol code the browser uses, and
 * keeps nothing raw. The values leave this function only as OPRF-hardened commitments, DIDs and tags
 * (and, when asked, the identities' secret scalars, to find sign-in records). Both versions are
 * derived: a registration writes v3, moving the person's v2 identity if they hold one (decision
 * 073); verification finds whichever version the person holds, and erasure erases both.
 */
export async function deriveFromRaw(v2: OprfOutputs, v3: OprfOutputs, raw: RawValues): Promise<RawDerivation> {
  await libsodiumReady;
  const bio = normaliseInput(raw.bioInfo);
  const id = normaliseInput(raw.idInfo);
  const [[v2Bio, v2Id], [v3Bio, v3Id]] = await Promise.all([outputsOf(v2, bio, id), outputsOf(v3, bio, id)]);
  const proving = deriveProvingIdentity(v2Bio!, threadV3Arithmetic);
  const registration = deriveRegistration(outputNumber(v3Bio!), outputNumber(v3Id!), sodiumEd25519PublicKey, threadV3Arithmetic);
  // Only an erasure asks for them (decision 036): they find the person's sign-in records, then are dropped.
  const secret = (scalar: bigint) => (raw.withSecretScalar ? { secretScalar: scalar.toString() } : {});
  // A credential's ID has its issuer's own tag space, apart from plain IDs' (decision 079); it came
  // after v2, so both versions carry that one tag and no plain v2 tag can block its holder.
  const credentialTag = raw.issuer && credentialIdTag(raw.issuer, outputNumber(v3Id!));
  // The same leaf the credential circuit outputs on the zero-knowledge path (decision 086), from the
  // issuer whose signature was checked and the v3 secret: the identity is filed in the credential tree.
  const leaf = raw.issuer && { credentialLeaf: credentialLeaf(raw.issuer, registration.secretScalar) };
  return {
    v3: {
      commitment: registration.commitment,
      did: registration.didKey.did,
      idTag: credentialTag ?? registration.idTag,
      ...secret(registration.secretScalar),
      ...leaf,
    },
    v2: {
      commitment: proving.commitment.toString(),
      did: deriveDidKey(v2Bio!, sodiumEd25519PublicKey).did,
      idTag: credentialTag ?? deriveIdTag(v2Id!),
      ...secret(proving.secretScalar),
    },
  };
}

/** The commitments a raw biometric maps to under each version, for the raw verification path. */
export async function commitmentFromRawBio(v2: OprfOutputs, v3: OprfOutputs, bioInfo: string): Promise<{ v3: string; v2: string }> {
  await libsodiumReady;
  const bio = normaliseInput(bioInfo);
  const [v2Bio, v3Bio] = await Promise.all([v2.evaluate('bio', bio), v3.evaluate('bio', bio)]);
  return {
    v3: provingIdentityV3(outputNumber(v3Bio), threadV3Arithmetic).commitment,
    v2: deriveCommitment(v2Bio, threadV3Arithmetic).toString(),
  };
}

import { deriveCommitment, deriveDidKey, deriveIdTag, deriveProvingIdentity, normaliseInput, type OprfDomain } from '@zeroid/protocol';
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

/**
 * The specification's raw path: the client sent its raw ID and biometric, so the server runs the
 * client's side of the derivation on its behalf, with the same protocol code the browser uses, and
 * keeps nothing raw. The values leave this function only as OPRF-hardened commitment, DID and tag
 * (and, for an erasure only, the identity's secret scalar).
 */
export async function deriveFromRaw(oprf: OprfOutputs, raw: { idInfo: string; bioInfo: string; withSecretScalar?: boolean }) {
  await libsodiumReady;
  const bio = normaliseInput(raw.bioInfo);
  const id = normaliseInput(raw.idInfo);
  const [oprfBio, oprfId] = oprf.evaluateMany
    ? await oprf.evaluateMany([
        { domain: 'bio', normalised: bio },
        { domain: 'id', normalised: id },
      ])
    : await Promise.all([oprf.evaluate('bio', bio), oprf.evaluate('id', id)]);
  const { secretScalar, commitment } = deriveProvingIdentity(oprfBio!);
  return {
    commitment: commitment.toString(),
    did: deriveDidKey(oprfBio!, sodiumEd25519PublicKey).did,
    idTag: deriveIdTag(oprfId!),
    // Only an erasure asks for it (decision 036): it finds the person's sign-in records, then is dropped.
    ...(raw.withSecretScalar ? { secretScalar: secretScalar.toString() } : {}),
  };
}

/** The commitment a raw biometric maps to, for the raw verification path. */
export async function commitmentFromRawBio(oprf: OprfOutputs, bioInfo: string): Promise<string> {
  await libsodiumReady;
  const oprfBio = await oprf.evaluate('bio', normaliseInput(bioInfo));
  return deriveCommitment(oprfBio).toString();
}

import { deriveCommitment, deriveDidKey, deriveIdTag, normaliseInput, type OprfDomain } from '@zeroid/protocol';
import { libsodiumReady, sodiumEd25519PublicKey } from './libsodium.ts';

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
 * The specification's legacy path: the client sent its raw ID and biometric, so the server runs the
 * client's side of the derivation on its behalf, with the same protocol code the browser uses, and
 * keeps nothing raw. The values leave this function only as OPRF-hardened commitment, DID and tag.
 */
export async function deriveFromRaw(oprf: OprfOutputs, raw: { idInfo: string; bioInfo: string }) {
  await libsodiumReady;
  const bio = normaliseInput(raw.bioInfo);
  const id = normaliseInput(raw.idInfo);
  const [oprfBio, oprfId] = oprf.evaluateMany
    ? await oprf.evaluateMany([
        { domain: 'bio', normalised: bio },
        { domain: 'id', normalised: id },
      ])
    : await Promise.all([oprf.evaluate('bio', bio), oprf.evaluate('id', id)]);
  return {
    commitment: deriveCommitment(oprfBio!).toString(),
    did: deriveDidKey(oprfBio!, sodiumEd25519PublicKey).did,
    idTag: deriveIdTag(oprfId!),
  };
}

/** The commitment a raw biometric maps to, for the legacy verification path. */
export async function commitmentFromRawBio(oprf: OprfOutputs, bioInfo: string): Promise<string> {
  await libsodiumReady;
  const oprfBio = await oprf.evaluate('bio', normaliseInput(bioInfo));
  return deriveCommitment(oprfBio).toString();
}

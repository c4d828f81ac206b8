import type { Metrics } from '../metrics.ts';
import type { Registry } from '../member-tree/member-tree.ts';
import { REGISTRATION } from '../limits/guess-costs.ts';
import { giveBackOnNodeFailure, type AdmitGuess } from '../limits/spend-guess.ts';
import type { Storage } from '../storage/types.ts';
import type { ProofVerifier } from '../proofs/verifier/proof-verifier.ts';
import type { CheckedRegistrationV3 } from './check-registration-v3.ts';
import { registerProven } from './register-proven.ts';
import type { RawDeriver } from './raw/raw-deriver.ts';
import type { RawValues } from './raw/raw-identity.ts';

/** A registration request checked to be well formed: proven (zero-knowledge, protocol v3), or the raw values, normalised. */
export type RegistrationRequest = { proven: CheckedRegistrationV3 } | RawValues;

/**
 * The registration use case (POST /register). Either path draws two guesses from the client's guess
 * budget: a raw registration makes two OPRF evaluations, each a guess (its "already registered"
 * answers one); a zero-knowledge one made its rounds at /oprf, but a finished round can be re-blinded
 * (B + s·G, Z + s·K) and registered again without a new one, so the registration itself is what is
 * counted (decision 061). The raw values are derived and dropped. Answers the DID of a new identity,
 * or undefined when the identity was already registered (whose data is never echoed).
 */
export async function registerClaim(
  services: { storage: Storage; registry: Registry; deriver: RawDeriver; metrics: Metrics; proofVerifier: ProofVerifier },
  admit: AdmitGuess,
  request: RegistrationRequest,
  client: string,
): Promise<{ did?: string }> {
  const { storage, registry, deriver, metrics, proofVerifier } = services;
  let did: string;
  let inserted: boolean;
  if ('proven' in request) {
    await admit(REGISTRATION);
    inserted = (await registerProven(storage, proofVerifier, request.proven)).inserted;
    did = request.proven.did;
  } else {
    const admission = await admit(REGISTRATION);
    const derived = await deriver.registration(request, client).catch(async (error: unknown) => {
      await giveBackOnNodeFailure(admission, error);
      throw error;
    });
    metrics.oprfEvaluations.inc({ kind: 'direct' }, 4);
    // Under v3 only (decision 056), and "already registered" for a person who holds a v2 identity.
    // Both versions evaluate the same two inputs: still two guesses. No v2 identity is written any
    // more, so none can appear between the read and the insert.
    const { v3, v2 } = derived;
    inserted = !(await storage.identities.holdsCommitmentOrTag(v2)) && (await storage.identities.register(v3)).inserted;
    did = v3.did;
  }
  metrics.registrations.inc({ mode: 'proven' in request ? 'zk' : 'raw', outcome: inserted ? 'new' : 'existing' });
  if (!inserted) return {};
  // The table is the truth and the registration is committed: the tree catches up in the
  // background, with the other registrations of the moment (every tree question catches up
  // first anyway), so a registration's latency does not grow with the tree's depth.
  registry.catchUpSoon();
  return { did };
}

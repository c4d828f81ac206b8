import type { Metrics } from '../metrics.ts';
import type { Registry } from '../member-tree/member-tree.ts';
import { NOISY_REGISTRATION, REGISTRATION } from '../limits/guess-costs.ts';
import { spendGuess, type AdmitGuess } from '../limits/spend-guess.ts';
import type { NewIdentity, Storage } from '../storage/types.ts';
import { forgetSignIns, subjectsOfSecret } from '../openid/forget-sign-ins.ts';
import type { ProofVerifier } from '../proofs/verifier/proof-verifier.ts';
import type { CheckedRegistrationV3 } from './check-registration-v3.ts';
import { registerProven } from './register-proven.ts';
import type { RawDeriver } from './raw/raw-deriver.ts';
import type { RawIdentity, RawValues } from './raw/raw-identity.ts';
import type { NoisyIrisCode } from '../noisy/read-noisy-bio.ts';
import { registerNoisy } from '../noisy/register-noisy.ts';

/**
 * A registration request checked to be well formed: proven (zero-knowledge, protocol v3), or the raw
 * values, normalised, with the biometric read as a noisy template when the experimental flag is on
 * and it is one (decision 084).
 */
export type RegistrationRequest =
  { proven: CheckedRegistrationV3; moveFromV2?: { commitment: string; idTag: string } } | (RawValues & { noisy?: NoisyIrisCode });

/**
 * The registration use case (POST /register). Either path draws two guesses from the client's guess
 * budget: a raw registration makes two OPRF evaluations, each a guess (its "already registered"
 * answers one); a zero-knowledge one made its rounds at /oprf, but a finished round can be re-blinded
 * (B + s·G, Z + s·K) and registered again without a new one, so the registration itself is what is
 * counted (decision 061). The raw values are derived and dropped. Answers the DID of a new identity
 * (and the v2 DID it replaced, when the registration moved the person's v2 identity, decision 073),
 * or undefined when the identity was already registered (whose data is never echoed).
 */
export async function registerClaim(
  services: { storage: Storage; registry: Registry; deriver: RawDeriver; metrics: Metrics; proofVerifier: ProofVerifier },
  admit: AdmitGuess,
  request: RegistrationRequest,
  client: string,
): Promise<{ did?: string; replacedDid?: string }> {
  const { storage, registry, deriver, metrics, proofVerifier } = services;
  let did: string;
  let inserted: boolean;
  let replacedDid: string | undefined;
  // A registration's guesses stay spent once evaluated (no failure is reserved for it); `spendGuess`
  // gives them back only when the OPRF nodes could not evaluate (decision 053).
  if ('proven' in request) {
    const outcome = await spendGuess(
      admit,
      REGISTRATION,
      () => registerProven(storage, proofVerifier, request.proven, request.moveFromV2),
      () => false,
    );
    inserted = outcome.inserted;
    replacedDid = outcome.replacedDid;
    did = request.proven.did;
  } else if (request.noisy) {
    // Two guesses, as an exact raw registration (the ID and the one reading, whatever it evaluates),
    // and one failure kept whatever the answer: "already registered" says whether this eye is anyone's,
    // so probing by registration is throttled as verification is. The gate comes first: a refusal
    // there (503 NOISY_BUSY) spends nothing (decision 084).
    const noisy = request.noisy;
    const outcome = await deriver.noisyGate!.run(() =>
      spendGuess(
        admit,
        NOISY_REGISTRATION,
        () => registerNoisy(services, { ...request, template: noisy }, client),
        () => true,
      ),
    );
    metrics.oprfEvaluations.inc({ kind: 'direct' }, 2);
    ({ did, inserted } = outcome);
  } else {
    const derived = await spendGuess(
      admit,
      REGISTRATION,
      () => deriver.registration({ ...request, withSecretScalar: true }, client),
      () => false,
    );
    metrics.oprfEvaluations.inc({ kind: 'direct' }, 4);
    // Under v3 only (decision 056). Both versions evaluate the same two inputs: still two guesses.
    const { v3, v2 } = derived;
    did = v3.did;
    const row: NewIdentity = { commitment: v3.commitment, idTag: v3.idTag, did: v3.did };
    if (v3.credentialLeaf !== undefined) row.credentialLeaf = v3.credentialLeaf;
    if (await storage.identities.holdsCommitmentOrTag(v2)) {
      // A v2 identity holds one of these texts. If it holds both, it is this person's: it moves to v3
      // in one transaction (decision 073), evicting whoever registered under the person's v3 values
      // meanwhile (only the zero-knowledge path could). If it holds one, it is someone else's:
      // "already registered", as before. Nothing writes a v2 identity any more.
      replacedDid = await moveRaw(storage, v2, row);
      inserted = replacedDid !== undefined;
      // No move, and no v2 identity holds either text any more: the person's own erasure (another tab, a
      // retry) took it between the check and the move. Nothing is registered, so this is a registration.
      if (!inserted && !(await storage.identities.holdsCommitmentOrTag(v2))) {
        inserted = (await storage.identities.register(row)).inserted;
      }
    } else {
      inserted = (await storage.identities.register(row)).inserted;
    }
  }
  metrics.registrations.inc({ mode: 'proven' in request ? 'zk' : 'raw', outcome: inserted ? 'new' : 'existing' });
  if (!inserted) return {};
  // The table is the truth and the registration is committed: the tree catches up in the
  // background, with the other registrations of the moment (every tree question catches up
  // first anyway), so a registration's latency does not grow with the tree's depth.
  registry.catchUpSoon();
  return replacedDid === undefined ? { did } : { did, replacedDid };
}

/**
 * The raw move (decision 073): the person's v2 row replaced by their v3 one and any squat of their
 * v3 values evicted, in one transaction; then their v2 pseudonyms' sign-in records are forgotten
 * and the freed bytes scrubbed, as an erasure does. The replaced v2 DID, or undefined when no row
 * holds both v2 values (another person's v2 identity holds one of them).
 */
async function moveRaw(storage: Storage, v2: RawIdentity, v3: NewIdentity): Promise<string | undefined> {
  const outcome = await storage.identities.moveFromV2({ from: v2, to: v3, evict: true });
  if (!outcome.moved) return undefined;
  if (v2.secretScalar !== undefined) await forgetSignIns(storage, await subjectsOfSecret(storage, BigInt(v2.secretScalar)));
  await storage.identities.scrubErased();
  return outcome.replacedDid;
}

import type { Metrics } from '../metrics.ts';
import type { Registry } from '../member-tree/member-tree.ts';
import { PROOF_VERIFICATION, RAW_ERASURE } from '../limits/guess-costs.ts';
import { spendGuess, type AdmitGuess } from '../limits/spend-guess.ts';
import type { Storage } from '../storage/types.ts';
import { eraseIdentity, eraseSigned, type SignedErasure } from './erase-identity.ts';
import type { RawDeriver } from './raw/raw-deriver.ts';

/** An erasure request checked to be well formed: signed (zero-knowledge), or the raw values, normalised. */
export type ErasureRequest = { signed: SignedErasure } | { idInfo: string; bioInfo: string };

/**
 * The erasure use case (POST /erase, decision 022), admitted like a verification: a failure is
 * reserved (and two guesses on the raw path, which evaluates the OPRF for the ID and the biometric),
 * and given back when the identity was erased or on an error (`spendGuess`). The raw values are
 * derived and dropped, as at registration. True when the identity was erased.
 */
export async function eraseClaim(
  services: { storage: Storage; registry: Registry; deriver: RawDeriver; metrics: Metrics },
  admit: AdmitGuess,
  request: ErasureRequest,
): Promise<boolean> {
  const { storage, registry, deriver, metrics } = services;
  if ('signed' in request) {
    return spendGuess(
      admit,
      PROOF_VERIFICATION,
      () => eraseSigned(storage, registry, request.signed),
      (erased) => !erased,
    );
  }
  const { idInfo, bioInfo } = request;
  return spendGuess(
    admit,
    RAW_ERASURE,
    async () => {
      const derived = await deriver.registration({ idInfo, bioInfo, withSecretScalar: true });
      metrics.oprfEvaluations.inc({ kind: 'direct' }, 2);
      const secretScalar = derived.secretScalar === undefined ? undefined : BigInt(derived.secretScalar);
      return eraseIdentity(storage, registry, { ...derived, secretScalar });
    },
    (erased) => !erased,
  );
}

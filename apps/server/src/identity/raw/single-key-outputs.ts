import { OprfEvaluator } from '@zeroid/protocol';
import { babyJubjubSuite, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { sodiumRistrettoMultiply } from '../../oprf/libsodium.ts';
import type { OprfOutputs } from './raw-identity.ts';

/**
 * The single key's outputs under each version: v2 with the key itself (ristretto255, on libsodium),
 * v3 with `v3KeyFromV2` of it (decision 056: no second key file; Baby Jubjub, on noble).
 */
export function singleKeyOutputs(privateKey: Uint8Array): { v2: OprfOutputs; v3: OprfOutputs } {
  const v3Key = v3KeyFromV2(privateKey);
  return {
    v2: new OprfEvaluator(privateKey, sodiumRistrettoMultiply),
    v3: { evaluate: (domain, normalised) => babyJubjubSuite.evaluate(v3Key, domain, normalised) },
  };
}

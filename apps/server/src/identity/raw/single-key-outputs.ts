import { OprfEvaluator } from '@zeroid/protocol';
import { decodeScalar, evaluateOutput, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { threadV3Arithmetic } from '../../oprf/baby-jubjub-wasm/wasm-baby-jubjub.ts';
import { sodiumRistrettoMultiply } from '../../oprf/libsodium.ts';
import type { OprfOutputs } from './raw-identity.ts';

/**
 * The single key's outputs under each version: v2 with the key itself (ristretto255, on libsodium),
 * v3 with `v3KeyFromV2` of it (decision 056: no second key file; Baby Jubjub, on WebAssembly, decision 063).
 */
export function singleKeyOutputs(privateKey: Uint8Array): { v2: OprfOutputs; v3: OprfOutputs } {
  const v3Key = decodeScalar(v3KeyFromV2(privateKey))!;
  return {
    v2: new OprfEvaluator(privateKey, sodiumRistrettoMultiply),
    v3: { evaluate: async (domain, normalised) => evaluateOutput(v3Key, domain, normalised, threadV3Arithmetic) },
  };
}

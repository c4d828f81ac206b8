import { blindOprfInput } from './blind-oprf-input.ts';
import { blindThresholdOprfInput } from './blind-threshold-oprf-input.ts';
import type { OprfSuite } from './oprf-group-suite.ts';
import { OprfEvaluator } from './oprf-evaluator.ts';
import { OPRF_SUITE, generateOprfKeyPair, oprfPublicKey } from './oprf-suite.ts';
import { checkPublicShares, oprfPublicShare, recoverOprfKey, refreshOprfShares, splitOprfKey } from './threshold-oprf.ts';

/**
 * Today's suite, RFC 9497 VOPRF with ristretto255-SHA512 (protocols v1 and v2), behind the suite
 * interface: the existing functions, unchanged, so phase B can hand the server and the nodes a suite
 * value without changing what v2 computes. The server's libsodium group operations stay an option of
 * its own evaluator.
 */
export const ristretto255Suite: OprfSuite = {
  id: OPRF_SUITE,
  elementBytes: 32,
  generateKeyPair: generateOprfKeyPair,
  publicKey: oprfPublicKey,
  blindEvaluate: (privateKey, request) => new OprfEvaluator(privateKey).blindEvaluate(request),
  evaluate: (privateKey, domain, normalised) => new OprfEvaluator(privateKey).evaluate(domain, normalised),
  blind: blindOprfInput,
  blindThreshold: blindThresholdOprfInput,
  splitKey: splitOprfKey,
  recoverKey: recoverOprfKey,
  refreshShares: refreshOprfShares,
  publicShare: oprfPublicShare,
  checkPublicShares,
};

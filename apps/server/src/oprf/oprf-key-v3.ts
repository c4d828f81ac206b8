import { G, decodeScalar, v3KeyFromV2, type Point } from '@zeroid/protocol/v3';

/** A single-key server's protocol v3 OPRF key (decision 056): the scalar k₃, its bytes, and K₃ = k₃·G. */
export interface OprfV3Key {
  /** k₃ as the suite takes it (32 bytes, little-endian): `babyJubjubSuite.blindEvaluate`'s key. */
  privateKey: Uint8Array;
  /** k₃ itself: the registration computes Z = k₃·B with it. */
  scalar: bigint;
  publicKey: Point;
}

/**
 * The v3 key of a single-key server, derived from its v2 key (`v3KeyFromV2`): no second key file, and
 * every process holding the v2 key agrees on it.
 */
export function oprfV3Key(v2PrivateKey: Uint8Array): OprfV3Key {
  const privateKey = v3KeyFromV2(v2PrivateKey);
  const scalar = decodeScalar(privateKey)!;
  return { privateKey, scalar, publicKey: G.multiply(scalar) };
}

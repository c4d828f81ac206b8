import type { OprfDomain } from './oprf-suite.ts';
import type { ThresholdBlinding, ThresholdKeys } from './blind-threshold-oprf-input.ts';
import type { OprfKeyShare, OprfPublicShare } from './threshold-oprf.ts';

/**
 * An OPRF suite as the rest of ZeroID is handed it: a value, not an `if` in every file. Everything
 * crosses this interface as bytes (keys, shares, blinded elements, evaluations with their proofs,
 * outputs), so the server's routes, the nodes, `npm run oprf split|refresh`, the key fingerprint and
 * the browser's rounds never name a group. Two suites implement it: `ristretto255Suite` (RFC 9497,
 * protocol v1/v2, today's) and `babyJubjubSuite` (protocol v3, decision 040). What a suite derives
 * from its outputs (commitment, DID, ID tag) is its own, and so is the v3 registration proof.
 */
export interface OprfSuite {
  /** The suite identifier: RFC 9497's name, or v3's `SUITE_ID`. Part of every key fingerprint. */
  readonly id: string;
  /** Bytes of one encoded group element (a blinded element, a public key or share). */
  readonly elementBytes: number;

  /** A fresh key pair. The private key decides every identity: back it up. */
  generateKeyPair(): Promise<{ privateKey: Uint8Array; publicKey: Uint8Array }>;
  /** The public key K = k·G of a private key. @throws on a malformed key. */
  publicKey(privateKey: Uint8Array): Uint8Array;

  /**
   * The evaluator (server or node): one blinded element in, its evaluation and DLEQ proof out. The
   * brute-force gate: anything but one valid, non-identity element of the prime-order group is
   * refused before any multiplication. @throws ProtocolInputError('INVALID_ELEMENT').
   */
  blindEvaluate(privateKey: Uint8Array, request: Uint8Array): Promise<Uint8Array>;
  /** The output a client would finalize, computed directly by the key holder (the raw path). */
  evaluate(privateKey: Uint8Array, domain: OprfDomain, normalised: string): Promise<Uint8Array>;

  /** The client's round against one key: `finalize` checks the proof. @throws OprfProofError from `finalize`. */
  blind(
    publicKey: Uint8Array,
    domain: OprfDomain,
    normalised: string,
  ): Promise<{ request: Uint8Array; finalize(evaluation: Uint8Array): Promise<Uint8Array> }>;
  /**
   * The client's round against t-of-n nodes: one request for all, every answer checked against its
   * node's public share, and the first `threshold` good ones whose shares interpolate to the group
   * key combined (decision 033). @throws ThresholdUnavailableError.
   */
  blindThreshold(keys: ThresholdKeys, domain: OprfDomain, normalised: string): Promise<ThresholdBlinding>;

  /** Shamir shares of the key, any `threshold` of which recover it; the group key does not change. */
  splitKey(privateKey: Uint8Array, threshold: number, count: number): OprfKeyShare[];
  /** The key that the shares interpolate to. */
  recoverKey(shares: OprfKeyShare[]): Uint8Array;
  /** The same key, shared again on a fresh polynomial (old and new shares do not combine). */
  refreshShares(shares: OprfKeyShare[], threshold: number, count: number): OprfKeyShare[];
  /** A node's published Kᵢ. */
  publicShare(share: OprfKeyShare): OprfPublicShare;
  /** @throws ThresholdKeyMismatchError unless the Kᵢ lie on one degree t−1 polynomial through the group key. */
  checkPublicShares(groupPublicKey: Uint8Array, shares: OprfPublicShare[], threshold: number): void;
}

import { createHash, randomBytes } from 'node:crypto';
import sodium from 'libsodium-wrappers-sumo';

/**
 * RFC 9497 VOPRF (ristretto255-SHA512) on libsodium's group operations, for the hot paths that run
 * on Node: a node's BlindEvaluate with its DLEQ proof, and the server's client round in threshold
 * mode (decision 026). The bytes are those of voprf-ts (the browser's and the reference), so a proof
 * made here verifies there and the other way round; sodium-voprf.test.ts checks both directions and
 * the RFC 9497 vectors. Callers await `libsodiumReady` (libsodium.ts) first.
 */

const ELEMENT_BYTES = 32;
const encoder = new TextEncoder();
/** contextString = "OPRFV1-" || I2OSP(mode = VOPRF, 1) || "-" || identifier (RFC 9497 §3.2). */
const CONTEXT = Buffer.concat([encoder.encode('OPRFV1-'), Uint8Array.of(1), encoder.encode('-ristretto255-SHA512')]);
const HASH_TO_GROUP_DST = Buffer.concat([encoder.encode('HashToGroup-'), CONTEXT]);
const HASH_TO_SCALAR_DST = Buffer.concat([encoder.encode('HashToScalar-'), CONTEXT]);
const SEED_DST = Buffer.concat([encoder.encode('Seed-'), CONTEXT]);
const COMPOSITE = encoder.encode('Composite');
const CHALLENGE = encoder.encode('Challenge');
const FINALIZE = encoder.encode('Finalize');
const VOPRF_MODE = 1;
/** A serialized Evaluation of one element: count (2 bytes), the element, the mode byte, then c and s. */
export const EVALUATION_BYTES = 2 + ELEMENT_BYTES + 1 + 2 * 32;

const sha512 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};
const u16 = (n: number) => Uint8Array.of(n >> 8, n & 0xff);
const lengthPrefixed = (bytes: Uint8Array) => [u16(bytes.length), bytes];

/** expand_message_xmd with SHA-512 for 64 bytes (RFC 9380 §5.3.1; one block, so ell = 1). */
function expandMessage64(message: Uint8Array, dst: Uint8Array): Uint8Array {
  const dstPrime = Buffer.concat([dst, Uint8Array.of(dst.length)]);
  const b0 = sha512(new Uint8Array(128), message, u16(64), Uint8Array.of(0), dstPrime);
  return sha512(b0, Uint8Array.of(1), dstPrime);
}

/** HashToScalar: 64 expanded bytes read little-endian, reduced mod ℓ (RFC 9497 §4.1). */
const hashToScalar = (...parts: Uint8Array[]) =>
  sodium.crypto_core_ristretto255_scalar_reduce(expandMessage64(Buffer.concat(parts), HASH_TO_SCALAR_DST));

/** A uniformly random non-zero scalar from node:crypto (64 bytes reduced mod ℓ: bias below 2⁻²⁵⁰). */
function randomScalar(): Uint8Array {
  for (;;) {
    const scalar = sodium.crypto_core_ristretto255_scalar_reduce(randomBytes(64));
    if (scalar.some((byte) => byte !== 0)) return scalar;
  }
}

/** M = d₀·C and its seed-derived weight, for one (C, D) pair (ComputeComposites with m = 1). */
function compositeWeight(publicKey: Uint8Array, c: Uint8Array, d: Uint8Array): Uint8Array {
  const seed = sha512(...lengthPrefixed(publicKey), ...lengthPrefixed(SEED_DST));
  return hashToScalar(...lengthPrefixed(seed), u16(0), ...lengthPrefixed(c), ...lengthPrefixed(d), COMPOSITE);
}

const challenge = (publicKey: Uint8Array, m: Uint8Array, z: Uint8Array, t2: Uint8Array, t3: Uint8Array) =>
  hashToScalar(...[publicKey, m, z, t2, t3].flatMap(lengthPrefixed), CHALLENGE);

/**
 * BlindEvaluate plus GenerateProof (RFC 9497 §2.2.1, §3.3.2) for one blinded element: the serialized
 * Evaluation voprf-ts's `VOPRFServer.blindEvaluate` would give (with another random proof scalar).
 * `blinded` is the element itself (32 bytes), checked by the caller (assertBlindedRequest);
 * `publicKey` is privateKey·G. `proofScalar` is for the RFC's test vectors only: by default a fresh
 * random scalar from node:crypto, as the proof's zero knowledge requires.
 */
export function sodiumBlindEvaluate(
  privateKey: Uint8Array,
  publicKey: Uint8Array,
  blinded: Uint8Array,
  proofScalar?: Uint8Array,
): Uint8Array {
  const evaluated = sodium.crypto_scalarmult_ristretto255(privateKey, blinded);
  // ComputeCompositesFast: Z = k·M, as the prover knows k.
  const m = sodium.crypto_scalarmult_ristretto255(compositeWeight(publicKey, blinded, evaluated), blinded);
  const z = sodium.crypto_scalarmult_ristretto255(privateKey, m);
  const r = proofScalar ?? randomScalar();
  const t2 = sodium.crypto_scalarmult_ristretto255_base(r);
  const t3 = sodium.crypto_scalarmult_ristretto255(r, m);
  const c = challenge(publicKey, m, z, t2, t3);
  const s = sodium.crypto_core_ristretto255_scalar_sub(r, sodium.crypto_core_ristretto255_scalar_mul(c, privateKey));
  if (!proofScalar) r.fill(0);
  return Buffer.concat([u16(1), evaluated, Uint8Array.of(VOPRF_MODE), c, s]);
}

const isCanonicalScalar = (scalar: Uint8Array) =>
  sodium.compare(sodium.crypto_core_ristretto255_scalar_reduce(Buffer.concat([scalar, new Uint8Array(32)])), scalar) === 0;

/**
 * The evaluated element of a serialized one-element VOPRF Evaluation whose DLEQ proof shows
 * log_G(publicKey) = log_blinded(evaluated) (VerifyProof, RFC 9497 §2.2.2); undefined for anything
 * else (malformed bytes, another mode, a non-canonical scalar, a proof that fails).
 */
export function sodiumVerifiedEvaluation(publicKey: Uint8Array, blinded: Uint8Array, serialized: Uint8Array): Uint8Array | undefined {
  if (serialized.length !== EVALUATION_BYTES || serialized[0] !== 0 || serialized[1] !== 1 || serialized[34] !== VOPRF_MODE)
    return undefined;
  const evaluated = serialized.slice(2, 34);
  const c = serialized.slice(35, 67);
  const s = serialized.slice(67, 99);
  if (!sodium.crypto_core_ristretto255_is_valid_point(evaluated) || !isCanonicalScalar(c) || !isCanonicalScalar(s)) return undefined;
  try {
    const weight = compositeWeight(publicKey, blinded, evaluated);
    const m = sodium.crypto_scalarmult_ristretto255(weight, blinded);
    const z = sodium.crypto_scalarmult_ristretto255(weight, evaluated);
    const t2 = sodium.crypto_core_ristretto255_add(
      sodium.crypto_scalarmult_ristretto255_base(s),
      sodium.crypto_scalarmult_ristretto255(c, publicKey),
    );
    const t3 = sodium.crypto_core_ristretto255_add(
      sodium.crypto_scalarmult_ristretto255(s, m),
      sodium.crypto_scalarmult_ristretto255(c, z),
    );
    return sodium.compare(challenge(publicKey, m, z, t2, t3), c) === 0 ? evaluated : undefined;
  } catch {
    // libsodium refuses an identity product: no honest proof leads there.
    return undefined;
  }
}

/** Blind (RFC 9497 §3.3.1): the blind r and the blinded element r·H(input). */
export function sodiumBlind(input: Uint8Array): { blind: Uint8Array; blinded: Uint8Array } {
  const element = sodium.crypto_core_ristretto255_from_hash(expandMessage64(input, HASH_TO_GROUP_DST));
  const blind = randomScalar();
  return { blind, blinded: sodium.crypto_scalarmult_ristretto255(blind, element) };
}

/** Finalize (RFC 9497 §3.3.2): H(input, r⁻¹·evaluated, "Finalize"). */
export function sodiumFinalize(input: Uint8Array, blind: Uint8Array, evaluated: Uint8Array): Uint8Array {
  const unblinded = sodium.crypto_scalarmult_ristretto255(sodium.crypto_core_ristretto255_scalar_invert(blind), evaluated);
  return sha512(...lengthPrefixed(input), ...lengthPrefixed(unblinded), FINALIZE);
}

const scalarOf = (n: number) => {
  const bytes = new Uint8Array(32);
  bytes[0] = n;
  return bytes;
};

/**
 * Σ λᵢ·Zᵢ with λᵢ the Lagrange coefficients at 0 of the answers' indices (1..255, distinct):
 * the single-key evaluation k·B from t partial ones kᵢ·B.
 */
export function sodiumCombine(answers: readonly { index: number; element: Uint8Array }[]): Uint8Array {
  let sum: Uint8Array | undefined;
  for (const { index: xi, element } of answers) {
    let numerator: Uint8Array = scalarOf(1);
    let denominator: Uint8Array = scalarOf(1);
    for (const { index: xj } of answers) {
      if (xj === xi) continue;
      numerator = sodium.crypto_core_ristretto255_scalar_mul(numerator, scalarOf(xj));
      denominator = sodium.crypto_core_ristretto255_scalar_mul(
        denominator,
        sodium.crypto_core_ristretto255_scalar_sub(scalarOf(xj), scalarOf(xi)),
      );
    }
    const lambda = sodium.crypto_core_ristretto255_scalar_mul(numerator, sodium.crypto_core_ristretto255_scalar_invert(denominator));
    const term = sodium.crypto_scalarmult_ristretto255(lambda, element);
    sum = sum ? sodium.crypto_core_ristretto255_add(sum, term) : term;
  }
  if (!sum) throw new RangeError('No answers to combine');
  return sum;
}

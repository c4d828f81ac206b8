import { createHash, randomBytes } from 'node:crypto';
import sodium from 'libsodium-wrappers-sumo';
import { ristretto255 } from './libsodium.ts';

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

/**
 * The seed-derived weights dᵢ of ComputeComposites (RFC 9497 §2.2.1) for the pairs (Cᵢ, Dᵢ):
 * M = Σ dᵢ·Cᵢ and Z = Σ dᵢ·Dᵢ (or k·M for the prover, ComputeCompositesFast).
 */
function compositeWeights(publicKey: Uint8Array, blinded: readonly Uint8Array[], evaluated: readonly Uint8Array[]): Uint8Array[] {
  const seed = sha512(...lengthPrefixed(publicKey), ...lengthPrefixed(SEED_DST));
  return blinded.map((c, i) =>
    hashToScalar(...lengthPrefixed(seed), u16(i), ...lengthPrefixed(c), ...lengthPrefixed(evaluated[i]!), COMPOSITE),
  );
}

/** Σ weightᵢ·pointᵢ (libsodium has no multi-scalar multiplication: one scalar multiplication per term). */
function linearCombination(weights: readonly Uint8Array[], points: readonly Uint8Array[]): Uint8Array {
  let sum = ristretto255.scalarmult(weights[0]!, points[0]!);
  for (let i = 1; i < points.length; i++) sum = ristretto255.add(sum, ristretto255.scalarmult(weights[i]!, points[i]!));
  return sum;
}

const challenge = (publicKey: Uint8Array, m: Uint8Array, z: Uint8Array, t2: Uint8Array, t3: Uint8Array) =>
  hashToScalar(...[publicKey, m, z, t2, t3].flatMap(lengthPrefixed), CHALLENGE);

/**
 * BlindEvaluate of a batch of blinded elements with ONE DLEQ proof for all of them (RFC 9497 §2.2.1,
 * GenerateProof over lists, ComputeCompositesFast as the prover knows k): the serialized Evaluation
 * (count, the evaluated elements, the mode, c, s) that voprf-ts gives for the same EvaluationRequest.
 * A batch of two costs 6 scalar multiplications and a base one, where two single proofs cost 8 and two
 * base ones (decision 027). Each element is checked by the caller (`sodiumBlindedElements`).
 */
export function sodiumBlindEvaluateBatch(
  privateKey: Uint8Array,
  publicKey: Uint8Array,
  blinded: readonly Uint8Array[],
  proofScalar?: Uint8Array,
): Uint8Array {
  const evaluated = blinded.map((element) => ristretto255.scalarmult(privateKey, element));
  // ComputeCompositesFast: Z = k·M, as the prover knows k.
  const m = linearCombination(compositeWeights(publicKey, blinded, evaluated), blinded);
  const z = ristretto255.scalarmult(privateKey, m);
  const r = proofScalar ?? randomScalar();
  const t2 = ristretto255.scalarmultBase(r);
  const t3 = ristretto255.scalarmult(r, m);
  const c = challenge(publicKey, m, z, t2, t3);
  const s = sodium.crypto_core_ristretto255_scalar_sub(r, sodium.crypto_core_ristretto255_scalar_mul(c, privateKey));
  if (!proofScalar) r.fill(0);
  return Buffer.concat([u16(evaluated.length), ...evaluated, Uint8Array.of(VOPRF_MODE), c, s]);
}

const isCanonicalScalar = (scalar: Uint8Array) =>
  sodium.compare(sodium.crypto_core_ristretto255_scalar_reduce(Buffer.concat([scalar, new Uint8Array(32)])), scalar) === 0;

/** A canonical ristretto255 encoding of anything but the identity (whose encoding is 32 zero bytes). */
const isUsableElement = (element: Uint8Array) =>
  element.length === ELEMENT_BYTES && element.some((byte) => byte !== 0) && ristretto255.isValidPoint(element);

/**
 * The blinded elements of a serialized EvaluationRequest (a 2-byte big-endian count, then the
 * elements) holding 1 to `max` canonical, non-identity ristretto255 elements; undefined for anything
 * else. The node's gate before it spends a guess: `assertBlindedRequest` (packages/protocol) with
 * libsodium's decoding instead of noble's BigInt one, which cost a node more per request (docs/benchmarks.md, "libsodium group
 * operations").
 */
export function sodiumBlindedElements(request: Uint8Array, max: number): Uint8Array[] | undefined {
  const count = request.length >= 2 ? (request[0]! << 8) | request[1]! : 0;
  if (count < 1 || count > max || request.length !== 2 + count * ELEMENT_BYTES) return undefined;
  const elements = Array.from({ length: count }, (_, i) => request.slice(2 + i * ELEMENT_BYTES, 2 + (i + 1) * ELEMENT_BYTES));
  return elements.every(isUsableElement) ? elements : undefined;
}

/**
 * The evaluated elements of a serialized VOPRF Evaluation of the batch `blinded` (in order) whose one
 * DLEQ proof shows log_G(publicKey) = log_Cᵢ(Dᵢ) for every i (VerifyProof over lists, RFC 9497
 * §2.2.2, ComputeComposites); undefined for anything else (another count, malformed bytes, another
 * mode, a non-canonical scalar, a proof that fails). Sound for the whole batch: the weights dᵢ are
 * hashed from every (Cᵢ, Dᵢ), so a prover who changes any Dᵢ changes M and Z after the fact.
 */
export function sodiumVerifiedEvaluations(
  publicKey: Uint8Array,
  blinded: readonly Uint8Array[],
  serialized: Uint8Array,
): Uint8Array[] | undefined {
  const count = blinded.length;
  const modeAt = 2 + count * ELEMENT_BYTES;
  if (
    count < 1 ||
    serialized.length !== modeAt + 1 + 64 ||
    serialized[0] !== count >> 8 ||
    serialized[1] !== (count & 0xff) ||
    serialized[modeAt] !== VOPRF_MODE
  )
    return undefined;
  const evaluated = Array.from({ length: count }, (_, i) => serialized.slice(2 + i * ELEMENT_BYTES, 2 + (i + 1) * ELEMENT_BYTES));
  const c = serialized.slice(modeAt + 1, modeAt + 33);
  const s = serialized.slice(modeAt + 33, modeAt + 65);
  if (!evaluated.every((element) => ristretto255.isValidPoint(element)) || !isCanonicalScalar(c) || !isCanonicalScalar(s)) return undefined;
  try {
    const weights = compositeWeights(publicKey, blinded, evaluated);
    const m = linearCombination(weights, blinded);
    const z = linearCombination(weights, evaluated);
    const t2 = ristretto255.add(ristretto255.scalarmultBase(s), ristretto255.scalarmult(c, publicKey));
    const t3 = ristretto255.add(ristretto255.scalarmult(s, m), ristretto255.scalarmult(c, z));
    return sodium.compare(challenge(publicKey, m, z, t2, t3), c) === 0 ? evaluated : undefined;
  } catch {
    // libsodium refuses an identity product: no honest proof leads there.
    return undefined;
  }
}

/** Blind (RFC 9497 §3.3.1): the blind r and the blinded element r·H(input). */
export function sodiumBlind(input: Uint8Array): { blind: Uint8Array; blinded: Uint8Array } {
  const element = ristretto255.fromHash(expandMessage64(input, HASH_TO_GROUP_DST));
  const blind = randomScalar();
  return { blind, blinded: ristretto255.scalarmult(blind, element) };
}

/** Finalize's hash of an element already unblinded (r⁻¹·evaluated): `sodiumCombine` with `scale` r⁻¹ gives one. */
export function sodiumFinalizeUnblinded(input: Uint8Array, unblinded: Uint8Array): Uint8Array {
  return sha512(...lengthPrefixed(input), ...lengthPrefixed(unblinded), FINALIZE);
}

/** r⁻¹ for a blind r: pass it to `sodiumCombine` as `scale` to unblind in the same scalar multiplications. */
export const sodiumUnblinder = (blind: Uint8Array): Uint8Array => sodium.crypto_core_ristretto255_scalar_invert(blind);

const scalarOf = (n: number) => {
  const bytes = new Uint8Array(32);
  bytes[0] = n;
  return bytes;
};

/**
 * λᵢ, the Lagrange coefficient at 0 of index `xi` among `indices` (1..255, distinct): public numbers
 * that depend only on which nodes answered, so each set's are computed once (a registration combined
 * four, each with a field inversion: docs/benchmarks.md, "libsodium group operations").
 */
const lagrangeCache = new Map<string, Uint8Array>();
function lagrangeAtZero(indices: readonly number[], xi: number): Uint8Array {
  const key = `${xi}:${indices.join(',')}`;
  const cached = lagrangeCache.get(key);
  if (cached) return cached;
  let numerator: Uint8Array = scalarOf(1);
  let denominator: Uint8Array = scalarOf(1);
  for (const xj of indices) {
    if (xj === xi) continue;
    numerator = sodium.crypto_core_ristretto255_scalar_mul(numerator, scalarOf(xj));
    denominator = sodium.crypto_core_ristretto255_scalar_mul(
      denominator,
      sodium.crypto_core_ristretto255_scalar_sub(scalarOf(xj), scalarOf(xi)),
    );
  }
  const lambda = sodium.crypto_core_ristretto255_scalar_mul(numerator, sodium.crypto_core_ristretto255_scalar_invert(denominator));
  // The node sets a server meets are few; the bound only keeps a changing set from growing the map.
  if (lagrangeCache.size >= 1024) lagrangeCache.clear();
  lagrangeCache.set(key, lambda);
  return lambda;
}

/**
 * Σ λᵢ·Zᵢ with λᵢ the Lagrange coefficients at 0 of the answers' indices (1..255, distinct):
 * the single-key evaluation k·B from t partial ones kᵢ·B. With `scale` (r⁻¹, `sodiumUnblinder`),
 * Σ (r⁻¹·λᵢ)·Zᵢ = k·H(input), already unblinded: one scalar multiplication fewer than unblinding after.
 */
export function sodiumCombine(answers: readonly { index: number; element: Uint8Array }[], scale?: Uint8Array): Uint8Array {
  const indices = answers.map(({ index }) => index);
  let sum: Uint8Array | undefined;
  for (const { index: xi, element } of answers) {
    const lambda = lagrangeAtZero(indices, xi);
    const term = ristretto255.scalarmult(scale ? sodium.crypto_core_ristretto255_scalar_mul(lambda, scale) : lambda, element);
    sum = sum ? ristretto255.add(sum, term) : term;
  }
  if (!sum) throw new RangeError('No answers to combine');
  return sum;
}

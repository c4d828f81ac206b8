import { ed25519 } from '@noble/curves/ed25519.js';
import { numberToBytesBE } from '@noble/curves/utils.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { didKeyFromPublicKey, type Ed25519PublicKeyOf } from '../did-key.ts';
import { hkdfSecret } from '../hkdf-secret.ts';
import { jsV3Arithmetic, type V3Arithmetic } from './arithmetic.ts';
import { DID_KEY_LABEL, ID_TAG_LABEL, SECRET_BITS, SEMAPHORE_LABEL } from './oprf-suite.ts';

/** Everything a v3 registration derives from the two OPRF outputs. */
export interface RegistrationV3 {
  /** The Semaphore v4 secret scalar (below 2²⁵⁰): what `generateProof` needs. Keep it in memory only. */
  secretScalar: bigint;
  /** Poseidon(secretScalar·Base8), the group leaf, canonical decimal. */
  commitment: string;
  /** Poseidon(ID_TAG_LABEL, y_id) as 64 lowercase hex characters (the v2 wire form); `idTagField` is the same number. */
  idTag: string;
  idTagField: bigint;
  /** The did:key and its Ed25519 key pair, from HKDF(y_bio): outside the circuit, bound by the proof's public input. */
  didKey: { did: string; publicKey: Uint8Array; secretKey: Uint8Array };
}

/**
 * The v3 derivations, all by circomlib's Poseidon so the registration circuit recomputes them:
 * seed = Poseidon(SEMAPHORE_LABEL, y_bio), secret = its low 250 bits (below Baby Jubjub's ℓ, as
 * Semaphore requires; the circuit pins the bits with Num2Bits_strict so the secret is a function of
 * y_bio), commitment = Poseidon(secret·Base8) exactly as Semaphore v4 computes it, and
 * idTag = Poseidon(ID_TAG_LABEL, y_id). The labels keep the two values independent even for equal
 * outputs. The DID's Ed25519 seed is HKDF-SHA256(y_bio, "zeroid/did-key/v3"), not proven in the circuit
 * (an Ed25519 key costs millions of constraints there, decision 016); the registration proof binds the
 * DID as a public input instead. `publicKeyOf` is noble's by default; the server passes libsodium's, as
 * for v2's `deriveDidKey`,
 * and its WebAssembly Baby Jubjub as `arithmetic` (decision 063).
 */
export function deriveRegistration(
  outputBio: bigint,
  outputId: bigint,
  publicKeyOf: Ed25519PublicKeyOf = ed25519.getPublicKey,
  arithmetic: V3Arithmetic = jsV3Arithmetic,
): RegistrationV3 {
  const secretKey = hkdfSecret(numberToBytesBE(outputBio, 32), DID_KEY_LABEL);
  const publicKey = publicKeyOf(secretKey);
  return {
    ...provingIdentityV3(outputBio, arithmetic),
    ...idTagV3(outputId, arithmetic),
    didKey: { did: didKeyFromPublicKey(publicKey), publicKey, secretKey },
  };
}

/**
 * The Semaphore secret scalar and commitment of `deriveRegistration` alone, from y_bio: what a raw
 * verification and a membership proof need, without the DID's HKDF and Ed25519 key.
 */
export function provingIdentityV3(
  outputBio: bigint,
  arithmetic: V3Arithmetic = jsV3Arithmetic,
): { secretScalar: bigint; commitment: string } {
  const seed = arithmetic.poseidon(SEMAPHORE_LABEL, outputBio);
  const secretScalar = seed & ((1n << BigInt(SECRET_BITS)) - 1n);
  const { x, y } = arithmetic.baseTimes(secretScalar);
  return { secretScalar, commitment: arithmetic.poseidon(x, y).toString() };
}

/**
 * The ID tag of `deriveRegistration` alone, from y_id: Poseidon(ID_TAG_LABEL, y_id), as 64 hex digits
 * and as the field element. A v3 erasure shows y_id, and the server recomputes the tag with this.
 */
export function idTagV3(outputId: bigint, arithmetic: V3Arithmetic = jsV3Arithmetic): { idTag: string; idTagField: bigint } {
  const idTagField = arithmetic.poseidon(ID_TAG_LABEL, outputId);
  return { idTag: bytesToHex(numberToBytesBE(idTagField, 32)), idTagField };
}

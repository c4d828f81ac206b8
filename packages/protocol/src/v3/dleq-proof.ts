import { challengeHash } from '@taceo/oprf-core';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { Fn, G, randomScalar, type Point } from './baby-jubjub-group.ts';

/** A Chaum–Pedersen proof: the challenge e (a BN254 field element) and the response s (mod ℓ). */
export interface DleqProof {
  e: bigint;
  s: bigint;
}

/**
 * Proves, without revealing k, that log_G(K) = log_B(Z): the evaluator used its published key K on
 * this blinded point. Chaum–Pedersen made non-interactive by Fiat–Shamir, in TACEO's transcript:
 * t random, R₁ = t·G, R₂ = t·B, e = Poseidon2_t16("DLOG Equality Proof", K, B, Z, G, R₁, R₂)[1]
 * (`challengeHash` of `@taceo/oprf-core`), s = t + e·k mod ℓ. Unlike that library's prover, the secret
 * k and the nonce t go only through noble's constant-time `multiply`, so the key does not leak through
 * timing. `nonce` is for known-answer tests only.
 */
export function proveDleq(
  privateKey: bigint,
  publicKey: Point,
  blinded: Point,
  evaluated: Point,
  nonce: bigint = randomScalar(),
): DleqProof {
  const e = challenge(publicKey, blinded, evaluated, G.multiply(nonce), blinded.multiply(nonce));
  return { e, s: Fn.add(nonce, Fn.mul(Fn.create(e), privateKey)) };
}

/**
 * True when `proof` shows log_G(publicKey) = log_blinded(evaluated). The points must already be
 * checked subgroup points (`decodePoint`); the proof's numbers are range-checked here. Public data
 * only, so the variable-time multiplication is fine.
 */
export function verifyDleq(publicKey: Point, blinded: Point, evaluated: Point, proof: DleqProof): boolean {
  const { e, s } = proof;
  if (typeof e !== 'bigint' || typeof s !== 'bigint' || e < 0n || e >= SNARK_SCALAR_FIELD || s < 0n || s >= Fn.ORDER) return false;
  const eScalar = Fn.create(e);
  const r1 = G.multiplyUnsafe(s).subtract(publicKey.multiplyUnsafe(eScalar));
  const r2 = blinded.multiplyUnsafe(s).subtract(evaluated.multiplyUnsafe(eScalar));
  if (r1.is0() || r2.is0()) return false;
  return challenge(publicKey, blinded, evaluated, r1, r2) === e;
}

function challenge(publicKey: Point, blinded: Point, evaluated: Point, r1: Point, r2: Point): bigint {
  return challengeHash(publicKey.toAffine(), blinded.toAffine(), evaluated.toAffine(), G.toAffine(), r1.toAffine(), r2.toAffine());
}

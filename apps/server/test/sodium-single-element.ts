import { ristretto255 } from '../src/oprf/libsodium.ts';
import { sodiumBlindEvaluateBatch, sodiumFinalizeUnblinded, sodiumUnblinder, sodiumVerifiedEvaluations } from '../src/oprf/sodium-voprf.ts';

/**
 * One-element forms of the libsodium VOPRF (apps/server/src/oprf/sodium-voprf.ts), which the server
 * only runs in batches: the tests use them to check a batch of one against the RFC 9497 vectors and
 * voprf-ts, and to play one node's answer. Callers await `libsodiumReady` first.
 */

/**
 * BlindEvaluate plus GenerateProof (RFC 9497 §2.2.1, §3.3.2) for one blinded element: the serialized
 * Evaluation voprf-ts's `VOPRFServer.blindEvaluate` would give (with another random proof scalar).
 * `proofScalar` is for the RFC's test vectors only: by default a fresh random scalar.
 */
export function sodiumBlindEvaluate(
  privateKey: Uint8Array,
  publicKey: Uint8Array,
  blinded: Uint8Array,
  proofScalar?: Uint8Array,
): Uint8Array {
  return sodiumBlindEvaluateBatch(privateKey, publicKey, [blinded], proofScalar);
}

/**
 * The evaluated element of a serialized one-element VOPRF Evaluation whose DLEQ proof shows
 * log_G(publicKey) = log_blinded(evaluated) (VerifyProof, RFC 9497 §2.2.2); undefined for anything else.
 */
export function sodiumVerifiedEvaluation(publicKey: Uint8Array, blinded: Uint8Array, serialized: Uint8Array): Uint8Array | undefined {
  return sodiumVerifiedEvaluations(publicKey, [blinded], serialized)?.[0];
}

/** Finalize (RFC 9497 §3.3.2): H(input, r⁻¹·evaluated, "Finalize"). */
export function sodiumFinalize(input: Uint8Array, blind: Uint8Array, evaluated: Uint8Array): Uint8Array {
  return sodiumFinalizeUnblinded(input, ristretto255.scalarmult(sodiumUnblinder(blind), evaluated));
}

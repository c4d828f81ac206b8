import { ed25519 } from '@noble/curves/ed25519.js';
import { base64urlnopad } from '@scure/base';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon5 } from 'poseidon-lite/poseidon5';
import { BabyJubjub } from '../src/baby-jubjub-commitment.ts';
import type { RegistrationSignatures } from '../src/registration-signatures.ts';
import { SMALL_ORDER_POINTS } from '../src/semaphore-public-key.ts';
import { v2RegistrationMessage, v2RegistrationScalar, type ZkRegisterFields } from './v2-registration.ts';

/** The order l of Baby Jubjub's prime subgroup. */
export const SUBGROUP_ORDER = BabyJubjub.Fn.ORDER;

type Point = [bigint, bigint];

/** A point of order 8, which generates the whole torsion subgroup. */
const [torsion8] = SMALL_ORDER_POINTS.filter((p) => p.order === 8);

/** k · Base8, the public key of the secret scalar k. */
export function subgroupPoint(k: bigint): Point {
  const { x, y } = BabyJubjub.BASE.multiply(k).toAffine();
  return [x, y];
}

/** k · Base8 plus a point of order 8: on the curve, but of order 8l, outside the prime-order subgroup. */
export function mixedOrderPoint(k: bigint): Point {
  const { x, y } = BabyJubjub.BASE.multiply(k).add(BabyJubjub.fromAffine(torsion8!)).toAffine();
  return [x, y];
}

/**
 * An EdDSA-Poseidon signature that zk-kit's `verifySignature` accepts under `publicKey`, made by
 * someone who knows only k with 8 · publicKey = 8k · Base8. For a small-order key k is 0: no
 * secret at all. The verifier multiplies the key by 8 · hm, which erases any small-order part.
 */
export function forgeSemaphoreSignature(publicKey: Point, k: bigint, message: bigint) {
  const r = 0x5eedn;
  const R8 = subgroupPoint(r);
  const hm = poseidon5([R8[0], R8[1], publicKey[0], publicKey[1], message]);
  return { R8, S: (r + 8n * hm * k) % SUBGROUP_ORDER };
}

/**
 * A complete v2 zero-knowledge registration body for `publicKey` (commitment poseidon2 of the key unless
 * given), with a forged Semaphore signature and a real Ed25519 signature by `didSecretKey`.
 */
export function forgeRegistration(
  base: Omit<ZkRegisterFields, 'commitment'> & { commitment?: string },
  didSecretKey: Uint8Array,
  publicKey: Point,
  k: bigint,
): { fields: ZkRegisterFields; signatures: RegistrationSignatures } {
  const fields = { ...base, commitment: base.commitment ?? poseidon2(publicKey).toString() };
  const { R8, S } = forgeSemaphoreSignature(publicKey, k, v2RegistrationScalar(fields));
  return {
    fields,
    signatures: {
      semaphore: {
        publicKey: [publicKey[0].toString(), publicKey[1].toString()],
        signature: { R8: [R8[0].toString(), R8[1].toString()], S: S.toString() },
      },
      did: base64urlnopad.encode(ed25519.sign(v2RegistrationMessage(fields), didSecretKey)),
    },
  };
}

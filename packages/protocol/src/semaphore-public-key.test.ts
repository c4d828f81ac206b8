import { Identity } from '@semaphore-protocol/identity';
import fc from 'fast-check';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { describe, expect, it } from 'vitest';
import { BabyJubjub } from './baby-jubjub-commitment.ts';
import { deriveDidKey } from './did-key.ts';
import { deriveIdentity } from './derive-identity.ts';
import { verifyPossession, type RegistrationSignatures } from './registration-signatures.ts';
import { SMALL_ORDER_POINTS, isDegenerateCommitment, isSemaphorePublicKey } from './semaphore-public-key.ts';
import { semaphoreHash } from './semaphore-hash.ts';
import { isZeroSecretProof } from './zero-secret-proof.ts';
import { forgeRegistration, forgeSemaphoreSignature, mixedOrderPoint, subgroupPoint } from '../test/forge-registration.ts';
import { signV2Registration, v2RegistrationMessage, v2RegistrationScalar, type ZkRegisterFields } from '../test/v2-registration.ts';

const didKey = deriveDidKey(new Uint8Array(64).fill(9));
const base = { idTag: 'ef'.repeat(32), did: didKey.did, challenge: '777' };
type Point = [bigint, bigint];
/** Possession checked over the message a v2 registration of `fields` signed. */
const verify = (fields: ZkRegisterFields, signatures: RegistrationSignatures) =>
  verifyPossession(v2RegistrationMessage(fields), fields, signatures);

/** The order of a point, by adding it to itself (at most 8 steps for a small-order point). */
function orderOf([x, y]: Point): number {
  const point = BabyJubjub.fromAffine({ x, y });
  let sum = point;
  for (let order = 1; order <= 8; order++, sum = sum.add(point)) if (sum.is0()) return order;
  return Infinity;
}

describe('the small-order points of Baby Jubjub', () => {
  it('are exactly eight distinct points on the curve, of the stated orders 1, 2, 4, 4, 8, 8, 8, 8', () => {
    const keys = new Set(SMALL_ORDER_POINTS.map(({ x, y }) => `${x},${y}`));
    expect(keys.size).toBe(8);
    for (const { x, y, order } of SMALL_ORDER_POINTS) {
      // noble's assertValidity refuses the identity by name; it is on the curve (a·0 + 1 = 1 + d·0).
      if (order === 1) expect(BabyJubjub.fromAffine({ x, y }).is0()).toBe(true);
      else expect(() => BabyJubjub.fromAffine({ x, y }).assertValidity()).not.toThrow();
      expect(orderOf([x, y])).toBe(order);
    }
    expect(SMALL_ORDER_POINTS.map((p) => p.order)).toEqual([1, 2, 4, 4, 8, 8, 8, 8]);
  });
});

describe('degenerate Semaphore keys are refused', () => {
  const mixed = mixedOrderPoint(123456789n);
  const classes: Array<[string, Point, bigint]> = [
    ...SMALL_ORDER_POINTS.map(({ x, y, order }): [string, Point, bigint] => [
      `a point of order ${order} (${x === 0n ? x : 'x'}, ${y})`,
      [x, y],
      0n,
    ]),
    ['a mixed-order point: k · Base8 plus a point of order 8', mixed, 123456789n],
  ];

  it.each(classes)('%s: zk-kit accepts a signature made without its secret; we refuse the key', (_name, point, k) => {
    const { fields, signatures } = forgeRegistration(base, didKey.secretKey, point, k);
    const { R8, S } = forgeSemaphoreSignature(point, k, v2RegistrationScalar(fields));
    // The attack: the library's own check passes for a key nobody holds a secret for.
    expect(Identity.verifySignature(v2RegistrationScalar(fields), { R8, S }, point)).toBe(true);
    expect(isSemaphorePublicKey(point)).toBe(false);
    expect(verify(fields, signatures)).toBe(false);
  });

  it('refuses a point off the curve', () => {
    const [x, y] = subgroupPoint(42n);
    expect(isSemaphorePublicKey([x, y + 1n])).toBe(false);
    expect(isSemaphorePublicKey([x, y])).toBe(true);
    const { fields, signatures } = forgeRegistration(base, didKey.secretKey, [x, y + 1n], 42n);
    expect(verify(fields, signatures)).toBe(false);
  });

  it.each(SMALL_ORDER_POINTS.map(({ x, y, order }) => [order, x, y] as const))(
    'refuses the commitment of a point of order %i even with a valid key beside it',
    (_order, x, y) => {
      const commitment = poseidon2([x, y]).toString();
      expect(isDegenerateCommitment(commitment)).toBe(true);
      const { fields, signatures } = forgeRegistration({ ...base, commitment }, didKey.secretKey, subgroupPoint(5n), 5n);
      expect(verify(fields, signatures)).toBe(false);
    },
  );

  it('accepts every real identity key and commitment, and its registration', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (oprfBio) => {
        const identity = deriveIdentity(oprfBio);
        expect(isSemaphorePublicKey(identity.publicKey)).toBe(true);
        expect(isDegenerateCommitment(identity.commitment)).toBe(false);
      }),
      { numRuns: 10 },
    );
    const identity = deriveIdentity(new Uint8Array(64).fill(3));
    const fields = { ...base, commitment: identity.commitment.toString() };
    const signatures = signV2Registration(identity, didKey.secretKey, fields);
    expect(verify(fields, signatures)).toBe(true);
  });
});

describe('a proof made with the secret 0', () => {
  it('is recognised by its nullifier, poseidon2(hash(scope), 0), and no other nullifier is', () => {
    const scope = '123456789';
    const nullifier = poseidon2([semaphoreHash(scope), 0n]).toString();
    expect(isZeroSecretProof({ scope, nullifier })).toBe(true);
    expect(isZeroSecretProof({ scope: '123456790', nullifier })).toBe(false);
    expect(isZeroSecretProof({ scope, nullifier: poseidon2([semaphoreHash(scope), 1n]).toString() })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { G, Point, decodePoint, decodeScalar, encodePoint, Fn, pointFromAffine, randomScalar } from './baby-jubjub-group.ts';

// A point of order 2 on Baby Jubjub: (0, −1). Added to a subgroup point it gives a mixed-order point.
const order2 = Point.fromAffine({ x: 0n, y: Point.Fp.neg(1n) });

describe('v3 group: what a point or scalar from outside must be', () => {
  it('round-trips subgroup points through 32 bytes', () => {
    const p = G.multiply(randomScalar());
    expect(decodePoint(encodePoint(p))?.equals(p)).toBe(true);
  });

  it('refuses the identity, small- and mixed-order points, and malformed or non-canonical bytes', () => {
    expect(decodePoint(encodePoint(Point.ZERO))).toBeUndefined();
    expect(decodePoint(encodePoint(order2))).toBeUndefined();
    expect(decodePoint(encodePoint(G.add(order2)))).toBeUndefined();
    expect(pointFromAffine(G.add(order2).toAffine())).toBeUndefined();
    expect(pointFromAffine({ x: 1n, y: 2n })).toBeUndefined();
    expect(decodePoint(new Uint8Array(31))).toBeUndefined();
    expect(decodePoint(new Uint8Array(32).fill(0xff))).toBeUndefined();
    // y + p still fits in 255 bits for small y: the same point, not in its one canonical form.
    const canonical = encodePoint(G);
    const y = canonical.reduce((acc, byte, i) => acc + (BigInt(i === 31 ? byte & 0x7f : byte) << BigInt(8 * i)), 0n);
    if (y + Point.Fp.ORDER < 1n << 255n) {
      const bytes = new Uint8Array(32);
      let v = y + Point.Fp.ORDER;
      for (let i = 0; i < 32; i++, v >>= 8n) bytes[i] = Number(v & 0xffn);
      bytes[31]! |= canonical[31]! & 0x80;
      expect(decodePoint(bytes)).toBeUndefined();
    }
  });

  it('takes only canonical scalars below ℓ', () => {
    expect(decodeScalar(Fn.toBytes(5n))).toBe(5n);
    const order = new Uint8Array(32);
    let v = Fn.ORDER;
    for (let i = 0; i < 32; i++, v >>= 8n) order[i] = Number(v & 0xffn);
    expect(decodeScalar(order)).toBeUndefined();
    expect(decodeScalar(new Uint8Array(33))).toBeUndefined();
  });
});

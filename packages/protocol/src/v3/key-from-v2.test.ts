import { describe, expect, it } from 'vitest';
import { babyJubjubSuite } from './baby-jubjub-suite.ts';
import { decodeScalar } from './baby-jubjub-group.ts';
import { v3KeyFromV2 } from './key-from-v2.ts';

describe('v3KeyFromV2', () => {
  it('derives one canonical scalar per v2 key, different for different keys', () => {
    const a = v3KeyFromV2(new Uint8Array(32).fill(7));
    expect(v3KeyFromV2(new Uint8Array(32).fill(7))).toEqual(a);
    expect(decodeScalar(a)).toBeGreaterThan(0n);
    expect(v3KeyFromV2(new Uint8Array(32).fill(8))).not.toEqual(a);
    // Known answer: a change to the derivation changes every single-key server's v3 identities.
    expect(Buffer.from(babyJubjubSuite.publicKey(a)).toString('base64url')).toBe(KNOWN_PUBLIC_KEY);
  });
});
const KNOWN_PUBLIC_KEY = 'AZonzob2gtgdx35KYK2nTDeXUDrIrqlBjwJLzpf-TwM';

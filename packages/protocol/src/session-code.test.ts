import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { sessionCode } from './session-code.ts';

describe('sessionCode', () => {
  const session = '0123456789abcdef0123456789abcdef';

  it('is six digits of SHA-256 of the domain-separated session id', () => {
    const digest = sha256(new TextEncoder().encode(`zeroid/session-code/v1\u0000${session}`));
    const expected = (new DataView(digest.buffer, digest.byteOffset).getUint32(0) % 1_000_000).toString().padStart(6, '0');
    expect(sessionCode(session)).toBe(expected);
    expect(sessionCode(session)).toMatch(/^\d{6}$/);
  });

  it('differs between sessions, so a relayed QR code shows the other screen’s code', () => {
    const codes = new Set(Array.from({ length: 200 }, (_, i) => sessionCode(i.toString(16).padStart(32, '0'))));
    expect(codes.size).toBeGreaterThan(195);
    expect(sessionCode('f'.repeat(32))).not.toBe(sessionCode(session));
  });
});

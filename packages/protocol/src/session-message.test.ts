import { describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import { SNARK_SCALAR_FIELD } from './field.ts';
import { sessionMessage } from './session-message.ts';

describe('sessionMessage', () => {
  const session = '0123456789abcdef0123456789abcdef';

  it('is SHA-256 of the domain-separated session and challenge, reduced mod r', async () => {
    const encoded = new TextEncoder().encode(`zeroid/session/v1\u0000${session}\u000042`);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoded));
    const expected = (BigInt(`0x${bytesToHex(digest)}`) % SNARK_SCALAR_FIELD).toString();
    expect(sessionMessage('42', session)).toBe(expected);
    expect(BigInt(expected)).toBeLessThan(SNARK_SCALAR_FIELD);
  });

  it('differs for another session or another challenge, so a proof completes one screen only', () => {
    const message = sessionMessage('42', session);
    expect(sessionMessage('42', 'f'.repeat(32))).not.toBe(message);
    expect(sessionMessage('43', session)).not.toBe(message);
    expect(message).not.toBe('42');
  });
});
